<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\Mysql;

use Revolt\EventLoop;
use Spindle\Database\Mysql\ConnectionBusy;
use Spindle\Database\Mysql\MysqlException;
use Spindle\Database\Mysql\SocketConnection;

/** Killed connections, query timeouts and fibers against MariaDB. */
final class ResilienceTest extends MysqlTestCase
{
    private static function pause(float $seconds): void
    {
        $suspension = EventLoop::getSuspension();
        EventLoop::delay($seconds, static fn () => $suspension->resume());
        $suspension->suspend();
    }

    public function testKilledConnectionBreaks(): void
    {
        $victim = $this->connect();
        $killer = $this->connect();
        $killer->query('KILL ' . $victim->connectionId());
        self::pause(0.1);
        try {
            $victim->query('SELECT 1');
            self::fail('expected MysqlException');
        } catch (MysqlException $e) {
            self::assertContains($e->errorCode, [2006, 2013], $e->getMessage());
        }
        self::assertTrue($victim->isBroken());
        $start = hrtime(true);
        self::assertMysqlError(2006, 'HY000', fn () => $victim->query('SELECT 1'));
        self::assertMysqlError(2006, 'HY000', fn () => $victim->prepare('SELECT 1'));
        self::assertLessThan(0.05, (hrtime(true) - $start) / 1e9);
    }

    public function testConnectionKilledDuringAQuery(): void
    {
        $victim = $this->connect();
        $killer = $this->connect();
        $id = $victim->connectionId();
        EventLoop::delay(0.2, static function () use ($killer, $id): void {
            $killer->query("KILL $id");
        });
        $start = hrtime(true);
        try {
            $victim->query('SELECT SLEEP(5)');
            self::fail('expected MysqlException');
        } catch (MysqlException $e) {
            // MariaDB answers a killed statement with ER_CONNECTION_KILLED, then closes
            self::assertContains($e->errorCode, [1927, 2006, 2013], $e->getMessage());
        }
        self::assertLessThan(2.0, (hrtime(true) - $start) / 1e9);
        self::pause(0.05);
        try {
            $victim->query('SELECT 1');
            self::fail('expected MysqlException');
        } catch (MysqlException $e) {
            self::assertContains($e->errorCode, [2006, 2013], $e->getMessage());
        }
        self::assertTrue($victim->isBroken());
    }

    public function testQueryTimeoutBreaksTheConnectionAndKillsTheQuery(): void
    {
        $slow = $this->connect(['queryTimeout' => 0.5]);
        $id = $slow->connectionId();
        $start = hrtime(true);
        try {
            $slow->query('SELECT SLEEP(10)');
            self::fail('expected MysqlException');
        } catch (MysqlException $e) {
            self::assertSame(2013, $e->errorCode);
            self::assertStringContainsString('timed out', $e->getMessage());
        }
        $elapsed = (hrtime(true) - $start) / 1e9;
        self::assertGreaterThanOrEqual(0.45, $elapsed);
        self::assertLessThan(1.0, $elapsed);
        self::assertTrue($slow->isBroken());
        self::assertMysqlError(2006, 'HY000', fn () => $slow->query('SELECT 1'));

        // the background KILL QUERY ends the server-side statement
        $observer = $this->connect();
        $deadline = hrtime(true) + 3_000_000_000;
        do {
            $rows = $observer->query("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = $id AND INFO LIKE 'SELECT SLEEP%'")[0]->rows;
            if ($rows === [[0]]) {
                break;
            }
            self::pause(0.05);
        } while (hrtime(true) < $deadline);
        self::assertSame([[0]], $rows, 'the timed-out statement is no longer running');
    }

    public function testTenFibersSleepConcurrently(): void
    {
        $config = self::config();
        $results = [];
        $start = hrtime(true);
        for ($i = 0; $i < 10; ++$i) {
            EventLoop::queue(static function () use ($config, $i, &$results): void {
                $c = SocketConnection::connect($config);
                $results[$i] = $c->query("SELECT SLEEP(0.5), $i")[0]->rows[0];
                $c->close();
            });
        }
        EventLoop::run();
        $elapsed = (hrtime(true) - $start) / 1e9;
        ksort($results);
        self::assertSame(array_map(static fn (int $i) => [0, $i], range(0, 9)), array_values($results));
        self::assertLessThan(1.0, $elapsed, 'ten 0.5 s sleeps overlap');
    }

    public function testOneConnectionRefusesASecondFiber(): void
    {
        $c = $this->connect();
        $first = null;
        $fiber = new \Fiber(static function () use ($c, &$first): void {
            $first = $c->query('SELECT SLEEP(0.2), 1')[0]->rows;
        });
        $fiber->start();
        try {
            $c->query('SELECT 2');
            self::fail('expected ConnectionBusy');
        } catch (ConnectionBusy) {
        }
        EventLoop::run();
        self::assertSame([[0, 1]], $first);
        self::assertSame([[2]], $c->query('SELECT 2')[0]->rows, 'the refused call did not disturb the connection');
    }
}
