<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel;

use Psr\Log\LoggerInterface;
use Spindle\Loop\Loop;

/**
 * Gives each task of Laravel's `Concurrency::run()` (driver `spindle`) an app instance of its own
 * from the worker's pool, for the task's life: its own container and its own database and Redis
 * connections, as Laravel's `process` driver runs each task in a fresh application. Tasks of one
 * request can then query the database at the same time (one connection runs one statement at a
 * time). When the pool has no instance to lend without waiting for another request to finish, the
 * task runs on the calling request's instance instead, so a full pool cannot deadlock.
 *
 * LaravelApp makes one per worker (a loop service: ConcurrencyDriver finds it there).
 */
final class TaskInstances
{
    /** @param InstancePool<AppInstance> $pool */
    public function __construct(
        private readonly InstancePool $pool,
        private readonly ProcessGlobals $globals,
        private readonly LoggerInterface $logger,
    ) {
    }

    /**
     * Runs $task (in the task's own fiber) on an instance of its own.
     *
     * @template T
     *
     * @param \Closure(): T $task
     *
     * @return T
     */
    public function run(\Closure $task): mixed
    {
        if ($this->pool->idle() === 0 && $this->pool->size() >= $this->pool->max()) {
            return $task();
        }
        $instance = $this->pool->borrow();
        $lease = new Lease($instance, $this->globals, $this->pool, $this->logger);
        $this->globals->activate($instance->state);
        Loop::context()?->onResume($lease->resumed(...));
        try {
            return $task();
        } finally {
            $lease->end();
        }
    }
}
