<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel;

use Psr\Log\LoggerInterface;
use Spindle\Server\Ticks;

/**
 * Gives each task of Laravel's `Concurrency::run()` (driver `spindle`) an app instance of its own
 * from the worker's pool, for the task's life: its own container and its own database and Redis
 * connections, as Laravel's `process` driver runs each task in a fresh application. Tasks of one
 * request can then query the database at the same time (one connection runs one statement at a
 * time). When the pool has no instance to lend without waiting for another request to finish, the
 * task runs on the calling request's instance instead, so a full pool cannot deadlock.
 *
 * It also runs the app's ticks (`spindle.ticks`), each run on an instance borrowed for it.
 *
 * LaravelApp makes one per worker and puts it in the worker's BridgeServices, where ConcurrencyDriver finds it.
 */
final class TaskInstances
{
    /** @param InstancePool<AppInstance> $pool */
    public function __construct(
        private readonly InstancePool $pool,
        private readonly ProcessGlobals $globals,
        private readonly LoggerInterface $logger,
        private readonly FinishedRequests $finished,
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

        return $this->lend(static fn (): mixed => $task());
    }

    /**
     * Runs $work (in a task's own fiber) on an instance borrowed for it, waiting for one if need
     * be; the instance is reset and given back afterwards, as after a request.
     *
     * @template T
     *
     * @param \Closure(AppInstance): T $work
     *
     * @return T
     */
    public function lend(\Closure $work): mixed
    {
        $lease = Lease::take($this->pool, $this->globals, $this->logger, $this->finished, forTask: true);
        try {
            return $work($lease->instance);
        } finally {
            $lease->end();
        }
    }

    /**
     * Registers the app's ticks, `spindle.ticks` of its configuration: invokable classes and their
     * intervals in seconds (`[PruneExpired::class => 60]`). Each run resolves the class from an
     * instance borrowed for the run and calls it.
     */
    public function registerTicks(AppInstance $first, Ticks $ticks): void
    {
        $config = $first->app->make('config')->get('spindle.ticks', []);
        if (!\is_array($config)) {
            throw new \RuntimeException('spindle.ticks must be an array of invokable class names and their intervals in seconds');
        }
        foreach ($config as $class => $seconds) {
            if (!\is_string($class) || !\class_exists($class) || !\method_exists($class, '__invoke')) {
                throw new \RuntimeException(\sprintf('spindle.ticks: %s is not an invokable class', \var_export($class, true)));
            }
            if (!\is_int($seconds) && !\is_float($seconds)) {
                throw new \RuntimeException(\sprintf('spindle.ticks: the interval of %s must be a number of seconds, got %s', $class, \var_export($seconds, true)));
            }
            $ticks->every((float) $seconds, fn (): mixed => $this->lend(static function (AppInstance $instance) use ($class): mixed {
                $tick = $instance->app->make($class);
                \assert(\is_callable($tick));

                return $tick();
            }), $class);
        }
    }
}
