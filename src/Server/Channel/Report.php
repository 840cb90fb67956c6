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
        /** Database sessions of the worker's pools held by requests now. */
        public int $dbBusy = 0,
        /** Database sessions of the worker's pools open and free now. */
        public int $dbIdle = 0,
        /** Requests waiting for a database session now. */
        public int $dbWaiting = 0,
        /** Open WebSocket connections (of those counted in $connections). */
        public int $webSockets = 0,
    ) {
    }

    public function type(): MessageType
    {
        return MessageType::Report;
    }
}
