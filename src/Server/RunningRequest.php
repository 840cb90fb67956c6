<?php

declare(strict_types=1);

namespace Spindle\Server;

use Spindle\Http\Exchange;
use Spindle\Loop\Context;

/** @internal One request RequestRunner runs: its exchange, its task, when it began. */
final class RunningRequest
{
    /** The request timeout answered (or cut) it and cancelled it: what it returns is dropped. */
    public bool $timedOut = false;
    /** The application returned (or failed): its concurrency slot is given back, its response handed over. */
    public bool $handled = false;

    public function __construct(
        public readonly Exchange $exchange,
        public readonly Context $context,
        public readonly float $startedAt,
    ) {
    }
}
