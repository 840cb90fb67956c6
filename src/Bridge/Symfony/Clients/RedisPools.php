<?php

declare(strict_types=1);

namespace Spindle\Bridge\Symfony\Clients;

use Spindle\Bridge\Symfony\Redis\RedisCacheAdapter;
use Spindle\Bridge\Symfony\Redis\RedisSessionHandler;
use Spindle\Bridge\WorkerEnvironment;
use Symfony\Component\Cache\Adapter\AdapterInterface;
use Symfony\Component\Cache\Adapter\RedisAdapter;
use Symfony\Component\Cache\Marshaller\MarshallerInterface;
use Symfony\Component\HttpFoundation\Session\Storage\Handler\SessionHandlerFactory;

/**
 * The factories ClientsPass gives the Redis cache pools and the Redis session handler of a
 * Symfony app: in a worker of `spindle serve` (unless SPINDLE_REDIS_DRIVER=native) they make
 * Spindle's RedisCacheAdapter and RedisSessionHandler over the worker's Spindle client for the
 * same DSN (SharedRedisClients), storing what Symfony's would; elsewhere, or for a DSN Spindle's client does not serve
 * (RedisDsn), Symfony's own, from the connection Symfony would have used.
 */
final class RedisPools
{
    public const VARIABLE = 'SPINDLE_REDIS_DRIVER';

    private function __construct()
    {
    }

    /** @param \Closure(): object $connection Symfony's connection for $dsn, made only if used */
    public static function adapter(\Closure $connection, #[\SensitiveParameter] string $dsn, string $namespace = '', int $defaultLifetime = 0, ?MarshallerInterface $marshaller = null): AdapterInterface
    {
        $config = WorkerEnvironment::useSpindle(self::VARIABLE) ? RedisDsn::config($dsn) : null;
        if ($config !== null) {
            return new RedisCacheAdapter(SharedRedisClients::get($config), $namespace, $defaultLifetime, $marshaller);
        }
        // What AbstractAdapter::createConnection() gave for the DSN: phpredis, Relay or Predis.
        return new RedisAdapter($connection(), $namespace, $defaultLifetime, $marshaller); // @phpstan-ignore argument.type
    }

    /**
     * @param string|\Closure(): object $connection the handler_id DSN, or Symfony's connection for it
     * @param array<string, mixed> $options
     */
    public static function sessionHandler(#[\SensitiveParameter] string|\Closure $connection, array $options, #[\SensitiveParameter] string $dsn): \SessionHandlerInterface
    {
        $config = WorkerEnvironment::useSpindle(self::VARIABLE) ? RedisDsn::config($dsn) : null;
        if ($config !== null) {
            // Symfony's factory reads prefix and ttl from the DSN's query, then from its options.
            $query = [];
            \parse_str((string) \parse_url($dsn, \PHP_URL_QUERY), $query);
            $settings = [];
            foreach (['prefix', 'ttl'] as $name) {
                $value = $query[$name] ?? $options[$name] ?? null;
                if ($name === 'prefix' && \is_string($value)) {
                    $settings['prefix'] = $value;
                } elseif ($name === 'ttl' && \is_numeric($value)) {
                    $settings['ttl'] = (int) $value;
                }
            }

            return new RedisSessionHandler(SharedRedisClients::get($config), $settings);
        }

        return SessionHandlerFactory::createHandler($connection instanceof \Closure ? $connection() : $connection, $options);
    }
}
