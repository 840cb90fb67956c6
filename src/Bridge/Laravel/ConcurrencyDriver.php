<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel;

use Illuminate\Contracts\Concurrency\Driver;
use Illuminate\Support\Defer\DeferredCallback;
use Spindle\Bridge\BridgeServices;
use Spindle\Loop\TaskGroup;

use function Illuminate\Support\defer;

/**
 * Laravel's `Concurrency` driver `spindle` (Laravel 11 and later; `'default' => 'spindle'` in
 * config/concurrency.php, or `Concurrency::driver('spindle')`): the tasks run in the worker, each in a
 * fiber of its own (Spindle\concurrently()), with an app instance of its own (TaskInstances), so
 * waits on the database, Redis or HTTP overlap. No process is started and nothing is serialized.
 * Outside `spindle serve` (artisan, tests) they run one after another, as the `sync` driver does.
 */
final class ConcurrencyDriver implements Driver
{
    /**
     * @param \Closure|array<array-key, \Closure> $tasks
     *
     * @return array<array-key, mixed>
     */
    public function run(\Closure|array $tasks): array
    {
        $tasks = $tasks instanceof \Closure ? [$tasks] : $tasks;
        $instances = BridgeServices::current()->taskInstances();

        return TaskGroup::run($tasks, $instances === null ? null : $instances->run(...));
    }

    /**
     * Runs the tasks, all at once, after the response has been sent (Laravel's defer()).
     *
     * @param \Closure|array<array-key, \Closure> $tasks
     */
    public function defer(\Closure|array $tasks): DeferredCallback
    {
        return defer(fn () => $this->run($tasks));
    }
}
