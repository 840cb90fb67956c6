<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\HttpClient;

use PHPUnit\Framework\TestCase;
use Revolt\EventLoop;
use Spindle\HttpClient\Transfer;

use function Spindle\delay;

/** Transfer::cancel(): before the work starts, while it waits, while it runs, after it ended. */
final class TransferTest extends TestCase
{
    public function testAWorkCancelledBeforeItStartsNeverRuns(): void
    {
        $ran = false;
        $ended = null;
        $transfer = Transfer::start(static function () use (&$ran): string {
            $ran = true;

            return 'done';
        }, static function (?string $result, ?\Throwable $error) use (&$ended): void {
            $ended = [$result, $error?->getMessage()];
        });
        $transfer->cancel(new \RuntimeException('cancelled'));
        $this->expectExceptionMessage('cancelled');
        try {
            $transfer->await();
        } finally {
            self::assertFalse($ran);
            self::assertSame([null, 'cancelled'], $ended);
        }
    }

    public function testAWaitingWorkGetsTheCancellationWhereItWaitsAndLeavesNoTimerBehind(): void
    {
        $log = [];
        $transfer = Transfer::start(static function () use (&$log): string {
            try {
                delay(10);
            } catch (\RuntimeException $e) {
                $log[] = 'interrupted: ' . $e->getMessage();

                throw $e;
            }

            return 'late';
        });
        EventLoop::delay(0.01, static fn () => $transfer->cancel(new \RuntimeException('stop')));
        $started = \microtime(true);
        try {
            $transfer->await();
            self::fail('the work was cancelled');
        } catch (\RuntimeException $e) {
            self::assertSame('stop', $e->getMessage());
        }
        self::assertSame(['interrupted: stop'], $log);
        self::assertLessThan(5, \microtime(true) - $started);
        self::assertTrue($transfer->isDone());
    }

    public function testAWorkThatCancelsItselfIsInterruptedAtItsNextWait(): void
    {
        $transfer = null;
        $log = [];
        $transfer = Transfer::start(static function () use (&$transfer, &$log): void {
            $transfer?->cancel(new \RuntimeException('from inside'));
            $log[] = 'still running';
            delay(10);
            $log[] = 'not reached';
        });
        try {
            $transfer->await();
            self::fail('the work was cancelled');
        } catch (\RuntimeException $e) {
            self::assertSame('from inside', $e->getMessage());
        }
        self::assertSame(['still running'], $log);
    }

    public function testCancellingAFinishedWorkChangesNothing(): void
    {
        $transfer = Transfer::start(static fn (): string => 'done');
        self::assertSame('done', $transfer->await());
        $transfer->cancel(new \RuntimeException('too late'));
        self::assertSame('done', $transfer->await());
    }
}
