<?php

declare(strict_types=1);

namespace Spindle\Bridge\Symfony\Clients;

use Spindle\Redis\RedisClient;
use Spindle\Redis\RedisConfig;

/**
 * One Spindle Redis client per configuration and worker, shared by the cache pools and session
 * handlers of all the worker's kernels: a client serves fibers at once from its own connection
 * pool, so a kernel needs none of its own. Kept in PHP's default stream context (as
 * Spindle\HttpClient\SharedClient keeps the HTTP client), not in a static property.
 */
final class SharedRedisClients
{
    private function __construct()
    {
    }

    public static function get(RedisConfig $config): RedisClient
    {
        $key = 'symfony_redis_' . $config->key();
        $default = \stream_context_get_default();
        $client = \stream_context_get_options($default)['spindle'][$key] ?? null;
        if ($client instanceof RedisClient) {
            return $client;
        }
        $client = new RedisClient($config);
        \stream_context_set_option($default, 'spindle', $key, $client);

        return $client;
    }
}
