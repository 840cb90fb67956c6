<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Bridge\Laravel;

use PHPUnit\Framework\TestCase;
use Revolt\EventLoop;
use Spindle\Bridge\Laravel\InstancePool;
use Spindle\Loop\Context;
use Spindle\Loop\Loop;
use Spindle\Loop\TaskCancelled;
use Spindle\Loop\TaskRunner;

final class InstancePoolTest extends TestCase
{
    public function testInstancesAreCreatedLazilyAndReused(): void
    {
        $created = 0;
        $pool = new InstancePool(static function () use (&$created): \stdClass {
            ++$created;

            return new \stdClass();
        }, 3);
        $a = $pool->borrow();
        $pool->release($a);
        self::assertSame($a, $pool->borrow());
        $b = $pool->borrow();
        self::assertNotSame($a, $b);
        self::assertSame(2, $created);
        self::assertSame(2, $pool->size());
    }

    public function testPastTheCapRequestsWaitInOrder(): void
    {
        $pool = new InstancePool(static fn (): \stdClass => new \stdClass(), 1);
        $held = $pool->borrow();
        $order = [];
        foreach (['first', 'second'] as $name) {
            EventLoop::queue(static function () use ($pool, $name, &$order): void {
                $instance = $pool->borrow();
                $order[] = $name;
                \Spindle\delay(0.01);
                $pool->release($instance);
            });
        }
        EventLoop::delay(0.02, static fn () => $pool->release($held));
        EventLoop::run();
        self::assertSame(['first', 'second'], $order);
        self::assertSame(1, $pool->size());
        self::assertSame(1, $pool->idle());
    }

    public function testADiscardedInstanceMakesRoomForAWaiter(): void
    {
        $created = 0;
        $pool = new InstancePool(static function () use (&$created): \stdClass {
            ++$created;

            return new \stdClass();
        }, 1);
        $broken = $pool->borrow();
        $got = null;
        EventLoop::queue(static function () use ($pool, &$got): void {
            $got = $pool->borrow();
        });
        EventLoop::delay(0.01, static fn () => $pool->discard($broken));
        EventLoop::run();
        self::assertNotNull($got);
        self::assertNotSame($broken, $got);
        self::assertSame(2, $created);
        self::assertSame(1, $pool->size());
    }

    public function testAFailedBootFreesItsPlace(): void
    {
        $fail = true;
        $pool = new InstancePool(static function () use (&$fail): \stdClass {
            if ($fail) {
                throw new \RuntimeException('boot failed');
            }

            return new \stdClass();
        }, 1);
        try {
            $pool->borrow();
            self::fail('expected the boot failure');
        } catch (\RuntimeException $e) {
            self::assertSame('boot failed', $e->getMessage());
        }
        $fail = false;
        self::assertInstanceOf(\stdClass::class, $pool->borrow());
        self::assertSame(1, $pool->size());
    }

    public function testInsideTheLoopBootsRunOneAtATimeWithTheLoopTurningInBetween(): void
    {
        $log = [];
        $pool = new InstancePool(static function () use (&$log): \stdClass {
            $log[] = 'boot';

            return new \stdClass();
        }, 10);
        $borrowed = [];
        for ($i = 0; $i < 3; ++$i) {
            EventLoop::queue(static function () use ($pool, &$borrowed, &$log, $i): void {
                $borrowed[] = $pool->borrow();
                $log[] = "request $i";
            });
        }
        // Another request's I/O, due as soon as the loop polls.
        EventLoop::defer(static function () use (&$log): void {
            EventLoop::defer(static function () use (&$log): void {
                $log[] = 'other work';
            });
        });
        EventLoop::run();

        self::assertCount(3, $borrowed);
        self::assertSame(3, $pool->size());
        self::assertSame(['boot', 'request 0', 'other work', 'boot', 'request 1', 'boot', 'request 2'], $log);
    }

    public function testASpareInstanceIsBootedAheadOfNeed(): void
    {
        $created = 0;
        $pool = new InstancePool(static function () use (&$created): \stdClass {
            ++$created;

            return new \stdClass();
        }, 3, spare: 1);
        $pool->add(new \stdClass());
        EventLoop::queue(static fn () => $pool->borrow());
        EventLoop::run();

        self::assertSame(1, $created, 'the borrowed instance was replaced by a spare');
        self::assertSame(2, $pool->size());
        self::assertSame(1, $pool->idle());
    }

    public function testABackgroundBootFailureIsReportedAndTheWaiterBootsItself(): void
    {
        $attempts = 0;
        $failures = [];
        $pool = new InstancePool(static function () use (&$attempts): \stdClass {
            if (++$attempts === 1) {
                throw new \RuntimeException('first boot failed');
            }

            return new \stdClass();
        }, 2, onBootFailure: static function (\Throwable $e) use (&$failures): void {
            $failures[] = $e->getMessage();
        });
        $got = null;
        EventLoop::queue(static function () use ($pool, &$got): void {
            $got = $pool->borrow();
        });
        EventLoop::run();

        self::assertInstanceOf(\stdClass::class, $got);
        self::assertSame(['first boot failed'], $failures);
        self::assertSame(1, $pool->size());
    }

    public function testTrimLetsGoOfTheIdleInstancesTheLastPeriodDidNotNeedLeastRecentlyUsedFirst(): void
    {
        $dropped = [];
        $pool = new InstancePool(static fn (): \stdClass => new \stdClass(), 10, keep: 1, onDrop: static function (\stdClass $instance) use (&$dropped): void {
            $dropped[] = $instance;
        });
        $a = $pool->borrow();
        $b = $pool->borrow();
        $c = $pool->borrow();
        $pool->release($a);
        $pool->release($b);
        $pool->release($c);
        self::assertSame(3, $pool->size());

        $pool->trim();
        self::assertSame(3, $pool->size(), 'the period just ended needed three at once');
        self::assertSame([], $dropped);

        $held = $pool->borrow();
        self::assertSame($c, $held, 'the most recently returned instance is lent first');
        $pool->trim();
        self::assertSame(1, $pool->size(), 'a quiet period needed one: the one lent out stays');
        self::assertSame([$a, $b], $dropped, 'the least recently used go first');
        self::assertSame(1, $pool->busy());
        $pool->release($held);
        $pool->trim();
        self::assertSame(1, $pool->size(), 'never below what the pool keeps');
    }

    public function testAQuietPoolShrinksOnItsIdleTimer(): void
    {
        $pool = new InstancePool(static fn (): \stdClass => new \stdClass(), 10, keep: 1, idleTimeout: 0.05);
        $held = [];
        for ($i = 0; $i < 4; ++$i) {
            $held[] = $pool->borrow();
        }
        foreach ($held as $instance) {
            $pool->release($instance);
        }
        $held = [];
        self::assertSame(4, $pool->size());
        // The unreferenced trim timer does not keep the loop alive: something else must.
        EventLoop::delay(1.0, static fn () => null);
        EventLoop::run();
        self::assertSame(1, $pool->size());
        self::assertSame(1, $pool->idle());
    }

    public function testARequestCancelledWhileWaitingEndsItsWaitAndLosesNoInstance(): void
    {
        $pool = new InstancePool(static fn (): \stdClass => new \stdClass(), 1);
        $held = $pool->borrow();
        $runner = new TaskRunner(Loop::driver());
        $cancelled = new Context('cancelled');
        $outcome = [];
        $runner->run($cancelled, static function () use ($pool, &$outcome): void {
            try {
                $pool->borrow();
                $outcome[] = 'borrowed';
            } catch (\RuntimeException $e) {
                $outcome[] = $e->getMessage();
            }
        });
        $runner->run(new Context('next'), static function () use ($pool, $held, &$outcome): void {
            $instance = $pool->borrow();
            $outcome[] = $instance === $held ? 'next got the instance' : 'next got another instance';
            $pool->release($instance);
        });
        // Cancelled, and the instance given back, before the cancelled fiber runs again.
        $runner->cancel($cancelled, new TaskCancelled('timed out while waiting'));
        $pool->release($held);
        EventLoop::run();

        self::assertSame(['timed out while waiting', 'next got the instance'], $outcome);
        self::assertSame(0, $pool->busy());
        self::assertSame(1, $pool->size());
        self::assertSame(1, $pool->idle());
    }
}
