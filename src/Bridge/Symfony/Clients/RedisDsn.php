<?php

declare(strict_types=1);

namespace Spindle\Bridge\Symfony\Clients;

use Spindle\Redis\RedisConfig;

/**
 * Reads the Redis DSNs of Symfony's cache and session settings (`redis://[user:]password@host:port/db`,
 * `rediss://…`, `redis:///path/to/socket`, options in the query) as Symfony's RedisTrait reads them:
 * a user part alone is the password, `dbindex` is the database, `timeout` and `read_timeout` keep
 * their meaning. DSNs Spindle's client does not serve (several hosts, `redis_cluster`,
 * `redis_sentinel`, Valkey's or memcached's schemes) give null: they keep Symfony's own client.
 */
final class RedisDsn
{
    private const UNSUPPORTED = ['redis_cluster', 'redis_sentinel', 'sentinel', 'sentinel_master', 'class', 'host', 'failover'];

    private function __construct()
    {
    }

    public static function config(#[\SensitiveParameter] string $dsn): ?RedisConfig
    {
        if (\preg_match('#^(rediss?):(?://)?(.*)$#i', $dsn, $m) !== 1) {
            return null;
        }
        [$scheme, $rest] = [\strtolower($m[1]), $m[2]];
        $query = [];
        if (\str_contains($rest, '?')) {
            [$rest, $queryString] = \explode('?', $rest, 2);
            \parse_str($queryString, $query);
        }
        foreach (self::UNSUPPORTED as $option) {
            if (isset($query[$option]) && $query[$option] !== '0' && $query[$option] !== '') {
                return null;
            }
        }
        $options = ['scheme' => $scheme === 'rediss' ? 'tls' : 'tcp'];
        foreach (['timeout', 'read_timeout'] as $name) {
            if (isset($query[$name]) && \is_numeric($query[$name])) {
                $options[$name] = (float) $query[$name];
            }
        }
        if (\preg_match('#^(?:([^:@/]*+):)?([^@/]*+)@#', $rest, $auth) === 1) {
            $rest = \substr($rest, \strlen($auth[0]));
            $options['password'] = \rawurldecode($auth[2]);
            if ($auth[1] !== '') {
                $options['username'] = \rawurldecode($auth[1]);
            }
        }
        if (\str_starts_with($rest, '/')) {
            // A socket path (redis:///var/run/redis.sock), no database in it.
            $options['path'] = $rest;
        } else {
            $path = '';
            if (\str_contains($rest, '/')) {
                [$rest, $path] = \explode('/', $rest, 2);
            }
            if ($path !== '' && !\ctype_digit($path)) {
                return null;
            }
            if ($path !== '') {
                $options['database'] = (int) $path;
            }
            if (\preg_match('#^(\[[^\]]++\]|[^:]*+)(?::(\d++))?$#', $rest, $host) !== 1) {
                return null;
            }
            $options['host'] = \trim($host[1] === '' ? '127.0.0.1' : $host[1], '[]');
            $options['port'] = (int) ($host[2] ?? 6379);
        }
        if (isset($query['dbindex']) && \is_string($query['dbindex']) && \ctype_digit($query['dbindex'])) {
            $options['database'] = (int) $query['dbindex'];
        }

        return RedisConfig::fromArray($options);
    }
}
