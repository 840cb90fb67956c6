<?php

declare(strict_types=1);

namespace Spindle\Supervisor;

/** @internal The master's bookkeeping for one worker process. */
final class WorkerRecord
{
    public ?int $pid = null;
    public WorkerState $state = WorkerState::Booting;
    public float $readyAt = 0.0;
    public float $lastHeartbeat = 0.0;
    public float $drainDeadline = 0.0;
    public bool $killed = false;
    public ?int $replaces = null;
    public ?string $bootError = null;
    public ?string $retireReason = null;
    /** Why a request ended its process ("exit", "fatal-error"): it drains, and is replaced without back-off. */
    public ?string $exitReason = null;
    public int $requests = 0;
    public int $inflight = 0;
    public int $connections = 0;
    public int $memory = 0;
    public float $lag = 0.0;
    /** Database sessions held by requests, free, and requests waiting for one (its last report). */
    public int $dbBusy = 0;
    public int $dbIdle = 0;
    public int $dbWaiting = 0;
    /** Open WebSocket connections (its last report). */
    public int $webSockets = 0;

    public function __construct(
        public readonly int $id,
        public readonly int $slot,
        public readonly int $generation,
        public readonly float $startedAt,
    ) {
    }
}
