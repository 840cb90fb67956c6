<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel\Broadcasting;

use Illuminate\Broadcasting\BroadcastManager;
use Illuminate\Contracts\Broadcasting\Broadcaster;
use Illuminate\Contracts\Container\Container;
use Spindle\Bridge\Pusher\PusherServer;
use Spindle\Bridge\WorkerEnvironment;
use Spindle\Loop\Loop;

/**
 * Makes the `reverb` and `pusher` broadcasting drivers deliver in process when the worker serves
 * the connection's app (PusherRoutes made a PusherServer with its key); anywhere else (artisan, a
 * queue worker of its own, a connection to Pusher's service) they are Laravel's own.
 */
final class BroadcastDriver
{
    public static function register(Container $app): void
    {
        if (!\class_exists(BroadcastManager::class)) {
            return;
        }
        $app->afterResolving(BroadcastManager::class, static function (BroadcastManager $manager): void {
            foreach (['reverb', 'pusher'] as $driver) {
                $manager->extend($driver, static function (Container $app, array $config) use ($manager): Broadcaster {
                    $inProcess = self::inProcess($config);
                    if ($inProcess !== null) {
                        return $inProcess;
                    }
                    // Laravel's own driver: its Pusher broadcaster, for `reverb` connections too (as
                    // the manager's createReverbDriver() does).
                    $broadcaster = \Closure::bind(static fn (BroadcastManager $manager): mixed => $manager->createPusherDriver($config), null, BroadcastManager::class)($manager);
                    \assert($broadcaster instanceof Broadcaster);

                    return $broadcaster;
                });
            }
        });
    }

    /** @param array<mixed> $config */
    private static function inProcess(array $config): ?InProcessBroadcaster
    {
        if (!WorkerEnvironment::inWorker() || !PusherConnections::isServed($config)) {
            return null;
        }
        $server = Loop::driver()->findService(PusherServer::class);
        $key = $config['key'] ?? null;
        $app = $server !== null && (\is_string($key) || \is_int($key)) ? $server->appByKey((string) $key) : null;

        return $server !== null && $app !== null ? new InProcessBroadcaster($server, $app) : null;
    }
}
