<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Loop;

use PHPUnit\Framework\TestCase;
use Revolt\EventLoop;
use Spindle\Loop\Context;
use Spindle\Loop\Loop;
use Spindle\Loop\TaskCancelled;
use Spindle\Loop\TaskRunner;

use function Spindle\context;
use function Spindle\delay;

final class ContextTest extends TestCase
{
    public function testEachTaskSeesItsOwnContextAcrossSuspensions(): void
    {
        $runner = new TaskRunner(Loop::driver());
        $seen = [];
        foreach (['a', 'b', 'c'] as $i => $name) {
            $context = new Context('GET /' . $name);
            $context->set('name', $name);
            $runner->run($context, static function () use (&$seen, $i): void {
                $before = context()?->get('name');
                delay(0.01 * (3 - $i));
                $seen[] = [$before, context()?->get('name')];
            });
        }
        EventLoop::run();

        self::assertSame([['c', 'c'], ['b', 'b'], ['a', 'a']], $seen, 'tasks resumed in delay order, each with its own context');
        self::assertNull(context(), 'no context outside a task');
    }

    public function testResumeHooksRunEachTimeTheTaskIsResumed(): void
    {
        $runner = new TaskRunner(Loop::driver());
        $global = null;
        $log = [];
        foreach (['first', 'second'] as $name) {
            $context = new Context($name);
            // A bridge would restore its app instance's globals here.
            $context->onResume(static function () use (&$global, $name): void {
                $global = $name;
            });
            $runner->run($context, static function () use (&$global, &$log, $name): void {
                $global = $name;
                delay(0.01);
                $log[] = [$name, $global];
                delay(0.01);
                $log[] = [$name, $global];
            });
        }
        EventLoop::run();

        self::assertSame([['first', 'first'], ['second', 'second'], ['first', 'first'], ['second', 'second']], $log);
    }

    public function testDelaySuspendsOnlyTheCallingTask(): void
    {
        $runner = new TaskRunner(Loop::driver());
        $start = \microtime(true);
        $done = [];
        for ($i = 0; $i < 50; ++$i) {
            $runner->run(new Context('t' . $i), static function () use (&$done, $i): void {
                delay(0.1);
                $done[] = $i;
            });
        }
        EventLoop::run();
        $elapsed = \microtime(true) - $start;

        self::assertCount(50, $done);
        self::assertLessThan(2.5, $elapsed, '50 tasks sleeping 0.1 s each overlap (one after another: 5 s)');
    }

    public function testDelayOutsideAFiberRunsTheLoop(): void
    {
        $ticked = false;
        EventLoop::delay(0.01, static function () use (&$ticked): void {
            $ticked = true;
        });
        delay(0.05);
        self::assertTrue($ticked);
    }

    public function testEndHooksRunWhenTheRequestEndsAndAChildsAreItsRequests(): void
    {
        $runner = new TaskRunner(Loop::driver());
        $log = [];
        $request = new Context('GET /end');
        $runner->run($request, static function () use ($request, &$log): void {
            $request->onEnd(static function () use (&$log): void {
                $log[] = 'request hook';
            });
            $request->onEnd(static fn () => throw new \RuntimeException('ignored'));
            $child = $request->child('GET /end (task 0)');
            Loop::startChild($child, static function () use ($child, &$log): void {
                $child->onEnd(static function () use (&$log): void {
                    $log[] = 'child hook';
                });
            });
            $log[] = 'child ended';
            delay(0.01);
            $log[] = 'request ends';
        });
        EventLoop::run();

        self::assertSame(['child ended', 'request ends', 'request hook', 'child hook'], $log, 'a child\'s hooks run when its request ends; one that throws does not stop the next');
    }

    public function testFinishedTasksLeaveNoContextBehindAndFibersAreReused(): void
    {
        $runner = new TaskRunner(Loop::driver());
        $fibers = [];
        for ($i = 0; $i < 3; ++$i) {
            $runner->run(new Context('t'), static function () use (&$fibers): void {
                $fibers[] = \spl_object_id(\Fiber::getCurrent() ?? throw new \LogicException());
            });
        }
        self::assertCount(1, \array_unique($fibers), 'a finished fiber takes the next task');
        self::assertNull(context());
    }

    public function testTasksThatRunTooLongAreReportedByName(): void
    {
        $driver = Loop::driver();
        $reports = [];
        $driver->watchBlocking(0.05, static function (Context $context, float $seconds) use (&$reports): void {
            $reports[] = [$context->label, $seconds];
        });
        try {
            $runner = new TaskRunner($driver);
            $runner->run(new Context('GET /fast'), static function (): void {
                delay(0.01);
            });
            $runner->run(new Context('GET /slow'), static function (): void {
                delay(0.01);
                \usleep(80000); // blocks the loop
            });
            EventLoop::run();
        } finally {
            $driver->watchBlocking(3600.0, static fn () => null);
        }

        self::assertCount(1, $reports);
        self::assertSame('GET /slow', $reports[0][0]);
        self::assertGreaterThanOrEqual(0.08, $reports[0][1]);
    }

    public function testAChildTaskIsCancelledWhereItWaitsWithTheLoopsCancellationType(): void
    {
        $runner = new TaskRunner(Loop::driver());
        $log = [];
        $runner->run(new Context('request'), static function () use (&$log): void {
            $child = new Context('child');
            Loop::startChild($child, static function () use (&$log): void {
                try {
                    delay(5);
                    $log[] = 'child slept';
                } catch (TaskCancelled $e) {
                    $log[] = 'child: ' . $e->getMessage() . ($e::class === TaskCancelled::class ? '' : ' (a subclass)');
                }
            });
            $gone = new class('gone') extends TaskCancelled {
            };
            $log[] = 'request: child started, thrown now: ' . \var_export(Loop::cancel($child, $gone), true);
            $log[] = 'request: cancelled again, thrown now: ' . \var_export(Loop::cancel($child, new TaskCancelled('again')), true);
        });
        EventLoop::run();

        self::assertSame([
            'request: child started, thrown now: true',
            'request: cancelled again, thrown now: false',
            'child: gone (a subclass)',
        ], $log, 'the cancellation goes in where the child waits, once');
    }

    public function testChildTasksReuseFinishedFibersAndLeaveNoContextBehind(): void
    {
        $runner = new TaskRunner(Loop::driver());
        $seen = [];
        $runner->run(new Context('request'), static function () use (&$seen): void {
            for ($i = 0; $i < 3; ++$i) {
                Loop::startChild(new Context('child ' . $i), static function () use (&$seen): void {
                    $seen[] = [Loop::context()?->label, \spl_object_id(\Fiber::getCurrent() ?? throw new \LogicException('no fiber'))];
                });
            }
            $seen[] = [Loop::context()?->label, null];
        });
        EventLoop::run();

        self::assertSame(['child 0', 'child 1', 'child 2', 'request'], \array_column($seen, 0));
        self::assertSame($seen[0][1], $seen[1][1], 'a child that ended leaves its fiber to the next');
        self::assertNull(Loop::context());
    }

    public function testWorkAfterTheResponseRunsOnceInOrderPastAFailingStep(): void
    {
        $request = new Context('GET /');
        $child = $request->child('GET / (task 0)');
        $log = [];
        $request->defer(static function () use (&$log): void {
            $log[] = 'first';
        });
        $request->defer(static function (): void {
            throw new \RuntimeException('second failed');
        });
        $child->defer(static function () use (&$log): void {
            $log[] = 'from the child';
        });
        $failed = static function (Context $context, \Throwable $e) use (&$log): void {
            $log[] = $context->label . ': ' . $e->getMessage();
        };
        $request->runDeferred($failed);
        $request->runDeferred($failed);

        self::assertSame(['first', 'GET /: second failed', 'from the child'], $log, 'a child hands its work to its request; all of it runs once');
    }
}
