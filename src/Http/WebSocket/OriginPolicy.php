<?php

declare(strict_types=1);

namespace Spindle\Http\WebSocket;

/**
 * Which browser origins may open a WebSocket (RFC 6455 §10.2: the server checks Origin to refuse
 * pages of other sites). Each allowed entry is an origin (`https://app.example.com`, port
 * included when it is not the scheme's default), a host without scheme (`app.example.com`: any
 * scheme and port), a pattern with `*` for one or more DNS labels (`https://*.example.com`,
 * `*.example.com`; it does not match example.com itself), or `*` for every origin.
 *
 * A request without Origin comes from no browser page (a native client, a server): allowed unless
 * $requireOrigin. Comparison ignores case.
 */
final class OriginPolicy
{
    /** @var list<string> */
    private readonly array $patterns;

    /** @param list<string> $allowed */
    public function __construct(array $allowed, private readonly bool $requireOrigin = false)
    {
        $patterns = [];
        foreach ($allowed as $entry) {
            $entry = \strtolower(\rtrim(\trim($entry), '/'));
            if ($entry === '*') {
                $patterns[] = '~^.*$~';
                continue;
            }
            $hasScheme = \str_contains($entry, '://');
            $quoted = \str_replace('\*', '[a-z0-9-]+(?:\.[a-z0-9-]+)*', \preg_quote($entry, '~'));
            $patterns[] = $hasScheme ? '~^' . $quoted . '$~' : '~^[a-z][a-z0-9+.-]*://' . $quoted . '(?::\d+)?$~';
        }
        $this->patterns = $patterns;
    }

    /** Every origin allowed. */
    public static function any(): self
    {
        return new self(['*']);
    }

    public function allows(?string $origin): bool
    {
        if ($origin === null || $origin === '') {
            return !$this->requireOrigin;
        }
        $origin = \strtolower($origin);
        foreach ($this->patterns as $pattern) {
            if (\preg_match($pattern, $origin) === 1) {
                return true;
            }
        }

        return false;
    }
}
