<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\Mysql;

use Spindle\Database\Mysql\Connection;

final class SocketConnectionContractTest extends ConnectionContract
{
    protected function connection(): Connection
    {
        return $this->connect();
    }

    protected function nextQueryFails(Connection $connection): void
    {
        // 'SELEC 1' fails on the server by itself.
    }
}
