<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Database\Pool;

use Spindle\Tests\Unit\Database\FakeConnection;
use PHPUnit\Framework\TestCase;
use Revolt\EventLoop;
use Spindle\Database\Mysql\MysqlException;
use Spindle\Database\Pool\ConnectionPool;
use Spindle\Database\Pool\ConnectionReleased;
use Spindle\Database\Pool\PoolClosed;
use Spindle\Database\Pool\PooledConnection;
use Spindle\Database\Pool\PoolTimeout;
use Spindle\Loop\Context;
use Spindle\Loop\Loop;
use Spindle\Loop\TaskRunner;
use Spindle\Server\RequestTimedOut;

use function Spindle\delay;

final class ConnectionPoolTest extends TestCase
{
    /** @var list<FakeConnection> every connection the pool opened, in order */
    private array $made = [];
    private float $latency = 0.0;

    private function pool(int $maxSize = 10, float $waitTimeout = 5.0, float $idleTimeout = 60.0, float $pingAfter = 1.0): ConnectionPool
    {
        return new ConnectionPool(function (): FakeConnection {
            $connection = new FakeConnection(\count($this->made) + 1);
            $connection->latency = $this->latency;
            $this->made[] = $connection;

            return $connection;
        }, $maxSize, $waitTimeout, $idleTimeout, $pingAfter);
    }

    /** The fake behind a lease (each fake answers connectionId() with its own number). */
    private function fake(PooledConnection $lease): FakeConnection
    {
        return $this->made[$lease->connectionId() - 1];
    }

    /** Throws $error (a call PHPStan does not take for the end of the closure that makes it). */
    private static function raise(\Throwable $error): void
    {
        throw $error;
    }

    /** @param list<\Closure(): void> $tasks each runs in its own fiber, started in this order */
    private static function runFibers(array $tasks): void
    {
        foreach ($tasks as $task) {
            EventLoop::queue($task);
        }
        EventLoop::run();
    }

    public function testAReleasedConnectionIsReused(): void
    {
        $pool = $this->pool();
        $first = $pool->acquire();
        $first->query('SELECT 1');
        $first->release();
        $second = $pool->acquire();
        $second->query('SELECT 2');

        self::assertCount(1, $this->made);
        self::assertSame(1, $second->connectionId());
        self::assertSame(['SELECT 1', 'SELECT 2'], $this->made[0]->log);
        $stats = $pool->stats();
        self::assertSame([1, 0, 1, 0], [$stats->size, $stats->idle, $stats->inUse, $stats->waiting]);
        $second->release();
        $stats = $pool->stats();
        self::assertSame([1, 1, 0, 0], [$stats->size, $stats->idle, $stats->inUse, $stats->waiting]);
    }

    public function testWithReleasesAfterTheWorkAndOnException(): void
    {
        $pool = $this->pool();
        self::assertSame(7, $pool->with(static fn (PooledConnection $c): int => 7));
        self::assertSame(1, $pool->stats()->idle);
        try {
            $pool->with(static fn (PooledConnection $c) => self::raise(new \RuntimeException('work failed')));
            self::fail('expected the exception');
        } catch (\RuntimeException $e) {
            self::assertSame('work failed', $e->getMessage());
        }
        self::assertSame(1, $pool->stats()->idle);
        self::assertCount(1, $this->made);
    }

    public function testThePoolNeverOpensMoreThanMaxSize(): void
    {
        $this->latency = 0.01;
        $pool = $this->pool(maxSize: 3);
        $peak = 0;
        $tasks = [];
        for ($i = 0; $i < 10; ++$i) {
            $tasks[] = function () use ($pool, &$peak): void {
                $pool->with(function (PooledConnection $c) use ($pool, &$peak): void {
                    $peak = max($peak, $pool->stats()->inUse);
                    $c->query('SELECT 1');
                    self::assertLessThanOrEqual(3, $pool->stats()->size);
                });
            };
        }
        $tasks[] = static function () use ($pool): void {
            // All ten fibers have run up to their first wait: three hold a connection, seven wait.
            $stats = $pool->stats();
            self::assertSame([3, 0, 3, 7], [$stats->size, $stats->idle, $stats->inUse, $stats->waiting]);
        };
        self::runFibers($tasks);

        self::assertCount(3, $this->made);
        self::assertSame(3, $peak);
        $stats = $pool->stats();
        self::assertSame([3, 3, 0, 0], [$stats->size, $stats->idle, $stats->inUse, $stats->waiting]);
    }

    public function testWaitersAreServedInArrivalOrder(): void
    {
        $pool = $this->pool(maxSize: 1);
        $order = [];
        $tasks = [static function () use ($pool, &$order): void {
            $held = $pool->acquire();
            $order[] = 'holder';
            delay(0.02);
            $held->release();
        }];
        foreach (['A', 'B', 'C', 'D'] as $name) {
            $tasks[] = static function () use ($pool, $name, &$order): void {
                $connection = $pool->acquire();
                $order[] = $name;
                delay(0.005);
                $connection->release();
            };
        }
        // A latecomer that arrives while the others wait queues behind them.
        $tasks[] = static function () use ($pool, &$order): void {
            delay(0.01);
            $connection = $pool->acquire();
            $order[] = 'late';
            $connection->release();
        };
        self::runFibers($tasks);

        self::assertSame(['holder', 'A', 'B', 'C', 'D', 'late'], $order);
        self::assertCount(1, $this->made);
    }

    public function testAWaiterTimesOutWithAClearMessage(): void
    {
        $pool = $this->pool(maxSize: 2, waitTimeout: 0.05);
        $held = [$pool->acquire(), $pool->acquire()];
        $started = hrtime(true);
        try {
            $pool->acquire();
            self::fail('expected PoolTimeout');
        } catch (PoolTimeout $e) {
            $waited = (hrtime(true) - $started) / 1e9;
            self::assertGreaterThanOrEqual(0.045, $waited);
            self::assertLessThan(1.0, $waited);
            self::assertStringContainsString('within 0.05 s', $e->getMessage());
            self::assertStringContainsString('all 2 connections of the pool are in use', $e->getMessage());
        }
        self::assertSame(0, $pool->stats()->waiting);
        // The timed-out waiter is not served later: the connection goes idle.
        $held[0]->release();
        self::assertSame(1, $pool->stats()->idle);
    }

    public function testAZeroWaitTimeoutFailsAtOnce(): void
    {
        $pool = $this->pool(maxSize: 1, waitTimeout: 0.0);
        $pool->acquire();
        $this->expectException(PoolTimeout::class);
        $pool->acquire();
    }

    public function testABrokenConnectionIsDiscardedAndNeverHandedOutAgain(): void
    {
        $pool = $this->pool(maxSize: 1);
        $lease = $pool->acquire();
        $broken = $this->fake($lease);
        $broken->breakOnNextCommand = true;
        try {
            $lease->query('SELECT 1');
            self::fail('expected the query to fail');
        } catch (MysqlException $e) {
            self::assertSame(2013, $e->errorCode);
        }
        $lease->release();

        self::assertTrue($broken->closed);
        self::assertSame(0, $pool->stats()->size);
        $next = $pool->acquire();
        self::assertNotSame($broken->id, $next->connectionId());
        self::assertCount(2, $this->made);
    }

    public function testAWaiterGetsAFreshConnectionWhenTheHeldOneBreaks(): void
    {
        $this->latency = 0.005;
        $pool = $this->pool(maxSize: 1);
        $got = [];
        self::runFibers([
            function () use ($pool): void {
                $lease = $pool->acquire();
                $this->fake($lease)->breakOnNextCommand = true;
                try {
                    $lease->query('SELECT 1');
                } catch (MysqlException) {
                }
                $lease->release();
            },
            static function () use ($pool, &$got): void {
                $lease = $pool->acquire();
                $lease->query('SELECT 2');
                $got[] = $lease->connectionId();
                $lease->release();
            },
        ]);

        self::assertSame([2], $got);
        self::assertTrue($this->made[0]->closed);
        self::assertFalse($this->made[1]->closed);
        self::assertSame(1, $pool->stats()->size);
    }

    public function testAnIdleConnectionThatBrokeIsSkipped(): void
    {
        $pool = $this->pool();
        $lease = $pool->acquire();
        $lease->release();
        $this->made[0]->broken = true;
        self::assertSame(2, $pool->acquire()->connectionId());
        self::assertSame(1, $pool->stats()->size);
    }

    public function testReleasingInsideATransactionRollsBackBeforeReuse(): void
    {
        $pool = $this->pool(maxSize: 1);
        $lease = $pool->acquire();
        $lease->query('BEGIN');
        $lease->query('INSERT 1');
        $lease->release();
        $next = $pool->acquire(); // waits for the rollback, which runs in the background
        $fake = $this->fake($next);

        self::assertSame(1, $fake->id);
        self::assertSame(['BEGIN', 'INSERT 1', 'ROLLBACK'], $fake->log);
        self::assertFalse($fake->inTransaction());
    }

    public function testAConnectionWhoseRollbackFailsIsDiscarded(): void
    {
        $pool = $this->pool(maxSize: 1);
        $lease = $pool->acquire();
        $fake = $this->fake($lease);
        $lease->query('BEGIN');
        $fake->failRollback = true;
        $lease->release();
        $next = $pool->acquire();

        self::assertSame(2, $next->connectionId());
        self::assertTrue($fake->closed);
        self::assertSame(1, $pool->stats()->size);
    }

    public function testStatementsLeftOpenAreClosedOnRelease(): void
    {
        $pool = $this->pool(maxSize: 1);
        $lease = $pool->acquire();
        $kept = $lease->prepare('SELECT ?');
        $closed = $lease->prepare('SELECT 2');
        $lease->closeStatement($closed);
        $lease->release();
        $fake = $this->fake($pool->acquire());

        self::assertSame(['PREPARE SELECT ?', 'PREPARE SELECT 2', 'CLOSE ' . $closed->id, 'CLOSE ' . $kept->id], $fake->log);
    }

    public function testTransactionCommits(): void
    {
        $pool = $this->pool();
        $result = $pool->transaction(function (PooledConnection $c): string {
            self::assertTrue($this->fake($c)->inTransaction());
            $c->query('INSERT 1');

            return 'done';
        });
        $fake = $this->made[0];

        self::assertSame('done', $result);
        self::assertSame(['BEGIN', 'INSERT 1', 'COMMIT'], $fake->log);
        self::assertFalse($fake->inTransaction());
        self::assertSame(1, $pool->stats()->idle);
    }

    public function testTransactionRollsBackAndRethrows(): void
    {
        $pool = $this->pool();
        $error = new \DomainException('no');
        try {
            $pool->transaction(static function (PooledConnection $c) use ($error): void {
                $c->query('INSERT 1');
                self::raise($error);
            });
            self::fail('expected the exception');
        } catch (\DomainException $e) {
            self::assertSame($error, $e);
        }
        $fake = $this->made[0];

        self::assertSame(['BEGIN', 'INSERT 1', 'ROLLBACK'], $fake->log);
        self::assertFalse($fake->inTransaction());
        self::assertSame(1, $pool->stats()->idle);
    }

    public function testTransactionKeepsTheConnectionWithItsFiberThroughout(): void
    {
        $this->latency = 0.002;
        $pool = $this->pool(maxSize: 2);
        $tasks = [];
        for ($i = 0; $i < 6; ++$i) {
            $tasks[] = static function () use ($pool, $i): void {
                $pool->transaction(static function (PooledConnection $c) use ($i): void {
                    $c->query('CLAIM');
                    $c->query("INSERT $i");
                    delay(0.003);
                    $c->query("UPDATE $i");
                    $c->query('UNCLAIM');
                });
            };
        }
        self::runFibers($tasks);

        foreach ($this->made as $fake) {
            self::assertSame([], $fake->violations);
            self::assertFalse($fake->inTransaction());
            $verbs = array_map(static fn (string $sql): string => explode(' ', $sql)[0], $fake->log);
            self::assertSame(['BEGIN', 'CLAIM', 'INSERT', 'UPDATE', 'UNCLAIM', 'COMMIT'], \array_slice($verbs, 0, 6));
        }
        self::assertCount(2, $this->made);
    }

    public function testConcurrentFibersNeverShareAConnection(): void
    {
        $this->latency = 0.001;
        $pool = $this->pool(maxSize: 3);
        $done = 0;
        $tasks = [];
        // Staggered fibers with uneven pauses: the queue of waiters fills and drains many times,
        // so connections go both straight to waiters and through the idle list.
        for ($i = 0; $i < 8; ++$i) {
            $tasks[] = static function () use ($pool, $i, &$done): void {
                delay($i / 1000);
                for ($round = 0; $round < 12; ++$round) {
                    $c = $pool->acquire();
                    $c->query('CLAIM');
                    delay((($i * 7 + $round * 3) % 5) / 1000);
                    $c->query("SELECT $i");
                    $c->query('UNCLAIM');
                    $c->release();
                    ++$done;
                    delay((($i + $round) % 4) / 1000);
                }
            };
        }
        self::runFibers($tasks);

        self::assertSame(96, $done);
        self::assertCount(3, $this->made);
        $commands = 0;
        foreach ($this->made as $fake) {
            self::assertSame([], $fake->violations);
            $commands += \count($fake->log);
        }
        self::assertSame(288, $commands);
    }

    public function testTheDetectorNoticesSharing(): void
    {
        // The detector itself: two fibers on one connection without the pool are caught.
        $fake = new FakeConnection(1);
        $fake->latency = 0.001;
        self::runFibers([
            static function () use ($fake): void {
                $fake->query('CLAIM');
                delay(0.005);
                $fake->query('UNCLAIM');
            },
            static function () use ($fake): void {
                $fake->query('SELECT 1');
            },
        ]);
        self::assertNotSame([], $fake->violations);
    }

    public function testAStaleLeaseCannotReachTheConnection(): void
    {
        $pool = $this->pool(maxSize: 1);
        $lease = $pool->acquire();
        $lease->release();
        $lease->release(); // idempotent
        $lease->close();
        self::assertTrue($lease->isReleased());
        self::assertTrue($lease->isBroken());
        $next = $pool->acquire();
        self::assertSame(0, $pool->stats()->idle);

        $this->expectException(ConnectionReleased::class);
        $lease->query('SELECT 1');
    }

    public function testAReleaseDuringARunningCallTakesEffectWhenTheCallReturns(): void
    {
        $this->latency = 0.01;
        $pool = $this->pool(maxSize: 1);
        $lease = $pool->acquire();
        $log = [];
        self::runFibers([
            static function () use ($lease, &$log): void {
                $lease->query('SELECT SLOW');
                $log[] = 'query returned';
            },
            static function () use ($lease, $pool, &$log): void {
                $lease->release(); // while the other fiber's query runs
                $log[] = 'released: idle ' . $pool->stats()->idle;
                $next = $pool->acquire();
                $log[] = 'acquired ' . $next->connectionId();
                $next->release();
            },
        ]);

        self::assertSame(['released: idle 0', 'query returned', 'acquired 1'], $log);
        self::assertSame([], $this->made[0]->violations);
    }

    public function testIdleConnectionsPastTheIdleTimeoutAreClosedOnAcquire(): void
    {
        $pool = $this->pool(idleTimeout: 0.03);
        $a = $pool->acquire();
        $b = $pool->acquire();
        $a->release();
        delay(0.05);
        $b->release();
        $next = $pool->acquire(); // a is past its idle time, b is not

        self::assertTrue($this->made[0]->closed);
        self::assertSame(2, $next->connectionId());
        self::assertSame(1, $pool->stats()->size);
        $next->release();
        delay(0.05);
        self::assertSame(3, $pool->acquire()->connectionId());
        self::assertTrue($this->made[1]->closed);
    }

    public function testAConnectionIdleLongerThanPingAfterIsPingedAndReplacedIfDead(): void
    {
        $pool = $this->pool(pingAfter: 0.0);
        $pool->acquire()->release();
        self::assertSame(1, $pool->acquire()->connectionId());
        self::assertSame(['PING'], $this->made[0]->log);

        $pool = $this->pool(pingAfter: 0.0);
        $pool->acquire()->release();
        $this->made[1]->failPing = true;
        self::assertSame(3, $pool->acquire()->connectionId());
        self::assertTrue($this->made[1]->closed);
        self::assertSame(1, $pool->stats()->size);

        $pool = $this->pool(pingAfter: 60.0);
        $pool->acquire()->release();
        $pool->acquire();
        self::assertSame([], $this->made[3]->log);
    }

    public function testAFailedConnectFreesItsSlotForTheNextAcquirer(): void
    {
        $attempts = 0;
        $pool = new ConnectionPool(static function () use (&$attempts): FakeConnection {
            if (++$attempts === 1) {
                throw new MysqlException("Can't connect to MySQL server", 2002);
            }

            return new FakeConnection($attempts);
        }, maxSize: 1);
        try {
            $pool->acquire();
            self::fail('expected the connect error');
        } catch (MysqlException $e) {
            self::assertSame(2002, $e->errorCode);
        }
        self::assertSame(0, $pool->stats()->size);
        self::assertSame(2, $pool->acquire()->connectionId());
    }

    public function testCloseFailsWaitersAndClosesConnections(): void
    {
        $pool = $this->pool(maxSize: 2);
        $outcome = [];
        $held = null;
        self::runFibers([
            static function () use ($pool, &$held): void {
                $held = $pool->acquire();
                $pool->acquire()->release();
            },
            static function () use ($pool, &$outcome): void {
                $pool->acquire(); // takes the idle one
                try {
                    $pool->acquire();
                } catch (PoolClosed $e) {
                    $outcome[] = $e->getMessage();
                }
            },
            static function () use ($pool): void {
                $pool->close();
            },
        ]);

        self::assertCount(1, $outcome);
        self::assertStringContainsString('closed', $outcome[0]);
        self::assertInstanceOf(PooledConnection::class, $held);
        self::assertFalse($this->made[0]->closed);
        $held->release();
        self::assertTrue($this->made[0]->closed);
        self::assertSame(1, $pool->stats()->size); // the other one is still lent out
        $this->expectException(PoolClosed::class);
        $pool->acquire();
    }

    public function testACancelledWaiterLeavesTheQueue(): void
    {
        $pool = $this->pool(maxSize: 1);
        $runner = new TaskRunner(Loop::driver());
        $holder = $pool->acquire();
        $context = new Context('GET /waits');
        $log = [];
        $runner->run($context, static function () use ($pool, &$log): void {
            try {
                $pool->acquire();
                $log[] = 'acquired';
            } catch (RequestTimedOut) {
                $log[] = 'cancelled';
            }
        });
        self::assertSame(1, $pool->stats()->waiting);
        $runner->cancel($context, new RequestTimedOut('timed out'));
        EventLoop::run();
        self::assertSame(['cancelled'], $log);
        self::assertSame(0, $pool->stats()->waiting);
        $holder->release();
        self::assertSame(1, $pool->stats()->idle);
    }

    public function testAConnectionGrantedToAWaiterCancelledBeforeItRanIsNotLost(): void
    {
        $pool = $this->pool(maxSize: 1);
        $runner = new TaskRunner(Loop::driver());
        $holder = $pool->acquire();
        $context = new Context('GET /waits');
        $log = [];
        $runner->run($context, static function () use ($pool, &$log): void {
            try {
                $pool->acquire();
                $log[] = 'acquired';
            } catch (RequestTimedOut) {
                $log[] = 'cancelled';
            }
        });
        // The cancellation goes in first; the release then grants the connection to the same
        // waiter, whose fiber has not run yet and never takes it.
        $runner->cancel($context, new RequestTimedOut('timed out'));
        $holder->release();
        EventLoop::run();

        self::assertSame(['cancelled'], $log);
        $stats = $pool->stats();
        self::assertSame([1, 1, 0, 0], [$stats->size, $stats->idle, $stats->inUse, $stats->waiting]);
    }

    public function testInvalidSettingsAreRefused(): void
    {
        $connect = static fn (): FakeConnection => new FakeConnection(1);
        foreach ([[0, 5.0, 60.0], [1, -1.0, 60.0], [1, 5.0, 0.0], [1, NAN, 60.0]] as [$max, $wait, $idle]) {
            try {
                new ConnectionPool($connect, $max, $wait, $idle);
                self::fail("accepted $max, $wait, $idle");
            } catch (\InvalidArgumentException) {
                $this->addToAssertionCount(1);
            }
        }
    }
}
