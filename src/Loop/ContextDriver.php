<?php

declare(strict_types=1);

namespace Spindle\Loop;

use Revolt\EventLoop\CallbackType;
use Revolt\EventLoop\Driver;
use Revolt\EventLoop\Suspension;
use Spindle\Loop\Driver\ContextSuspension;
use Spindle\Loop\Isolation\ProcessState;

/**
 * The event loop driver Spindle installs: it delegates every operation to the real driver and
 * adds fiber-local task contexts. Suspensions taken inside a task come back wrapped, so that any
 * library built on the loop (our clients, AMPHP, ReactPHP) runs the task's resume hooks and lets
 * Spindle measure how long each task held the loop.
 */
final class ContextDriver implements Driver
{
    /**
     * The task each fiber runs; null for a fiber between two tasks (see detach()).
     *
     * @var \WeakMap<\Fiber<mixed, mixed, mixed, mixed>, Context|null>
     */
    private \WeakMap $contexts;

    /** @var \WeakMap<object, ContextSuspension> */
    private \WeakMap $suspensions;

    /** @var (\Closure(Context, float): void)|null */
    private ?\Closure $onBlocked = null;

    private int $blockThresholdNs = 0;

    /** Each task's own process-wide state (output buffers, handlers, settings, superglobals). */
    public readonly ProcessState $isolation;

    /**
     * The worker's services, as the worker set them up (Server\WorkerServices: its metrics,
     * ticks, task client, shared cache): one object, held here so that the entry points that
     * have nothing to be handed them (Spindle\metrics(), a framework's service provider) find
     * the worker's. Loop never looks inside it: Loop knows no layer above it.
     */
    private ?object $workerServices = null;

    /** Starts the child tasks of Loop::startChild(), made on the first. */
    private ?TaskRunner $children = null;

    public function __construct(private readonly Driver $inner)
    {
        $this->isolation = new ProcessState();
        $this->contexts = new \WeakMap();
        $this->suspensions = new \WeakMap();
    }

    /** The worker's services (see $workerServices), or null before they are set up. */
    public function workerServices(): ?object
    {
        return $this->workerServices;
    }

    /** Sets up the worker's services (Server\WorkerServices does, once per process). */
    public function provideWorkerServices(object $services): void
    {
        $this->workerServices = $services;
    }

    /** What starts the child tasks of Loop::startChild(). */
    public function children(): TaskRunner
    {
        return $this->children ??= new TaskRunner($this);
    }

    public function inner(): Driver
    {
        return $this->inner;
    }

    /**
     * Report tasks that ran longer than $thresholdSeconds without yielding to the loop.
     *
     * @param \Closure(Context, float): void $onBlocked receives the task and the seconds it ran
     */
    public function watchBlocking(float $thresholdSeconds, \Closure $onBlocked): void
    {
        $this->blockThresholdNs = (int) ($thresholdSeconds * 1e9);
        $this->onBlocked = $onBlocked;
    }

    /** @param \Fiber<mixed, mixed, mixed, mixed> $fiber */
    public function attach(\Fiber $fiber, Context $context): void
    {
        $this->contexts[$fiber] = $context;
        $context->runningSince = \hrtime(true);
    }

    /** @param \Fiber<mixed, mixed, mixed, mixed> $fiber */
    public function detach(\Fiber $fiber): void
    {
        $context = $this->contexts[$fiber] ?? null;
        if ($context !== null) {
            $context->runEndHooks();
            $this->isolation->finish();
            $this->taskYielded($context);
            $context->ended();
            // Set to null rather than removed: a pooled fiber's next task then replaces the entry
            // in place, which costs less than registering the fiber with the WeakMap again.
            $this->contexts[$fiber] = null;
        }
    }

    public function currentContext(): ?Context
    {
        $fiber = \Fiber::getCurrent();

        return $fiber === null ? null : ($this->contexts[$fiber] ?? null);
    }

    /**
     * The running task (if any) leaves the CPU for another fiber the caller switches to directly
     * (a new task started from inside it); returns it, for taskReturned().
     */
    public function leaveRunningTask(): ?Context
    {
        $fiber = \Fiber::getCurrent();
        $context = $fiber === null ? null : ($this->contexts[$fiber] ?? null);
        if ($context !== null) {
            $this->isolation->leave($context);
        }

        return $context;
    }

    /** The switch of leaveRunningTask() came back to $context's task. */
    public function taskReturned(?Context $context): void
    {
        if ($context !== null) {
            $this->isolation->enter($context);
        }
    }

    /** @internal */
    public function taskYielded(Context $context): void
    {
        if ($this->onBlocked === null) {
            return;
        }
        $ran = \hrtime(true) - $context->runningSince;
        if ($ran > $this->blockThresholdNs) {
            ($this->onBlocked)($context, $ran / 1e9);
        }
    }

    /**
     * Cancels a task: $reason is thrown into its fiber where it waits now, or at its next wait if
     * it cannot be interrupted now (it was already woken, or it waits shielded). Returns whether
     * it was thrown in now. A task computing without waiting cannot be interrupted at all.
     */
    public function cancelTask(Context $context, TaskCancelled $reason): bool
    {
        $context->cancel($reason);
        $waiting = $context->waitingIn;

        return $waiting !== null && $waiting->cancelWait();
    }

    /** @return Suspension<mixed> */
    public function getSuspension(): Suspension
    {
        $suspension = $this->inner->getSuspension();
        $fiber = \Fiber::getCurrent();
        $context = $fiber === null ? null : ($this->contexts[$fiber] ?? null);
        if ($context === null) {
            return $suspension;
        }

        $wrapped = $this->suspensions[$suspension] ?? null;
        // After a cancellation the old wrapper stays with its stale resumer; the task waits anew in a fresh one.
        if ($wrapped === null || $wrapped->context !== $context || $wrapped->isCancelled()) {
            $wrapped = $this->suspensions[$suspension] = new ContextSuspension($suspension, $context, $this);
        }

        return $wrapped;
    }

    public function run(): void
    {
        $this->inner->run();
    }

    public function stop(): void
    {
        $this->inner->stop();
    }

    public function isRunning(): bool
    {
        return $this->inner->isRunning();
    }

    public function queue(\Closure $closure, mixed ...$args): void
    {
        $this->inner->queue($closure, ...$args);
    }

    public function defer(\Closure $closure): string
    {
        return $this->inner->defer($closure);
    }

    public function delay(float $delay, \Closure $closure): string
    {
        return $this->inner->delay($delay, $closure);
    }

    public function repeat(float $interval, \Closure $closure): string
    {
        return $this->inner->repeat($interval, $closure);
    }

    public function onReadable(mixed $stream, \Closure $closure): string
    {
        return $this->inner->onReadable($stream, $closure);
    }

    public function onWritable(mixed $stream, \Closure $closure): string
    {
        return $this->inner->onWritable($stream, $closure);
    }

    public function onSignal(int $signal, \Closure $closure): string
    {
        return $this->inner->onSignal($signal, $closure);
    }

    public function enable(string $callbackId): string
    {
        return $this->inner->enable($callbackId);
    }

    public function cancel(string $callbackId): void
    {
        $this->inner->cancel($callbackId);
    }

    public function disable(string $callbackId): string
    {
        return $this->inner->disable($callbackId);
    }

    public function reference(string $callbackId): string
    {
        return $this->inner->reference($callbackId);
    }

    public function unreference(string $callbackId): string
    {
        return $this->inner->unreference($callbackId);
    }

    public function setErrorHandler(?\Closure $errorHandler): void
    {
        $this->inner->setErrorHandler($errorHandler);
    }

    public function getErrorHandler(): ?\Closure
    {
        return $this->inner->getErrorHandler();
    }

    public function getHandle(): mixed
    {
        return $this->inner->getHandle();
    }

    public function getIdentifiers(): array
    {
        return $this->inner->getIdentifiers();
    }

    public function getType(string $callbackId): CallbackType
    {
        return $this->inner->getType($callbackId);
    }

    public function isEnabled(string $callbackId): bool
    {
        return $this->inner->isEnabled($callbackId);
    }

    public function isReferenced(string $callbackId): bool
    {
        return $this->inner->isReferenced($callbackId);
    }

    /** @return array<string, mixed> */
    public function __debugInfo(): array
    {
        return $this->inner->__debugInfo();
    }
}
