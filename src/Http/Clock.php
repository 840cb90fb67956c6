<?php

declare(strict_types=1);

namespace Spindle\Http;

/** A coarse clock for connection deadlines, advanced by the server's timeout sweep. */
final class Clock
{
    public float $now;

    public function __construct()
    {
        $this->now = \microtime(true);
    }

    public function tick(): float
    {
        return $this->now = \microtime(true);
    }
}
