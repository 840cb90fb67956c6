<?php

declare(strict_types=1);

namespace Spindle\Supervisor;

enum MasterPhase: string
{
    /** The first generation is booting; nothing announced yet. */
    case Starting = 'starting';
    case Running = 'running';
    /** A new generation is booting next to the serving one. */
    case Reloading = 'reloading';
    /** Draining every worker before exiting. */
    case Stopping = 'stopping';
}
