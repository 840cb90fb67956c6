<?php

declare(strict_types=1);

namespace Spindle\Supervisor;

/** The master's policy. Times in seconds; 0 turns a limit off. */
final class SupervisorConfig
{
    public function __construct(
        public readonly int $workers = 1,
        public readonly float $ttl = 0.0,
        public readonly float $drainTimeout = 30.0,
        /** A worker silent for this long (no report) is killed: requestTimeout + killGrace. */
        public readonly float $heartbeatTimeout = 0.0,
        /** First restart after a crash is immediate; then this, doubling, up to backoffMax. */
        public readonly float $backoffBase = 0.5,
        public readonly float $backoffMax = 30.0,
        /** Boot failures tolerated within crashWindow once the server runs; one more and it stops. */
        public readonly int $bootFailureLimit = 5,
        public readonly float $crashWindow = 60.0,
    ) {
    }
}
