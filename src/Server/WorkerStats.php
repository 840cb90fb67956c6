<?php

declare(strict_types=1);

namespace Spindle\Server;

/** What a worker counts for its periodic report to the master. */
final class WorkerStats
{
    /** Requests the application finished (answered or failed) so far. */
    public int $requests = 0;
    /** Requests in the application now, waiting for a concurrency slot included. */
    public int $inflight = 0;
    /** The longest event-loop lag (seconds) seen since the last report. */
    public float $lag = 0.0;
}
