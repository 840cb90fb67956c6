<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\Pool;

use Revolt\EventLoop;
use Spindle\Database\Mysql\MysqlException;
use Spindle\Database\Mysql\SocketConnection;
use Spindle\Database\Pdo;
use Spindle\Database\Pool\ConnectionPool;
use Spindle\Database\Pool\PooledConnection;
use Spindle\Tests\Integration\Mysql\MysqlTestCase;

use function Spindle\delay;

/** The pool against the private MariaDB (scripts/mariadb). */
final class ConnectionPoolTest extends MysqlTestCase
{
    /** @var list<ConnectionPool> */
    private array $pools = [];

    private function pool(int $maxSize, float $pingAfter = 1.0, ?int $coreSize = null): ConnectionPool
    {
        $config = self::config();
        $pool = new ConnectionPool(static fn (): SocketConnection => SocketConnection::connect($config), $maxSize, pingAfter: $pingAfter, coreSize: $coreSize);
        $this->pools[] = $pool;

        return $pool;
    }

    protected function tearDown(): void
    {
        foreach ($this->pools as $pool) {
            $pool->close();
        }
        $this->pools = [];
        parent::tearDown();
    }

    public function testTwentyFibersShareFiveConnectionsInFourWaves(): void
    {
        $pool = $this->pool(5);
        // Open the five connections first, so that the waves measure queries, not connects.
        $warm = [];
        for ($i = 0; $i < 5; ++$i) {
            $warm[] = $pool->acquire();
        }
        foreach ($warm as $lease) {
            $lease->release();
        }
        $ids = [];
        $peak = 0;
        $finished = 0;
        for ($i = 0; $i < 20; ++$i) {
            EventLoop::queue(static function () use ($pool, &$ids, &$peak, &$finished): void {
                $pool->with(static function (PooledConnection $c) use ($pool, &$ids, &$peak): void {
                    $peak = max($peak, $pool->stats()->inUse);
                    $ids[$c->connectionId()] = true;
                    self::assertSame(0, $c->query('SELECT SLEEP(0.2)')[0]->rows[0][0]);
                });
                ++$finished;
            });
        }
        $started = hrtime(true);
        EventLoop::run();
        $elapsed = (hrtime(true) - $started) / 1e9;

        self::assertSame(20, $finished);
        self::assertCount(5, $ids);
        self::assertSame(5, $peak);
        self::assertGreaterThanOrEqual(0.79, $elapsed, 'four waves of 0.2 s');
        self::assertLessThan(2.5, $elapsed, 'the fibers waited for the server concurrently (one at a time takes 4 s)');
        $stats = $pool->stats();
        self::assertSame([5, 5, 0, 0], [$stats->size, $stats->idle, $stats->inUse, $stats->waiting]);
    }

    public function testPastItsCoreSizeThePoolGrowsWhileEveryConnectionWaitsOnASlowQuery(): void
    {
        $pool = $this->pool(10, coreSize: 2);
        $finished = 0;
        for ($i = 0; $i < 8; ++$i) {
            EventLoop::queue(static function () use ($pool, &$finished): void {
                $pool->with(static fn (PooledConnection $c) => $c->query('SELECT SLEEP(0.5)'));
                ++$finished;
            });
        }
        $started = hrtime(true);
        EventLoop::run();
        $elapsed = (hrtime(true) - $started) / 1e9;

        self::assertSame(8, $finished);
        // Two at a time would take 2 s; grown to eight, about 0.5 s and the few growth steps.
        self::assertSame(8, $pool->stats()->size);
        self::assertLessThan(1.5, $elapsed);
    }

    public function testPastItsCoreSizeThePoolDoesNotGrowForHoldersThatComputeBetweenQueries(): void
    {
        $pool = $this->pool(10, coreSize: 2);
        $finished = 0;
        for ($i = 0; $i < 6; ++$i) {
            EventLoop::queue(static function () use ($pool, &$finished): void {
                $pool->with(static function (PooledConnection $c): void {
                    // Short queries with work between them for 0.3 s: the holder computes most of
                    // the time (delay() stands for that work without blocking the test's loop).
                    for ($q = 0; $q < 6; ++$q) {
                        $c->query('SELECT 1');
                        delay(0.05);
                    }
                });
                ++$finished;
            });
        }
        EventLoop::run();

        self::assertSame(6, $finished);
        self::assertSame(2, $pool->stats()->size, 'more connections would only share the CPU');
        self::assertGreaterThan(0, $pool->stats()->waits);
    }

    public function testAFiberThatHoldsAConnectionAndAsksForASecondGoesBeforeTheWaiters(): void
    {
        $pool = $this->pool(4, coreSize: 2);
        $served = [];
        // Two holders, each needing a second connection while it keeps its first, and two
        // fibers queued behind them: waiting in line, the holders would wait on each other.
        for ($i = 0; $i < 4; ++$i) {
            EventLoop::queue(static function () use ($pool, $i, &$served): void {
                $first = $pool->acquire();
                delay(0.01);
                $second = $pool->acquire(nested: true);
                $served[] = [$i, $first->query('SELECT 1')[0]->rows[0][0], $second->query('SELECT 2')[0]->rows[0][0]];
                $second->release();
                $first->release();
            });
        }
        EventLoop::run();

        self::assertCount(4, $served);
        self::assertLessThanOrEqual(4, $pool->stats()->size);
    }

    public function testAKilledConnectionIsDiscarded(): void
    {
        $pool = $this->pool(2, pingAfter: INF);
        $lease = $pool->acquire();
        $killedId = $lease->connectionId();
        $lease->release();

        $this->connect()->query("KILL $killedId");
        delay(0.05);

        $lease = $pool->acquire(); // no ping: the dead connection is handed out once
        self::assertSame($killedId, $lease->connectionId());
        try {
            $lease->query('SELECT 1');
            self::fail('expected the killed connection to fail');
        } catch (MysqlException $e) {
            self::assertContains($e->errorCode, [2006, 2013], $e->getMessage());
        }
        $lease->release();
        self::assertSame(0, $pool->stats()->size);

        $fresh = $pool->acquire();
        self::assertNotSame($killedId, $fresh->connectionId());
        self::assertSame([[1]], $fresh->query('SELECT 1')[0]->rows);
        $fresh->release();
    }

    public function testAKilledIdleConnectionIsReplacedBeforeItIsHandedOut(): void
    {
        $pool = $this->pool(2, pingAfter: 0.0);
        $lease = $pool->acquire();
        $killedId = $lease->connectionId();
        $lease->release();

        $this->connect()->query("KILL $killedId");
        delay(0.05);

        $lease = $pool->acquire(); // the ping finds it dead: a fresh one instead
        self::assertNotSame($killedId, $lease->connectionId());
        self::assertSame([[1]], $lease->query('SELECT 1')[0]->rows);
        self::assertSame(1, $pool->stats()->size);
    }

    public function testAConnectionReleasedInsideATransactionIsRolledBack(): void
    {
        $setup = $this->connect();
        $setup->query('CREATE TABLE IF NOT EXISTS pool_rollback (id INT PRIMARY KEY) ENGINE=InnoDB');
        $setup->query('DELETE FROM pool_rollback');
        $pool = $this->pool(1);

        $lease = $pool->acquire();
        $lease->query('BEGIN');
        $lease->query('INSERT INTO pool_rollback VALUES (1)');
        $id = $lease->connectionId();
        $lease->release();

        $again = $pool->acquire();
        self::assertSame($id, $again->connectionId());
        self::assertSame(0, $again->statusFlags() & 1, 'not in a transaction any more');
        self::assertSame([[0]], $again->query('SELECT COUNT(*) FROM pool_rollback')[0]->rows);
        $again->release();

        $pool->transaction(static function (PooledConnection $c): void {
            $c->query('INSERT INTO pool_rollback VALUES (2)');
        });
        self::assertSame([[2]], $setup->query('SELECT id FROM pool_rollback')[0]->rows);
        $setup->query('DROP TABLE pool_rollback');
    }

    public function testAPdoOverALeaseReturnsItWhenThePdoIsGone(): void
    {
        $pool = $this->pool(1);
        $pdo = Pdo::fromConnection($pool->acquire());
        $statement = $pdo->query('SELECT 1 + 2');
        self::assertNotFalse($statement);
        self::assertSame(3, $statement->fetchColumn());
        unset($statement);
        self::assertSame(0, $pool->stats()->idle);
        unset($pdo);
        self::assertSame(1, $pool->stats()->idle);
        self::assertSame(1, $pool->stats()->size);
    }
}
