<?php

declare(strict_types=1);

namespace Spindle\Database\Pool;

use Revolt\EventLoop\Suspension;
use Spindle\Database\Mysql\Connection;

/**
 * @internal A fiber suspended in ConnectionPool::acquire(). What it is granted is kept here, not
 * only passed through resume(): a fiber cancelled while it waits never takes the grant, and the
 * pool takes it back.
 */
final class Waiter
{
    public WaiterState $state = WaiterState::Waiting;
    /** The connection handed over; null with state Granted means a free slot to open one in. */
    public ?Connection $connection = null;

    /** @param Suspension<mixed> $suspension */
    public function __construct(public readonly Suspension $suspension)
    {
    }
}
