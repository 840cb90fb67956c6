<?php

declare(strict_types=1);

namespace Spindle\Supervisor;

/** The master's view of one forked worker. */
final class WorkerProcess
{
    public bool $ready = false;

    /** @param resource $channel */
    public function __construct(
        public readonly int $pid,
        public readonly mixed $channel,
    ) {
    }
}
