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
        self::assertMysqlError(2006, 'HY000', fn () => $victim->query('SELECT 1'));
        self::assertMysqlError(2006, 'HY000', fn () => $victim->prepare('SELECT 1'));
    }

    public function testConnectionKilledDuringAQuery(): void
    {
        $victim = $this->connect();
        $killer = $this->connect();
        $id = $victim->connectionId();
        EventLoop::delay(0.2, static function () use ($killer, $id): void {
            $killer->query("KILL $id");
        });
        try {
            // Ended by the KILL: SLEEP(5) running to its end would return normally.
            $victim->query('SELECT SLEEP(5)');
            self::fail('expected MysqlException');
        } catch (MysqlException $e) {
            // MariaDB answers a killed statement with ER_CONNECTION_KILLED, then closes
            self::assertContains($e->errorCode, [1927, 2006, 2013], $e->getMessage());
        }
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

    /**
     * Ten fibers, ten connections: all ten statements must be waiting in the server at the same
     * time. Each one waits for a user lock that a controller connection holds and releases only
     * once it has seen all ten waiting in the process list, so nothing here depends on how fast
     * the machine is. Were the waits serialized (a blocking driver), the first GET_LOCK would
     * hold the process until its own timeout and the controller would never see ten.
     */
    public function testTenFibersWaitInTheServerAtOnce(): void
    {
        $config = self::config();
        $lock = 'spindle_barrier_' . bin2hex(random_bytes(6));
        $controller = $this->connect();
        self::assertSame([[1]], $controller->query("SELECT GET_LOCK('$lock', 0)")[0]->rows);
        $results = [];
        for ($i = 0; $i < 10; ++$i) {
            EventLoop::queue(static function () use ($config, $lock, $i, &$results): void {
                $c = SocketConnection::connect($config);
                // Acquired once the controller lets go, released at once for the next fiber.
                $results[$i] = $c->query("SELECT GET_LOCK('$lock', 60), RELEASE_LOCK('$lock'), $i")[0]->rows[0];
                $c->close();
            });
        }
        $waiting = 0;
        EventLoop::queue(static function () use ($controller, $lock, &$waiting): void {
            // Generous bound so that a broken driver fails instead of hanging; never a speed check.
            $giveUp = hrtime(true) + 50_000_000_000;
            while ($waiting < 10 && hrtime(true) < $giveUp) {
                self::pause(0.01);
                $waiting = (int) $controller->query(
                    "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID <> CONNECTION_ID() AND INFO LIKE 'SELECT GET_LOCK(''$lock''%'",
                )[0]->rows[0][0];
            }
            $controller->query("SELECT RELEASE_LOCK('$lock')");
        });
        EventLoop::run();
        $controller->close();
        self::assertSame(10, $waiting, 'all ten statements were waiting in the server at once');
        ksort($results);
        self::assertSame(array_map(static fn (int $i) => [1, 1, $i], range(0, 9)), array_values($results));
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
