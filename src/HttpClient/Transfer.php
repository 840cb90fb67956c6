<?php

declare(strict_types=1);

namespace Spindle\HttpClient;

use Revolt\EventLoop;
use Revolt\EventLoop\Suspension;

/**
 * A piece of work started in a fiber of its own, that any number of fibers (or the main
 * program, which then runs the loop) can wait for: what a promise needs to resolve by
 * suspending its caller.
 *
 * @template T
 */
final class Transfer
{
    private bool $done = false;
    private bool $started = false;
    /** Why the transfer was cancelled, once it was. */
    private ?\Throwable $cancelled = null;
    /** @var Suspension<mixed>|null the suspension of the work's fiber, while it runs */
    private ?Suspension $fiber = null;
    /** @var T|null */
    private mixed $result = null;
    private ?\Throwable $error = null;
    /** @var list<Suspension<mixed>> */
    private array $waiting = [];

    /**
     * Runs $work in a new fiber on the loop, from the loop's next tick.
     *
     * @template R
     *
     * @param \Closure(): R $work
     * @param (\Closure(R|null, ?\Throwable): void)|null $then called in the work's fiber when it ends
     *
     * @return self<R>
     */
    public static function start(\Closure $work, ?\Closure $then = null): self
    {
        /** @var self<R> $transfer */
        $transfer = new self();
        EventLoop::queue(static function () use ($transfer, $work, $then): void {
            $result = null;
            $error = $transfer->cancelled;
            if ($error === null) {
                $transfer->started = true;
                $transfer->fiber = EventLoop::getSuspension();
                try {
                    $result = $work();
                } catch (\Throwable $e) {
                    $error = $e;
                }
                $transfer->fiber = null;
            }
            if ($then !== null) {
                $then($result, $error);
            }
            $transfer->finish($result, $error);
        });

        return $transfer;
    }

    public function isDone(): bool
    {
        return $this->done;
    }

    /**
     * Stops the work: one not started yet never starts, one that waits gets $reason thrown where
     * it waits (every wait of the HTTP client leaves its connection closed and nothing behind on
     * the loop when interrupted so), one that runs gets it at its next wait. Either way it ends
     * with $reason (unless it ends otherwise first). Does nothing once the work has ended.
     */
    public function cancel(\Throwable $reason): void
    {
        if ($this->done || $this->cancelled !== null) {
            return;
        }
        $this->cancelled = $reason;
        if ($this->started) {
            $this->interrupt();
        }
    }

    /** Throws the cancellation into the work's fiber, now if it waits, else once it waits again. */
    private function interrupt(): void
    {
        $fiber = $this->fiber;
        if ($this->done || $fiber === null || $this->cancelled === null) {
            return;
        }
        try {
            $fiber->throw($this->cancelled);
        } catch (\Error) {
            // Not suspended: it runs now (it cancelled itself), or whatever it waited for has
            // resumed it already. It is interrupted at a wait to come.
            EventLoop::defer(fn () => $this->interrupt());
        }
    }

    /**
     * Suspends the caller until the work ends.
     *
     * @return T
     */
    public function await(): mixed
    {
        if (!$this->done) {
            $suspension = EventLoop::getSuspension();
            $this->waiting[] = $suspension;
            $suspension->suspend();
        }
        if ($this->error !== null) {
            throw $this->error;
        }

        /** @var T */
        return $this->result;
    }

    /** @param T|null $result */
    private function finish(mixed $result, ?\Throwable $error): void
    {
        $this->done = true;
        $this->result = $result;
        $this->error = $error;
        $waiting = $this->waiting;
        $this->waiting = [];
        foreach ($waiting as $suspension) {
            $suspension->resume();
        }
    }
}
