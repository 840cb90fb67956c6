<?php

declare(strict_types=1);

namespace Spindle\Server\Channel;

/** The worker's periodic figures (one a second); it is also its heartbeat. */
final readonly class Report implements WorkerMessage
{
    public function __construct(
        /** Requests answered since the worker started. */
        public int $requests,
        /** Requests running now. */
        public int $inflight,
        /** Open client connections. */
        public int $connections,
        /** memory_get_usage() in bytes. */
        public int $memory,
        /** memory_get_peak_usage() in bytes. */
        public int $peak,
        /** The worst event-loop lag since the previous report, in seconds. */
        public float $lag,
    ) {
    }

    public function type(): MessageType
    {
        return MessageType::Report;
    }
}
