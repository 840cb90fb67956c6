<?php

declare(strict_types=1);

namespace Spindle\Supervisor\Action;

/** Send a signal to a worker: SIGTERM asks it to drain, SIGKILL ends it. */
final class SignalWorker implements Action
{
    public function __construct(
        public readonly int $pid,
        public readonly int $signal,
    ) {
    }
}
