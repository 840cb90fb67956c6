<?php

declare(strict_types=1);

namespace Spindle\Database\Pool;

/** A snapshot of a ConnectionPool's counters. */
final class PoolStats
{
    public function __construct(
        /** Connections the pool holds: idle, lent out, being opened or being cleaned up. */
        public readonly int $size,
        /** Connections ready to be handed out. */
        public readonly int $idle,
        /** Connections lent out, being opened or being cleaned up (size - idle). */
        public readonly int $inUse,
        /** Fibers suspended in acquire() until a connection is free. */
        public readonly int $waiting,
        /** The most connections the pool holds at once. */
        public readonly int $maxSize,
        /** acquire() calls that had to wait for a connection, since the pool was made. */
        public readonly int $waits = 0,
        /** Seconds fibers spent waiting in acquire(), added up, since the pool was made. */
        public readonly float $waitSeconds = 0.0,
        /** acquire() calls that gave up (PoolTimeout), since the pool was made. */
        public readonly int $timeouts = 0,
    ) {
    }
}
