<?php

declare(strict_types=1);

namespace Spindle\Redis;

/**
 * Where and how to connect: built from a `redis://`, `rediss://` (TLS) or `unix://` URL, or from
 * the option array Laravel's config/database.php uses (host, port, password, username, database,
 * timeout, read_timeout, name, scheme, path).
 *
 * Timeouts are seconds; 0 means no limit. The read timeout bounds the wait for each reply (a
 * blocking command adds its own timeout to it).
 */
final class RedisConfig
{
    public const DEFAULT_POOL_SIZE = 32;

    /**
     * @param array<string, mixed> $tlsOptions stream context `ssl` options for rediss://
     */
    public function __construct(
        public readonly string $host = '127.0.0.1',
        public readonly int $port = 6379,
        public readonly ?string $unixSocket = null,
        public readonly bool $tls = false,
        public readonly array $tlsOptions = [],
        public readonly ?string $username = null,
        public readonly ?string $password = null,
        public readonly int $database = 0,
        public readonly ?string $clientName = null,
        public readonly float $connectTimeout = 5.0,
        public readonly float $readTimeout = 60.0,
        public readonly int $poolSize = self::DEFAULT_POOL_SIZE,
        public readonly int $maxBulkLength = Protocol\RespParser::DEFAULT_MAX_BULK_LENGTH,
        public readonly int $protocol = 2,
    ) {
        if ($port < 0 || $port > 65535) {
            throw new RedisError(sprintf('Invalid Redis port %d', $port));
        }
        if ($database < 0) {
            throw new RedisError(sprintf('Invalid Redis database %d', $database));
        }
        if ($poolSize < 1) {
            throw new RedisError('The Redis pool size must be at least 1');
        }
        if ($protocol !== 2 && $protocol !== 3) {
            throw new RedisError(sprintf('Unsupported RESP protocol version %d (2 or 3)', $protocol));
        }
    }

    /**
     * `redis://[[user]:password@]host[:port][/database][?timeout=&read_timeout=&name=&pool_size=&protocol=]`,
     * `rediss://…` for TLS, `unix:///path/to/socket[?database=]`.
     */
    public static function fromUrl(string $url): self
    {
        if (str_starts_with(strtolower($url), 'unix://')) {
            $path = substr($url, 7);
            $query = [];
            if (str_contains($path, '?')) {
                [$path, $queryString] = explode('?', $path, 2);
                parse_str($queryString, $query);
            }
            $options = ['path' => $path];
            foreach ($query as $name => $value) {
                $options[(string) $name] = $value;
            }

            return self::fromArray($options);
        }
        $parts = parse_url($url);
        if ($parts === false || !isset($parts['scheme'])) {
            throw new RedisError(sprintf('Invalid Redis URL "%s"', $url));
        }
        $query = [];
        parse_str($parts['query'] ?? '', $query);
        $options = [];
        foreach ($query as $name => $value) {
            $options[(string) $name] = $value;
        }
        $scheme = strtolower($parts['scheme']);
        if ($scheme === 'redis' || $scheme === 'rediss' || $scheme === 'tcp' || $scheme === 'tls') {
            $options['scheme'] = $scheme === 'rediss' ? 'tls' : $scheme;
            $options['host'] = $parts['host'] ?? '127.0.0.1';
            $options['port'] = $parts['port'] ?? 6379;
            $path = trim($parts['path'] ?? '', '/');
            if ($path !== '') {
                $options['database'] = $path;
            }
        } else {
            throw new RedisError(sprintf('Unsupported Redis URL scheme "%s" (redis, rediss or unix)', $scheme));
        }
        if (isset($parts['user']) && $parts['user'] !== '') {
            $options['username'] = rawurldecode($parts['user']);
        }
        if (isset($parts['pass'])) {
            $options['password'] = rawurldecode($parts['pass']);
        }

        return self::fromArray($options);
    }

    /** @param array<string, mixed> $options Laravel's keys (see the class comment) */
    public static function fromArray(array $options): self
    {
        if (isset($options['url']) && \is_string($options['url']) && $options['url'] !== '') {
            $url = $options['url'];
            unset($options['url']);

            return self::fromArray($options + self::fromUrl($url)->toArray());
        }
        $scheme = strtolower(self::string($options, 'scheme') ?? 'tcp');
        $host = self::string($options, 'host') ?? '127.0.0.1';
        $unix = self::string($options, 'path');
        if ($unix === null && (str_starts_with($host, '/') || str_starts_with($host, 'unix://'))) {
            $unix = str_starts_with($host, 'unix://') ? substr($host, 7) : $host;
        }
        if (str_starts_with($host, 'tls://') || str_starts_with($host, 'tcp://')) {
            $scheme = substr($host, 0, 3);
            $host = substr($host, 6);
        }
        $password = $options['password'] ?? null;
        $username = $options['username'] ?? null;
        if (\is_array($password)) {
            // phpredis's ['user', 'pass'] form
            [$username, $password] = [$password[0] ?? null, $password[1] ?? null];
        }
        $tls = $options['ssl'] ?? $options['context']['ssl'] ?? $options['tls'] ?? [];

        return new self(
            host: $host,
            port: (int) ($options['port'] ?? 6379),
            unixSocket: $unix,
            tls: $scheme === 'tls' || $scheme === 'rediss',
            tlsOptions: \is_array($tls) ? $tls : [],
            username: $username === null || $username === '' ? null : (string) $username,
            password: $password === null || $password === '' ? null : (string) $password,
            database: (int) ($options['database'] ?? 0),
            clientName: self::string($options, 'name'),
            connectTimeout: (float) ($options['timeout'] ?? $options['connect_timeout'] ?? 5.0),
            readTimeout: (float) ($options['read_timeout'] ?? 60.0),
            poolSize: (int) ($options['pool_size'] ?? self::DEFAULT_POOL_SIZE),
            maxBulkLength: (int) ($options['max_bulk_length'] ?? Protocol\RespParser::DEFAULT_MAX_BULK_LENGTH),
            protocol: (int) ($options['protocol'] ?? 2),
        );
    }

    public function withDatabase(int $database): self
    {
        $options = $this->toArray();
        $options['database'] = $database;

        return self::fromArray($options);
    }

    /** @return array<string, mixed> */
    public function toArray(): array
    {
        return array_filter([
            'scheme' => $this->tls ? 'tls' : 'tcp',
            'host' => $this->host,
            'port' => $this->port,
            'path' => $this->unixSocket,
            'ssl' => $this->tlsOptions,
            'username' => $this->username,
            'password' => $this->password,
            'database' => $this->database,
            'name' => $this->clientName,
            'timeout' => $this->connectTimeout,
            'read_timeout' => $this->readTimeout,
            'pool_size' => $this->poolSize,
            'max_bulk_length' => $this->maxBulkLength,
            'protocol' => $this->protocol,
        ], static fn (mixed $value): bool => $value !== null);
    }

    /** The server as messages name it: `host:port` or the socket path. */
    public function where(): string
    {
        if ($this->unixSocket !== null) {
            return $this->unixSocket;
        }

        return (str_contains($this->host, ':') ? '[' . $this->host . ']' : $this->host) . ':' . $this->port;
    }

    /** A key telling configurations apart (connections may be shared between equal ones). */
    public function key(): string
    {
        return hash('xxh128', serialize($this->toArray()));
    }

    /** @param array<string, mixed> $options */
    private static function string(array $options, string $name): ?string
    {
        $value = $options[$name] ?? null;

        return \is_scalar($value) && (string) $value !== '' ? (string) $value : null;
    }
}
