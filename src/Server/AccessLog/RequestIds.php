<?php

declare(strict_types=1);

namespace Spindle\Server\AccessLog;

/**
 * Gives every request an X-Request-Id: the client's (or the proxy's) when it sent a usable one
 * (1 to 200 visible ASCII characters), else a new one: this worker's random prefix (48 bits) and
 * a counter ("9c1f03a2be71-42"), unique without a system call per request. The connection puts
 * it into the request's headers as it builds the request, so the app sees it as if the client
 * had sent it.
 */
final class RequestIds
{
    private readonly string $prefix;
    private int $counter = 0;

    public function __construct()
    {
        $this->prefix = \bin2hex(\random_bytes(6)) . '-';
    }

    /**
     * @param array<string, list<string>> $headers lower-case names
     *
     * @return array<string, list<string>>
     */
    public function __invoke(array $headers): array
    {
        $given = $headers['x-request-id'] ?? null;
        if ($given !== null && \count($given) === 1 && $given[0] !== '' && \strlen($given[0]) <= 200 && \preg_match('/[^\x21-\x7e]/', $given[0]) === 0) {
            return $headers;
        }
        $headers['x-request-id'] = [$this->prefix . ++$this->counter];

        return $headers;
    }
}
