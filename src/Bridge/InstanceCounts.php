<?php

declare(strict_types=1);

namespace Spindle\Bridge;

/** A worker's pool of app instances (Laravel apps, Symfony kernels), as InstanceMetrics reads it. */
interface InstanceCounts
{
    /** Instances booted (idle or lent to a request). */
    public function size(): int;

    /** Instances waiting for a request. */
    public function idle(): int;
}
