<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Server;

use PHPUnit\Framework\TestCase;
use Revolt\EventLoop;
use Spindle\Loop\Context;
use Spindle\Loop\Loop;
use Spindle\Loop\TaskRunner;
use Spindle\Server\RequestTimedOut;

use function Spindle\delay;

/** Cancelling a task (what the request timeout does), at the loop level. */
final class TaskCancellationTest extends TestCase
{
    public function testAWaitingTaskGetsTheCancellationWhereItWaits(): void
    {
        $runner = new TaskRunner(Loop::driver());
        $context = new Context('GET /wait');
        $log = [];
        $runner->run($context, static function () use (&$log): void {
            try {
                delay(5);
                $log[] = 'woke';
            } catch (RequestTimedOut $e) {
                $log[] = $e->getMessage();
            }
        });
        $thrown = null;
        EventLoop::delay(0.01, static function () use ($runner, $context, &$thrown): void {
            $thrown = $runner->cancel($context, new RequestTimedOut('timed out'));
        });
        $started = \microtime(true);
        EventLoop::run();

        self::assertTrue($thrown);
        self::assertSame(['timed out'], $log);
        self::assertTrue($context->isCancelled());
        self::assertLessThan(1.0, \microtime(true) - $started);
    }

    public function testATaskWokenButNotYetRunningGetsItAtItsNextWait(): void
    {
        $runner = new TaskRunner(Loop::driver());
        $context = new Context('GET /woken');
        $log = [];
        $suspension = null;
        $runner->run($context, static function () use (&$log, &$suspension): void {
            $suspension = EventLoop::getSuspension();
            $log[] = 'got ' . $suspension->suspend();
            try {
                delay(0.01);
                $log[] = 'second wait finished';
            } catch (RequestTimedOut) {
                $log[] = 'cancelled at the second wait';
            }
            delay(0.01);
            $log[] = 'third wait is normal: the cancellation is thrown once';
        });
        EventLoop::queue(static function () use ($runner, $context, &$suspension, &$log): void {
            \assert($suspension !== null);
            $suspension->resume('value');
            $log[] = 'thrown now: ' . \var_export($runner->cancel($context, new RequestTimedOut('late')), true);
        });
        EventLoop::run();

        self::assertSame([
            'thrown now: false',
            'got value',
            'cancelled at the second wait',
            'third wait is normal: the cancellation is thrown once',
        ], $log);
    }

    public function testAShieldedWaitIsNotInterrupted(): void
    {
        $runner = new TaskRunner(Loop::driver());
        $context = new Context('GET /shielded');
        $log = [];
        $runner->run($context, static function () use ($context, &$log): void {
            $context->shield(static fn () => delay(0.05));
            $log[] = 'shielded wait finished';
            $log[] = \get_debug_type($context->takeCancellation());
            $log[] = \get_debug_type($context->takeCancellation());
        });
        EventLoop::delay(0.01, static function () use ($runner, $context, &$log): void {
            $log[] = 'thrown now: ' . \var_export($runner->cancel($context, new RequestTimedOut('x')), true);
        });
        EventLoop::run();

        self::assertSame(['thrown now: false', 'shielded wait finished', RequestTimedOut::class, 'null'], $log);
    }

    public function testTasksThatAreNotCancelledWaitAsBefore(): void
    {
        $runner = new TaskRunner(Loop::driver());
        $cancelled = new Context('GET /a');
        $other = new Context('GET /b');
        $log = [];
        foreach ([$cancelled, $other] as $context) {
            $runner->run($context, static function () use ($context, &$log): void {
                try {
                    delay(0.05);
                    $log[] = $context->label . ' finished';
                } catch (RequestTimedOut) {
                    $log[] = $context->label . ' cancelled';
                }
            });
        }
        EventLoop::delay(0.01, static function () use ($runner, $cancelled): void {
            $runner->cancel($cancelled, new RequestTimedOut('x'));
        });
        EventLoop::run();

        self::assertSame(['GET /a cancelled', 'GET /b finished'], $log);
        self::assertFalse($other->isCancelled());
    }
}
