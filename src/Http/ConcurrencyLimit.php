<?php

declare(strict_types=1);

namespace Spindle\Http;

use Spindle\Loop\WaitQueue;

/**
 * At most $max requests of a worker run the application at once; the others wait their turn
 * (suspended, in arrival order) instead of being refused.
 */
final class ConcurrencyLimit
{
    private int $running = 0;
    /** @var WaitQueue<null> a grant is the releasing request's slot, handed over */
    private readonly WaitQueue $waiting;

    public function __construct(private readonly int $max)
    {
        $this->waiting = new WaitQueue();
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
        // A slot handed to a request cancelled meanwhile goes to the next one.
        $this->waiting->wait(unclaimed: $this->release(...));
        // The releasing request handed its slot over: running was not decremented.
    }

    public function release(): void
    {
        if (!$this->waiting->grant(null)) {
            --$this->running;
        }
    }
}
