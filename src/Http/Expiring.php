<?php

declare(strict_types=1);

namespace Spindle\Http;

/** Something with deadlines the worker's TimeoutWheel checks: a connection's own timeouts. */
interface Expiring
{
    /** Enforces whatever expired by $now, and schedules its next check with the wheel. */
    public function expireTimeouts(float $now): void;
}
