<?php

declare(strict_types=1);

namespace Spindle\Database\Pool;

/**
 * A PooledConnection was used after it went back to the pool. The connection behind it may now
 * serve another fiber: acquire a new one instead.
 */
final class ConnectionReleased extends \LogicException
{
}
