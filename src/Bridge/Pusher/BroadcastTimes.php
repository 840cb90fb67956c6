<?php

declare(strict_types=1);

namespace Spindle\Bridge\Pusher;

/**
 * How long this worker took to hand each broadcast (PusherServer::publish(): an event from the
 * HTTP API or the in-process broadcaster) to all its subscribers: written to every socket or
 * queued behind a slow one. Kept as histogram buckets (the bounds below) for `--metrics`.
 */
final class BroadcastTimes
{
    /** Upper bounds in seconds (+Inf after the last). */
    public const BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.2, 0.5, 1.0, 2.5];

    /** @var array<int, int> broadcasts by bucket, the last one for +Inf */
    public array $counts;
    public float $sum = 0.0;
    public int $broadcasts = 0;
    /** Frames written to (or queued for) subscribers, all broadcasts together. */
    public int $deliveries = 0;

    public function __construct()
    {
        $this->counts = \array_fill(0, \count(self::BUCKETS) + 1, 0);
    }

    public function record(float $seconds, int $deliveries): void
    {
        $i = 0;
        foreach (self::BUCKETS as $bound) {
            if ($seconds <= $bound) {
                break;
            }
            ++$i;
        }
        ++$this->counts[$i];
        $this->sum += $seconds;
        ++$this->broadcasts;
        $this->deliveries += $deliveries;
    }
}
