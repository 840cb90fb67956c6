<?php

declare(strict_types=1);

namespace Spindle\Loop;

use Revolt\EventLoop\Suspension;

/**
 * @internal Wraps the loop's suspension so that suspending a task measures how long it ran
 * and resuming it runs the task's resume hooks.
 *
 * @implements Suspension<mixed>
 */
final class ContextSuspension implements Suspension
{
    /** @param Suspension<mixed> $inner */
    public function __construct(
        private readonly Suspension $inner,
        public readonly Context $context,
        private readonly ContextDriver $driver,
    ) {
    }

    public function resume(mixed $value = null): void
    {
        $this->inner->resume($value);
    }

    public function suspend(): mixed
    {
        $this->driver->taskYielded($this->context);
        try {
            return $this->inner->suspend();
        } finally {
            $this->context->resumed();
        }
    }

    public function throw(\Throwable $throwable): void
    {
        $this->inner->throw($throwable);
    }
}
