<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Server;

use PHPUnit\Framework\TestCase;
use Revolt\EventLoop;
use Spindle\Loop\Context;
use Spindle\Loop\Loop;
use Spindle\Loop\TaskRunner;
use Spindle\Server\ConcurrencyLimit;

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
}
