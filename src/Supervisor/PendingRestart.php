<?php

declare(strict_types=1);

namespace Spindle\Supervisor;

/**
 * @internal A restart waiting for its time: a worker for $slot of $generation, due at $at; with
 * $replaces, the new worker takes over from that (retiring) worker once it accepts.
 */
final class PendingRestart
{
    public function __construct(
        public readonly int $slot,
        public readonly float $at,
        public readonly int $generation,
        public readonly ?int $replaces = null,
    ) {
    }
}
