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
            $error = null;
            try {
                $result = $work();
            } catch (\Throwable $e) {
                $error = $e;
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
