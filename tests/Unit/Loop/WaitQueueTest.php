<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Loop;

use PHPUnit\Framework\TestCase;
use Revolt\EventLoop;
use Spindle\Loop\Context;
use Spindle\Loop\Loop;
use Spindle\Loop\TaskCancelled;
use Spindle\Loop\TaskRunner;
use Spindle\Loop\WaitQueue;
use Spindle\Loop\WaitTimeout;

use function Spindle\delay;

final class WaitQueueTest extends TestCase
{
    public function testGrantsGoToWaitersInArrivalOrder(): void
    {
        /** @var WaitQueue<int> $queue */
        $queue = new WaitQueue();
        $got = [];
        foreach ([0, 1, 2, 3] as $i) {
            EventLoop::queue(static function () use ($queue, $i, &$got): void {
                $got[$i] = $queue->wait();
            });
        }
        EventLoop::queue(static function () use ($queue): void {
            foreach ([10, 11, 12, 13] as $value) {
                self::assertTrue($queue->grant($value));
            }
            self::assertFalse($queue->grant(99), 'nobody is left to take a fifth value');
        });
        EventLoop::run();

        self::assertSame([0 => 10, 1 => 11, 2 => 12, 3 => 13], $got);
        self::assertSame(0, $queue->count());
        self::assertSame(4, $queue->waits());
    }

    public function testTheDeadlineThrowsTheCallersExceptionAndLeavesTheQueue(): void
    {
        /** @var WaitQueue<string> $queue */
        $queue = new WaitQueue();
        $errors = [];
        EventLoop::queue(static function () use ($queue, &$errors): void {
            try {
                $queue->wait(0.01, static fn (): \Throwable => new \DomainException('no room'));
            } catch (\DomainException $e) {
                $errors[] = $e->getMessage();
            }
            try {
                $queue->wait(0.0);
            } catch (WaitTimeout $e) {
                $errors[] = $e::class;
            }
        });
        $before = EventLoop::getIdentifiers();
        EventLoop::run();

        self::assertSame(['no room', WaitTimeout::class], $errors);
        self::assertTrue($queue->isEmpty());
        self::assertFalse($queue->grant('late'), 'a timed-out waiter is no longer in the queue');
        self::assertSame($before, EventLoop::getIdentifiers(), 'no deadline timer is left behind');
    }

    public function testAGrantBeforeTheDeadlineCancelsTheTimer(): void
    {
        /** @var WaitQueue<string> $queue */
        $queue = new WaitQueue();
        $got = null;
        EventLoop::queue(static function () use ($queue, &$got): void {
            $got = $queue->wait(30.0);
        });
        EventLoop::queue(static fn () => $queue->grant('now'));
        $before = EventLoop::getIdentifiers();
        EventLoop::run(); // would run 30 s if the timer stayed

        self::assertSame('now', $got);
        self::assertSame($before, EventLoop::getIdentifiers());
    }

    public function testACancelledTaskLeavesTheQueueAndTheNextWaiterGetsTheGrant(): void
    {
        /** @var WaitQueue<string> $queue */
        $queue = new WaitQueue();
        $runner = new TaskRunner(Loop::driver());
        $first = new Context('first');
        $outcome = [];
        $runner->run($first, static function () use ($queue, &$outcome): void {
            try {
                $outcome['first'] = $queue->wait();
            } catch (\RuntimeException $e) {
                $outcome['first'] = 'cancelled: ' . $e->getMessage();
            }
        });
        $runner->run(new Context('second'), static function () use ($queue, &$outcome): void {
            $outcome['second'] = $queue->wait();
        });
        self::assertSame(2, $queue->count());

        self::assertTrue($runner->cancel($first, new TaskCancelled('request timed out')));
        EventLoop::run();
        self::assertSame(1, $queue->count(), 'the cancelled waiter left the queue');

        self::assertTrue($queue->grant('connection'));
        EventLoop::run();
        self::assertSame(['first' => 'cancelled: request timed out', 'second' => 'connection'], $outcome);
        self::assertTrue($queue->isEmpty());
    }

    public function testAValueGrantedToAWaiterCancelledBeforeItRanIsHandedToUnclaimed(): void
    {
        $unclaimed = [];
        /** @var WaitQueue<string> $queue */
        $queue = new WaitQueue();
        $runner = new TaskRunner(Loop::driver());
        $context = new Context('waiter');
        $outcome = null;
        $runner->run($context, static function () use ($queue, &$outcome, &$unclaimed): void {
            try {
                $outcome = $queue->wait(unclaimed: static function (string $value) use (&$unclaimed): void {
                    $unclaimed[] = $value;
                });
            } catch (\RuntimeException $e) {
                $outcome = $e->getMessage();
            }
        });
        // The cancellation reaches the fiber first; the grant, made before the fiber runs, is stale.
        $runner->cancel($context, new TaskCancelled('cancelled'));
        self::assertTrue($queue->grant('instance'));
        EventLoop::run();

        self::assertSame('cancelled', $outcome);
        self::assertSame(['instance'], $unclaimed, 'the grant is not lost');
        self::assertTrue($queue->isEmpty());
    }

    public function testGrantWhereServesTheFirstWaiterWithAMatchingTag(): void
    {
        /** @var WaitQueue<string> $queue */
        $queue = new WaitQueue();
        $got = [];
        foreach (['a', 'b', 'a'] as $i => $tag) {
            EventLoop::queue(static function () use ($queue, $i, $tag, &$got): void {
                $got[$i] = $queue->wait(tag: $tag);
            });
        }
        EventLoop::queue(static function () use ($queue): void {
            self::assertTrue($queue->grantWhere(static fn (mixed $tag): bool => $tag === 'a', 'for a'));
            self::assertFalse($queue->grantWhere(static fn (mixed $tag): bool => $tag === 'c', 'for c'));
            self::assertTrue($queue->grant('any'));
            self::assertTrue($queue->grantWhere(static fn (mixed $tag): bool => $tag === 'a', 'for a again'));
        });
        EventLoop::run();

        self::assertSame([0 => 'for a', 1 => 'any', 2 => 'for a again'], $got);
    }

    public function testFailAllThrowsIntoEveryWaiter(): void
    {
        /** @var WaitQueue<string> $queue */
        $queue = new WaitQueue();
        $errors = [];
        for ($i = 0; $i < 3; ++$i) {
            EventLoop::queue(static function () use ($queue, &$errors): void {
                try {
                    $queue->wait(10.0);
                } catch (\LogicException $e) {
                    $errors[] = $e->getMessage();
                }
            });
        }
        EventLoop::queue(static fn () => $queue->failAll(new \LogicException('closed')));
        $before = EventLoop::getIdentifiers();
        EventLoop::run();

        self::assertSame(['closed', 'closed', 'closed'], $errors);
        self::assertTrue($queue->isEmpty());
        self::assertSame($before, EventLoop::getIdentifiers());
    }

    public function testManyWaitsEndingEveryWayLeaveNoWaiterBehind(): void
    {
        /** @var WaitQueue<int> $queue */
        $queue = new WaitQueue();
        $runner = new TaskRunner(Loop::driver());
        $contexts = [];
        $ended = 0;
        for ($i = 0; $i < 300; ++$i) {
            $contexts[$i] = new Context('w' . $i);
            $runner->run($contexts[$i], static function () use ($queue, $i, &$ended): void {
                try {
                    $queue->wait($i % 3 === 0 ? 0.001 : 10.0);
                } catch (\Throwable) {
                }
                ++$ended;
            });
        }
        for ($i = 1; $i < 300; $i += 3) {
            $runner->cancel($contexts[$i], new TaskCancelled('cancelled'));
        }
        EventLoop::queue(static function () use ($queue): void {
            delay(0.05);
            $i = 0;
            while ($queue->grant($i++));
        });
        EventLoop::run();

        self::assertSame(300, $ended);
        self::assertTrue($queue->isEmpty());
        $waiters = (new \ReflectionProperty(WaitQueue::class, 'waiters'))->getValue($queue);
        self::assertSame([], $waiters);
    }

    public function testAnOwnerOfAQueueIsFreedWithoutTheCycleCollector(): void
    {
        $owner = new WaitQueueOwner();
        $weak = \WeakReference::create($owner);
        EventLoop::queue(static function () use ($owner): void {
            try {
                $owner->queue->wait(0.001, unclaimed: $owner->giveBack(...));
            } catch (WaitTimeout) {
            }
        });
        EventLoop::run();
        $enabled = gc_enabled();
        gc_disable();
        try {
            unset($owner);
            self::assertNull($weak->get(), 'the queue holds nothing of its owner after the wait: no reference cycle');
        } finally {
            if ($enabled) {
                gc_enable();
            }
        }
    }
}

/** An owner of a queue, as a pool is. */
final class WaitQueueOwner
{
    /** @var WaitQueue<string> */
    public readonly WaitQueue $queue;

    public function __construct()
    {
        $this->queue = new WaitQueue();
    }

    public function giveBack(string $value): void
    {
    }
}
