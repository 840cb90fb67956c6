<?php

declare(strict_types=1);

namespace Spindle\Server;

/**
 * What a worker measures for its periodic report to the master, besides the request counts of
 * its Http\RequestRunner.
 */
final class WorkerStats
{
    /** The longest event-loop lag (seconds) seen since the last report. */
    public float $lag = 0.0;
}
