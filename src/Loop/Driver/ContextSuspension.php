<?php

declare(strict_types=1);

namespace Spindle\Loop\Driver;

use Revolt\EventLoop\Suspension;
use Spindle\Loop\Context;
use Spindle\Loop\ContextDriver;

/**
 * @internal Wraps the loop's suspension so that suspending a task measures how long it ran
 * and resuming it runs the task's resume hooks.
 *
 * It also lets the task be cancelled where it waits (see ContextDriver::cancelTask()). Whoever was
 * going to wake the task still holds this object and may call resume() or throw() later: once
 * a cancellation went in, those late calls are ignored.
 *
 * @implements Suspension<mixed>
 */
final class ContextSuspension implements Suspension
{
    /** Suspended and not yet resumed. */
    private bool $waiting = false;
    /** A cancellation was thrown in while waiting; resume() and throw() are now stale. */
    private bool $cancelled = false;

    /** @param Suspension<mixed> $inner */
    public function __construct(
        private readonly Suspension $inner,
        public readonly Context $context,
        private readonly ContextDriver $driver,
    ) {
    }

    public function resume(mixed $value = null): void
    {
        if ($this->cancelled) {
            return;
        }
        $this->waiting = false;
        $this->inner->resume($value);
    }

    public function suspend(): mixed
    {
        // A cancellation that could not be thrown in where the task waited is thrown here.
        $cancellation = $this->context->takeCancellation();
        if ($cancellation !== null) {
            throw $cancellation;
        }
        $this->cancelled = false;
        $this->waiting = true;
        $this->context->waitingIn = $this;
        $this->driver->taskYielded($this->context);
        $this->driver->isolation->leave($this->context);
        try {
            return $this->inner->suspend();
        } finally {
            $this->waiting = false;
            $this->context->waitingIn = null;
            $this->driver->isolation->enter($this->context);
            $this->context->resumed();
        }
    }

    public function throw(\Throwable $throwable): void
    {
        if ($this->cancelled) {
            return;
        }
        $this->waiting = false;
        $this->inner->throw($throwable);
    }

    /** Whether a cancellation was thrown into the task here (the loop then hands out a fresh wrapper). */
    public function isCancelled(): bool
    {
        return $this->cancelled;
    }

    /** @internal Throws the context's pending cancellation into the task if it waits here. */
    public function cancelWait(): bool
    {
        if (!$this->waiting) {
            return false;
        }
        $cancellation = $this->context->takeCancellation();
        if ($cancellation === null) {
            return false;
        }
        $this->waiting = false;
        $this->cancelled = true;
        $this->inner->throw($cancellation);

        return true;
    }
}
