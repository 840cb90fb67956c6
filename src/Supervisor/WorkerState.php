<?php

declare(strict_types=1);

namespace Spindle\Supervisor;

enum WorkerState: string
{
    /** Forked, booting the app, not accepting yet. */
    case Booting = 'booting';
    /** Accepting and serving. */
    case Ready = 'ready';
    /** Still serving while its replacement boots (recycling). */
    case Retiring = 'retiring';
    /** Told to stop: no longer accepting, finishing its in-flight requests. */
    case Draining = 'draining';
}
