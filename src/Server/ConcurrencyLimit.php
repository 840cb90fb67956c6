<?php

declare(strict_types=1);

namespace Spindle\Server;

use Revolt\EventLoop;
use Revolt\EventLoop\Suspension;

/**
 * At most $max requests of a worker run the application at once; the others wait their turn
 * (suspended, in arrival order) instead of being refused.
 */
final class ConcurrencyLimit
{
    private int $running = 0;
    /** @var \SplQueue<Suspension<mixed>> */
    private \SplQueue $waiting;

    public function __construct(private readonly int $max)
    {
        $this->waiting = new \SplQueue();
    }

    public function running(): int
    {
        return $this->running;
    }

    /** Takes a slot if one is free now, without waiting. */
    public function tryAcquire(): bool
    {
        // A free slot means nobody waits: a released slot goes straight to the first waiter.
        if ($this->running < $this->max) {
            ++$this->running;

            return true;
        }

        return false;
    }

    public function acquire(): void
    {
        if ($this->tryAcquire()) {
            return;
        }
        $suspension = EventLoop::getSuspension();
        $this->waiting->enqueue($suspension);
        $suspension->suspend();
        // The releasing request handed its slot over: running was not decremented.
    }

    public function release(): void
    {
        if (!$this->waiting->isEmpty()) {
            $this->waiting->dequeue()->resume();

            return;
        }
        --$this->running;
    }
}
