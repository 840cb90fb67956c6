<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel\Redis;

use Spindle\Redis\RedisClient;
use Spindle\Redis\RedisConfig;

/**
 * One RedisClient per distinct configuration, shared by the app instances of a worker: their
 * concurrent requests pipeline over one connection instead of opening one each.
 */
final class ClientRegistry
{
    /** @var array<string, RedisClient> */
    private array $clients = [];

    /** @param array<string, mixed> $settings a Laravel connection's settings */
    public function get(array $settings): RedisClient
    {
        $config = RedisConfig::fromArray($settings);

        return $this->clients[$config->key()] ??= new RedisClient($config);
    }

    public function closeAll(): void
    {
        foreach ($this->clients as $client) {
            $client->close();
        }
        $this->clients = [];
    }
}
