<?php

declare(strict_types=1);

namespace Spindle\Http;

/**
 * A coarse clock for connection and request deadlines: $now is the time of the last tick(), which
 * the connections call where the worker learns of something new (a read, a finished response,
 * a write that unblocked) and the server's timer calls at each deadline. Reading $now costs
 * nothing; tick() reads the system clock (~30 ns).
 *
 * A clock made with a time (tests) stands still: tick() leaves $now where its owner set it.
 */
final class Clock
{
    public float $now;
    private readonly bool $real;

    public function __construct(?float $at = null)
    {
        $this->real = $at === null;
        $this->now = $at ?? \microtime(true);
    }

    public function tick(): float
    {
        return $this->real ? $this->now = \microtime(true) : $this->now;
    }
}
