<?php

declare(strict_types=1);

namespace Spindle\Loop;

use Revolt\EventLoop;
use Revolt\EventLoop\Suspension;

/**
 * Runs the tasks of Spindle\concurrently(): each in a fiber of its own, as a child of the task
 * that calls it (see Context::child()), and waits for them all.
 *
 * A child starts with the process-wide state its parent has at that moment (time zone, locale,
 * settings, handlers, superglobals; ProcessState::inherit()), keeps what it changes to itself, and
 * resumes into its parent's app instance (it runs its parent's resume hooks). What it prints is
 * dropped: it has no response of its own.
 *
 * Errors: the first exception a task throws is rethrown once every task has ended. The tasks still
 * waiting at that moment are cancelled where they wait (they get a TaskCancelled); tasks not yet
 * started are not started. A task computing without waiting runs to its end. When the parent
 * itself is cancelled (the request timeout), its children are cancelled and waited for, then the
 * parent's cancellation goes on.
 *
 * Outside a task (no Spindle loop running: the CLI, a unit test) the tasks run one after another
 * in the caller, and the first exception ends the run.
 */
final class TaskGroup
{
    /** @var array<array-key, mixed> */
    private array $results = [];
    /** @var array<array-key, Context> the children still running */
    private array $running = [];
    private ?\Throwable $error = null;
    private int $pending = 0;
    /** @var Suspension<mixed>|null */
    private ?Suspension $waiter = null;

    private function __construct(
        private readonly ContextDriver $driver,
        private readonly Context $parent,
    ) {
    }

    /**
     * @template K of array-key
     *
     * @param array<K, callable(): mixed> $tasks
     * @param (\Closure(\Closure(): mixed): mixed)|null $around runs each task (in its own fiber): a
     *                                                           framework bridge gives it an app instance
     *
     * @return array<K, mixed> each task's result under its key, in the order of $tasks
     */
    public static function run(array $tasks, ?\Closure $around = null): array
    {
        $driver = EventLoop::getDriver();
        $parent = $driver instanceof ContextDriver ? $driver->currentContext() : null;
        if ($parent === null || !$driver instanceof ContextDriver) {
            $results = [];
            foreach ($tasks as $key => $task) {
                $task = \Closure::fromCallable($task);
                $results[$key] = $around === null ? $task() : $around($task);
            }

            return $results;
        }
        $group = new self($driver, $parent);

        return $group->runAll($tasks, $around);
    }

    /**
     * @param array<array-key, callable(): mixed> $tasks
     * @param (\Closure(\Closure(): mixed): mixed)|null $around
     *
     * @return array<array-key, mixed>
     */
    private function runAll(array $tasks, ?\Closure $around): array
    {
        foreach ($tasks as $key => $task) {
            $this->results[$key] = null;
        }
        foreach ($tasks as $key => $task) {
            if ($this->error !== null) {
                unset($this->results[$key]);
                continue;
            }
            $this->start($key, \Closure::fromCallable($task), $around);
        }
        if ($this->pending > 0) {
            $this->wait();
        }
        if ($this->error !== null) {
            throw $this->error;
        }

        return $this->results;
    }

    /**
     * @param \Closure(): mixed $task
     * @param (\Closure(\Closure(): mixed): mixed)|null $around
     */
    private function start(int|string $key, \Closure $task, ?\Closure $around): void
    {
        $child = $this->parent->child(\sprintf('%s (task %s)', $this->parent->label, $key));
        ++$this->pending;
        $this->running[$key] = $child;
        Loop::startChild($child, function () use ($key, $task, $around): void {
            // What the task prints goes nowhere: it has no response of its own.
            Loop::startOutputBuffer(static fn (string $output, int $phase): string => '');
            try {
                $this->results[$key] = $around === null ? $task() : $around($task);
            } catch (\Throwable $e) {
                $this->failed($e);
            }
            $this->ended($key);
        });
        // The child ran (up to its first wait, or to its end) in this very call: the parent's
        // app instance comes back as on any resume.
        $this->parent->resumed();
    }

    private function failed(\Throwable $e): void
    {
        if ($this->error !== null) {
            return;
        }
        $this->error = $e;
        $this->cancelRunning(new TaskCancelled(\sprintf('%s: cancelled, another task failed: %s', $this->parent->label, $e->getMessage()), 0, $e));
    }

    private function cancelRunning(TaskCancelled $reason): void
    {
        foreach ($this->running as $child) {
            if (Loop::context() !== $child) {
                $this->driver->cancelTask($child, $reason);
            }
        }
    }

    private function ended(int|string $key): void
    {
        unset($this->running[$key]);
        if (--$this->pending === 0 && $this->waiter !== null) {
            $waiter = $this->waiter;
            $this->waiter = null;
            $waiter->resume();
        }
    }

    /** Waits for every child; a cancellation of the parent meanwhile cancels them first. */
    private function wait(): void
    {
        $this->waiter = EventLoop::getSuspension();
        try {
            $this->waiter->suspend();
        } catch (\Throwable $cancelled) {
            // The parent was cancelled where it waited: its children go too, and it waits for them
            // (they may still use its app instance), then goes on with its cancellation.
            $this->cancelRunning($cancelled instanceof TaskCancelled ? $cancelled : new TaskCancelled(\sprintf('%s: cancelled: %s', $this->parent->label, $cancelled->getMessage()), 0, $cancelled));
            while ($this->pending > 0) {
                $this->waiter = EventLoop::getSuspension();
                $this->parent->shield($this->waiter->suspend(...));
            }

            throw $cancelled;
        }
    }
}
