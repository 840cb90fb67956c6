<?php

declare(strict_types=1);

namespace Spindle\Loop;

/**
 * Runs each task in a fiber of its own, with its own Context.
 *
 * A fiber whose task has finished waits for the next one instead of being destroyed: creating a
 * fiber maps and protects a fresh C stack (three system calls), which showed up in the request
 * profile. A fiber only ever runs one task at a time, so every running request still has its own
 * fiber, its own stack and its own context.
 */
final class TaskRunner
{
    /** @var list<\Fiber<mixed, mixed, mixed, mixed>> */
    private array $idle = [];
    /** What run() hands the task it starts (a fiber is resumed with one value: the task). */
    private mixed $argument = null;

    public function __construct(
        private readonly ContextDriver $driver,
        private readonly int $maxIdle = 64,
    ) {
    }

    /**
     * Starts $task($argument) now, in its own fiber; returns when the task finishes or first
     * suspends. The argument saves making a closure per task for a task that is the same code
     * every time (a request runner's).
     *
     * @template T
     *
     * @param \Closure(T): void $task must not throw; errors are the task's own to report
     * @param T $argument
     */
    public function run(Context $context, \Closure $task, mixed $argument = null): void
    {
        $this->argument = $argument;
        $parent = \Fiber::getCurrent() === null ? null : $this->driver->leaveRunningTask();
        $fiber = \array_pop($this->idle);
        if ($fiber === null) {
            $fiber = new \Fiber($this->work(...));
            $this->driver->attach($fiber, $context);
            $fiber->start($task);
        } else {
            $this->driver->attach($fiber, $context);
            $fiber->resume($task);
        }
        if ($parent !== null) {
            $this->driver->taskReturned($parent);
        }
    }

    /**
     * Starts $task() now as a child of the running task (see Loop::startChild()): in its own
     * fiber with the context $child, which starts with the process-wide state the running task
     * has at this moment; returns when the child finishes or first waits, with the running task's
     * own state back in place.
     *
     * @param \Closure(): void $task must not throw
     */
    public function runChild(Context $child, \Closure $task): void
    {
        $this->argument = null;
        $parent = \Fiber::getCurrent() === null ? null : $this->driver->leaveRunningTask();
        if ($parent !== null) {
            $this->driver->isolation->inherit($parent, $child);
            $this->driver->isolation->enter($child);
        }
        $fiber = \array_pop($this->idle);
        $this->driver->attach($fiber ??= new \Fiber($this->work(...)), $child);
        if ($fiber->isStarted()) {
            $fiber->resume($task);
        } else {
            $fiber->start($task);
        }
        $this->driver->taskReturned($parent);
    }

    /** Cancels a running task; see ContextDriver::cancelTask(). */
    public function cancel(Context $context, TaskCancelled $reason): bool
    {
        return $this->driver->cancelTask($context, $reason);
    }

    private function work(\Closure $task): void
    {
        $fiber = \Fiber::getCurrent();
        \assert($fiber !== null);
        while (true) {
            $argument = $this->argument;
            $this->argument = null;
            // No `finally`: the tracing JIT does not compile a trace through one, and the code around it
            // would run in the interpreter for every task (see Http\RequestRunner::serve(): ~1,100
            // instructions a request).
            try {
                $task($argument);
            } catch (\Throwable $e) {
                $this->driver->detach($fiber);

                throw $e;
            }
            $this->driver->detach($fiber);
            $task = $argument = null;
            if (\count($this->idle) >= $this->maxIdle) {
                return;
            }
            $this->idle[] = $fiber;
            $task = \Fiber::suspend();
            if (!$task instanceof \Closure) {
                return;
            }
        }
    }
}
