<?php

declare(strict_types=1);

namespace Spindle\Supervisor\Action;

/** Every worker is gone: the master exits with this status. */
final class ExitMaster implements Action
{
    public function __construct(
        public readonly int $code,
    ) {
    }
}
