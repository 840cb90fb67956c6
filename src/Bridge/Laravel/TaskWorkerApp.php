<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel;

use Illuminate\Contracts\Console\Kernel;
use Illuminate\Foundation\Application;
use Spindle\Server\Tasks\TaskCaller;

/**
 * A Laravel app in a task worker: booted once, before the worker's first task, as `php artisan
 * queue:work` boots it (the console kernel's bootstrappers: environment, configuration,
 * providers), and kept for the worker's life, as a queue worker keeps it between jobs. The tasks
 * then find the app's config, facades, events and database connections, closures from the app
 * cross (the app key signs them), and `broadcast()` reaches the server's Pusher subscribers: the
 * task worker's TaskCaller is in the container, where Broadcasting\BroadcastDriver finds it.
 *
 * A task worker serves no request and holds no fiber: nothing is reset between tasks, and the
 * app's drivers are those of an artisan command.
 */
final class TaskWorkerApp
{
    private function __construct()
    {
    }

    public static function boot(string $directory, TaskCaller $caller): Application
    {
        $app = require \rtrim($directory, '/') . '/bootstrap/app.php';
        if (!$app instanceof Application) {
            throw new \RuntimeException(\sprintf('%s/bootstrap/app.php returned %s, not an Illuminate\Foundation\Application', $directory, \get_debug_type($app)));
        }
        $app->instance(TaskCaller::class, $caller);
        $app->make(Kernel::class)->bootstrap();

        return $app;
    }
}
