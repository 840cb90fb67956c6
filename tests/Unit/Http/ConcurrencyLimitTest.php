<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Http;

use PHPUnit\Framework\TestCase;
use Revolt\EventLoop;
use Spindle\Http\ConcurrencyLimit;
use Spindle\Loop\Context;
use Spindle\Loop\Loop;
use Spindle\Loop\TaskCancelled;
use Spindle\Loop\TaskRunner;

use function Spindle\delay;

final class ConcurrencyLimitTest extends TestCase
{
    public function testAtMostMaxRunAtOnceAndTheRestWaitInOrder(): void
    {
        $limit = new ConcurrencyLimit(2);
        $runner = new TaskRunner(Loop::driver());
        $peak = 0;
        $order = [];
        for ($i = 0; $i < 6; ++$i) {
            $runner->run(new Context('t' . $i), static function () use ($limit, &$peak, &$order, $i): void {
                $limit->acquire();
                try {
                    $peak = \max($peak, $limit->running());
                    $order[] = $i;
                    delay(0.01);
                } finally {
                    $limit->release();
                }
            });
        }
        EventLoop::run();

        self::assertSame(2, $peak);
        self::assertSame([0, 1, 2, 3, 4, 5], $order);
        self::assertSame(0, $limit->running());
    }

    public function testARequestCancelledWhileWaitingLeavesNoSlotBehind(): void
    {
        $limit = new ConcurrencyLimit(1);
        $runner = new TaskRunner(Loop::driver());
        $holder = new Context('holder');
        $waiter = new Context('waiter');
        $ran = [];
        $runner->run($holder, static function () use ($limit, &$ran): void {
            $limit->acquire();
            delay(0.01);
            $limit->release();
            $ran[] = 'holder';
        });
        $runner->run($waiter, static function () use ($limit, &$ran): void {
            try {
                $limit->acquire();
                $limit->release();
                $ran[] = 'waiter';
            } catch (\RuntimeException) {
                $ran[] = 'waiter cancelled';
            }
        });
        $runner->cancel($waiter, new TaskCancelled('timed out'));
        EventLoop::run();

        self::assertSame(['waiter cancelled', 'holder'], $ran);
        self::assertSame(0, $limit->running(), 'the slot of the cancelled request is not lost');
        self::assertTrue($limit->tryAcquire());
    }
}
