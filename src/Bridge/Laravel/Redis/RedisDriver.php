<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel\Redis;

use Illuminate\Contracts\Foundation\Application;
use Illuminate\Redis\Connectors\PhpRedisConnector;
use Illuminate\Redis\Connectors\PredisConnector;
use Illuminate\Redis\RedisManager;

/**
 * Hooks Spindle's Redis client into an app's RedisManager:
 * - always, the client driver `spindle` (`'client' => 'spindle'` in config/database.php, or
 *   `REDIS_CLIENT=spindle`);
 * - under `spindle serve` (takeOver()), connections configured for `phpredis` or `predis` use it
 *   too, unless the environment says `SPINDLE_REDIS_DRIVER=native` or the connection has
 *   `'spindle' => false`. Artisan commands (queue:work, …) keep the app's own client.
 *
 * One instance per worker: the app instances it is installed in share its clients.
 */
final class RedisDriver
{
    private readonly ClientRegistry $clients;

    public function __construct()
    {
        $this->clients = new ClientRegistry();
    }

    /**
     * The `spindle` client driver only (the service provider, in any process), unless a worker's
     * driver took over the app already.
     */
    public static function registerOnce(Application $app): void
    {
        if ($app->bound(self::class)) {
            return;
        }
        $driver = new self();
        $app->instance(self::class, $driver);
        $driver->install($app, false);
    }

    /** The `spindle` driver, and phpredis/predis connections through it (workers of spindle serve). */
    public function takeOver(Application $app): void
    {
        $app->instance(self::class, $this);
        $this->install($app, self::enabled());
    }

    public static function enabled(): bool
    {
        $value = $_SERVER['SPINDLE_REDIS_DRIVER'] ?? $_ENV['SPINDLE_REDIS_DRIVER'] ?? getenv('SPINDLE_REDIS_DRIVER');

        return !\is_string($value) || strtolower($value) !== 'native';
    }

    public function clients(): ClientRegistry
    {
        return $this->clients;
    }

    private function install(Application $app, bool $takeOver): void
    {
        $clients = $this->clients;
        $extend = static function (RedisManager $manager) use ($clients, $takeOver): void {
            // RedisManager binds these closures to itself: they must not be static.
            $manager->extend('spindle', function () use ($clients) {
                return new SpindleRedisConnector($clients);
            });
            if ($takeOver) {
                $manager->extend('phpredis', function () use ($clients) {
                    return new SpindleRedisConnector($clients, new PhpRedisConnector());
                });
                $manager->extend('predis', function () use ($clients) {
                    return new SpindleRedisConnector($clients, new PredisConnector());
                });
            }
        };
        if ($app->resolved('redis')) {
            $manager = $app->make('redis');
            if ($manager instanceof RedisManager) {
                $extend($manager);
            }

            return;
        }
        $app->afterResolving('redis', static function (mixed $manager) use ($extend): void {
            if ($manager instanceof RedisManager) {
                $extend($manager);
            }
        });
    }
}
