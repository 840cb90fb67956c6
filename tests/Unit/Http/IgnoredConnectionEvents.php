<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Http;

use Spindle\Http\ConnectionDriver;
use Spindle\Http\ConnectionEvents;

/** What a server would be told by a connection under test, recorded and otherwise ignored. */
final class IgnoredConnectionEvents implements ConnectionEvents
{
    /** @var list<ConnectionDriver> */
    public array $closed = [];
    /** @var list<array{ConnectionDriver, ConnectionDriver}> */
    public array $replaced = [];

    public function closed(ConnectionDriver $connection): void
    {
        $this->closed[] = $connection;
    }

    public function replaced(ConnectionDriver $old, ConnectionDriver $new): void
    {
        $this->replaced[] = [$old, $new];
    }
}
