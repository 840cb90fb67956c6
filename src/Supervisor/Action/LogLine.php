<?php

declare(strict_types=1);

namespace Spindle\Supervisor\Action;

/** A line for the master's log (a PSR-3 level and a message). */
final class LogLine implements Action
{
    public function __construct(
        public readonly string $level,
        public readonly string $message,
    ) {
    }
}
