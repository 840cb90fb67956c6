<?php

declare(strict_types=1);

namespace Spindle;

use Revolt\EventLoop;

/**
 * Suspends the calling fiber for $seconds while the worker goes on serving other requests.
 * Outside a fiber it runs the event loop until the time has passed.
 */
function delay(float $seconds): void
{
    $suspension = EventLoop::getSuspension();
    $id = EventLoop::delay(\max(0.0, $seconds), static fn () => $suspension->resume());
    try {
        $suspension->suspend();
    } finally {
        EventLoop::cancel($id);
    }
}

/**
 * Runs $tasks at the same time, each in a fiber of its own, and returns their results under
 * their keys, in order: three queries of one second each take one second, not three. Each task
 * starts with the calling request's context and process-wide state and resumes into its app
 * instance; the first exception a task throws is rethrown once the others have ended (those still
 * waiting are cancelled). Outside a worker (the CLI, tests) they run one after another.
 * See docs/worker-features.md.
 *
 * @param callable(): mixed ...$tasks
 *
 * @return array<array-key, mixed>
 */
function concurrently(callable ...$tasks): array
{
    return Loop\TaskGroup::run($tasks);
}

/**
 * Runs $tick every $seconds in this worker (the first run after $seconds), each run a task of its
 * own, isolated as a request is; a run still going when the next beat comes skips it; a failing
 * run is logged and the tick goes on; no run starts once the worker drains. Returns the handle
 * to cancel it. See docs/worker-features.md.
 *
 * @param callable(): mixed $tick
 */
function every(float $seconds, callable $tick, ?string $name = null): Server\Tick
{
    return Server\WorkerServices::current()->ticks()->every($seconds, \Closure::fromCallable($tick), $name);
}

/**
 * Runs $task($arguments...) in a task worker (SPINDLE_TASK_WORKERS=N under `spindle serve`) and
 * returns its result, suspending only the calling fiber meanwhile: CPU-heavy work (hashing a
 * password) then holds up no other request. Without task workers (or outside a server) it runs
 * here. $task must be able to cross a process: a function's name, a static method, an invokable
 * object (a closure only with laravel/serializable-closure). See docs/worker-features.md.
 *
 * @throws Server\Tasks\TaskFailed when it threw there, its worker died, or it cannot be sent
 */
function task(callable $task, mixed ...$arguments): mixed
{
    $client = Server\WorkerServices::current()->taskClient();
    if ($client === null) {
        return $task(...$arguments);
    }

    return $client->run($task, $arguments);
}

/** The context of the request running in the calling fiber, or null outside a request. */
function context(): ?Loop\Context
{
    return Loop\Loop::context();
}

/**
 * The worker's metrics registry: counters, gauges and histograms an app adds to what Spindle
 * serves on --metrics (summed over the workers by the master). Without --metrics they are
 * counted and never shown.
 */
function metrics(): Metrics\Registry
{
    return Server\WorkerServices::current()->metrics();
}
