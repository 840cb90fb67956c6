<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Loop\Driver;

use Revolt\EventLoop\Driver;
use Revolt\EventLoop\Driver\StreamSelectDriver;

/** The driver a worker runs on without --event-loop=epoll: the baseline the contract describes. */
final class StreamSelectDriverTest extends DriverContractTestCase
{
    protected function createDriver(): Driver
    {
        return new StreamSelectDriver();
    }
}
