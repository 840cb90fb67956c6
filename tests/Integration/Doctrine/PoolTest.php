<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\Doctrine;

use Revolt\EventLoop;
use Spindle\Database\Mysql\SocketConnection;
use Spindle\Database\Pdo;
use Spindle\Database\Pool\ConnectionPool;

/** DBAL connections that take their MySQL connection from Spindle's pool (Pdo::ATTR_CONNECTOR). */
final class PoolTest extends DoctrineTestCase
{
    public function testClosingTheDbalConnectionGivesItBackToThePool(): void
    {
        $config = self::config();
        $pool = new ConnectionPool(static fn () => SocketConnection::connect($config), maxSize: 1);
        $params = ['driverOptions' => [Pdo::ATTR_CONNECTOR => static fn () => $pool->acquire()]];

        try {
            $first = $this->dbal($params);
            $id = $first->fetchOne('SELECT CONNECTION_ID()');
            self::assertSame(1, $pool->stats()->inUse);
            $first->close();
            self::assertSame(0, $pool->stats()->inUse);
            self::assertSame(1, $pool->stats()->idle);

            $second = $this->dbal($params);
            self::assertSame($id, $second->fetchOne('SELECT CONNECTION_ID()'));
        } finally {
            $pool->close();
        }
    }

    public function testFibersWaitTheirTurnForAConnection(): void
    {
        $config = self::config();
        $pool = new ConnectionPool(static fn () => SocketConnection::connect($config), maxSize: 1);
        $params = ['driverOptions' => [Pdo::ATTR_CONNECTOR => static fn () => $pool->acquire()]];
        $events = [];

        try {
            foreach (['a', 'b'] as $name) {
                $db = $this->dbal($params);
                EventLoop::queue(static function () use ($name, $db, &$events): void {
                    $events[] = "$name asks";
                    $id = $db->fetchOne('SELECT CONNECTION_ID()');
                    $db->fetchOne('SELECT SLEEP(0.1)');
                    $events[] = "$name done on $id";
                    $db->close();
                });
            }
            EventLoop::run();
        } finally {
            $pool->close();
        }

        self::assertCount(4, $events);
        self::assertSame(['a asks', 'b asks'], \array_slice($events, 0, 2));
        // One connection served both, one after the other.
        self::assertSame(1, preg_match('/^a done on (\d+)$/', $events[2], $a));
        self::assertSame("b done on {$a[1]}", $events[3]);
    }
}
