<?php

declare(strict_types=1);

namespace Spindle\HttpClient;

/** An absolute http(s) URL split into what a request needs. */
final class Url
{
    public function __construct(
        public readonly string $scheme,
        public readonly string $host,
        public readonly int $port,
        public readonly string $target,
        public readonly string $userInfo = '',
    ) {
    }

    /** @throws HttpClientError when $url is not an absolute http or https URL */
    public static function parse(string $url): self
    {
        $parts = \parse_url($url);
        $scheme = \strtolower($parts['scheme'] ?? '');
        if ($parts === false || !\in_array($scheme, ['http', 'https'], true) || ($parts['host'] ?? '') === '') {
            throw new HttpClientError(\sprintf('Not an absolute http(s) URL: %s', $url));
        }
        $target = ($parts['path'] ?? '') === '' ? '/' : $parts['path'];
        if (isset($parts['query'])) {
            $target .= '?' . $parts['query'];
        }
        $userInfo = isset($parts['user']) ? $parts['user'] . (isset($parts['pass']) ? ':' . $parts['pass'] : '') : '';

        return new self($scheme, \strtolower($parts['host']), $parts['port'] ?? ($scheme === 'https' ? 443 : 80), $target, $userInfo);
    }

    /** Resolves a Location value against this URL (RFC 3986 §5.2, the common cases). */
    public function resolve(string $reference): self
    {
        if (\preg_match('#^[a-zA-Z][a-zA-Z0-9+.-]*:#', $reference) === 1) {
            return self::parse($reference);
        }
        if (\str_starts_with($reference, '//')) {
            return self::parse($this->scheme . ':' . $reference);
        }
        $reference = \explode('#', $reference, 2)[0];
        if ($reference === '') {
            return $this;
        }
        if (\str_starts_with($reference, '?')) {
            return new self($this->scheme, $this->host, $this->port, \explode('?', $this->target, 2)[0] . $reference, $this->userInfo);
        }
        if (!\str_starts_with($reference, '/')) {
            $path = \explode('?', $this->target, 2)[0];
            $reference = \substr($path, 0, (int) \strrpos($path, '/') + 1) . $reference;
        }
        [$path, $query] = \array_pad(\explode('?', $reference, 2), 2, null);
        $segments = [];
        foreach (\explode('/', (string) $path) as $segment) {
            if ($segment === '..') {
                \array_pop($segments);
                if ($segments === []) {
                    $segments[] = '';
                }
            } elseif ($segment !== '.') {
                $segments[] = $segment;
            }
        }
        $path = \implode('/', $segments);
        if (!\str_starts_with($path, '/')) {
            $path = '/' . $path;
        }

        return new self($this->scheme, $this->host, $this->port, $path . ($query !== null ? '?' . $query : ''), $this->userInfo);
    }

    /** scheme://host:port, the key of the connection pool and of the same-origin checks. */
    public function origin(): string
    {
        return $this->scheme . '://' . $this->authority(true);
    }

    /** host[:port] as sent in Host (the port only when it is not the scheme's default, unless $always). */
    public function authority(bool $always = false): string
    {
        $host = \str_contains($this->host, ':') ? '[' . \trim($this->host, '[]') . ']' : $this->host;
        $default = $this->scheme === 'https' ? 443 : 80;

        return $always || $this->port !== $default ? $host . ':' . $this->port : $host;
    }

    public function __toString(): string
    {
        return $this->scheme . '://' . $this->authority() . $this->target;
    }
}
