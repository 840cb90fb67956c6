<?php

declare(strict_types=1);

namespace Spindle\Supervisor;

/**
 * @internal The time limits the master holds each worker to on every tick: the drain timeout,
 * the heartbeat timeout and the TTL (with its per-worker jitter). It only decides; MasterState
 * kills or recycles.
 */
final class WorkerChecks
{
    public function __construct(private readonly SupervisorConfig $config)
    {
    }

    /** What $worker is overdue for at $now, or null; $recycling says whether a TTL may recycle now (the server runs, no reload or stop under way). */
    public function overdue(WorkerRecord $worker, float $now, bool $recycling): ?Overdue
    {
        if ($worker->killed) {
            return null;
        }
        if ($worker->state === WorkerState::Draining && $now >= $worker->drainDeadline) {
            return Overdue::DrainTimeout;
        }
        $serving = $worker->state === WorkerState::Ready || $worker->state === WorkerState::Retiring;
        if ($serving && $this->config->heartbeatTimeout > 0 && $now - $worker->lastHeartbeat > $this->config->heartbeatTimeout) {
            return Overdue::Heartbeat;
        }
        if ($recycling && $worker->state === WorkerState::Ready && $this->config->ttl > 0
            && $now - $worker->readyAt >= $this->config->ttl + $this->ttlJitter($worker)) {
            return Overdue::Ttl;
        }

        return null;
    }

    /** Up to 10% of the TTL, fixed per worker, so workers started together do not all recycle together. */
    private function ttlJitter(WorkerRecord $worker): float
    {
        return $this->config->ttl * 0.1 * (($worker->id * 37) % 101) / 100;
    }
}
