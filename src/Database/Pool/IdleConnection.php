<?php

declare(strict_types=1);

namespace Spindle\Database\Pool;

use Spindle\Database\Mysql\Connection;

/** @internal A connection resting in the pool, and since when (hrtime seconds). */
final class IdleConnection
{
    public function __construct(
        public readonly Connection $connection,
        public readonly float $since,
    ) {
    }
}
