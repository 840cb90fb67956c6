<?php

declare(strict_types=1);

namespace Spindle\Supervisor;

/** @internal What a worker is overdue for, as WorkerChecks finds it on the master's tick. */
enum Overdue
{
    /** Draining longer than the drain timeout: killed. */
    case DrainTimeout;
    /** Serving, and no report within the heartbeat timeout (a request stuck without yielding): killed. */
    case Heartbeat;
    /** Ready for longer than its TTL: recycled. */
    case Ttl;
}
