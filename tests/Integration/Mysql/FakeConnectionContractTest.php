<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\Mysql;

use Spindle\Database\Mysql\Connection;
use Spindle\Tests\Unit\Database\FakeConnection;

/** The unit tests' FakeConnection held to the contract of the real connection. */
final class FakeConnectionContractTest extends ConnectionContract
{
    protected function connection(): Connection
    {
        return new FakeConnection();
    }

    protected function nextQueryFails(Connection $connection): void
    {
        \assert($connection instanceof FakeConnection);
        $connection->willFail(1064, "You have an error in your SQL syntax near 'SELEC 1'", '42000');
    }
}
