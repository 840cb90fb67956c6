<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel\Broadcasting;

use Illuminate\Broadcasting\BroadcastManager;
use Illuminate\Contracts\Broadcasting\Broadcaster;
use Illuminate\Contracts\Container\Container;
use Spindle\Bridge\Pusher\TaskPublisher;
use Spindle\Bridge\WorkerEnvironment;
use Spindle\Server\Tasks\TaskCaller;

/**
 * Makes the `reverb` and `pusher` broadcasting drivers deliver in process to the worker's
 * PusherServer when the worker serves the connection (PusherConnections, and SPINDLE_PUSHER is
 * not 0), and, in a task worker of the server (its TaskCaller is in the container:
 * TaskWorkerApp), to the HTTP worker that sent the task (TaskPublisher); anywhere else (artisan,
 * a queue worker of its own, a connection to Pusher's service) they are Laravel's own.
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
                    $inProcess = self::inProcess($app, $config);
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
    private static function inProcess(Container $container, array $config): ?InProcessBroadcaster
    {
        if (WorkerEnvironment::value('SPINDLE_PUSHER') === '0' || !PusherConnections::isServed($config)) {
            return null;
        }
        $repository = $container->make('config');
        $key = $config['key'] ?? null;
        if ($container->bound(TaskCaller::class)) {
            $caller = $container->make(TaskCaller::class);
            \assert($caller instanceof TaskCaller);
            foreach (PusherConnections::apps($repository->get('broadcasting.connections'), $repository->get('reverb.apps.apps')) as $app) {
                if ((\is_string($key) || \is_int($key)) && $app->key === (string) $key) {
                    return new InProcessBroadcaster(new TaskPublisher($caller), $app);
                }
            }

            return null;
        }
        if (!WorkerEnvironment::inWorker()) {
            return null;
        }
        $server = PusherConnections::server($repository->get('broadcasting.connections'), $repository->get('reverb.apps.apps'), $repository->get('reverb.servers.reverb.scaling'));
        $app = \is_string($key) || \is_int($key) ? $server->appByKey((string) $key) : null;

        return $app !== null ? new InProcessBroadcaster($server, $app) : null;
    }
}
