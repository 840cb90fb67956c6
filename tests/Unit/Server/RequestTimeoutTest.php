<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Server;

use PHPUnit\Framework\TestCase;
use Revolt\EventLoop;
use Spindle\Http\Request;
use Spindle\Http\Response;
use Spindle\Server\RequestTimedOut;
use Spindle\Server\ServerOptions;

use function Spindle\delay;

/**
 * --request-timeout in the worker: a request that waits too long gets a 504 and its fiber is
 * cancelled. Timeouts fire within 50 ms of their deadline (the connections' timeout wheel).
 */
final class RequestTimeoutTest extends TestCase
{
    public function testAWaitingRequestGets504AndItsFiberIsCancelled(): void
    {
        $events = [];
        $app = static function (Request $request) use (&$events): string {
            if ($request->path === '/slow') {
                try {
                    delay(5);
                    $events[] = 'slow finished';
                } catch (RequestTimedOut $e) {
                    $events[] = 'cancelled: ' . $e->getMessage();

                    throw $e;
                } finally {
                    $events[] = 'finally';
                }

                return 'too late';
            }

            return 'fast';
        };
        $slow = $closed = $fast = null;
        $elapsed = 0.0;
        $worker = InProcessWorker::run(new ServerOptions('app.php', requestTimeout: 0.2), $app, static function (int $port) use (&$slow, &$closed, &$fast, &$elapsed): void {
            $client = LoopClient::connect($port);
            $started = \microtime(true);
            // A pipelined second request: dropped with the connection.
            $client->send("GET /slow HTTP/1.1\r\nHost: t\r\n\r\nGET /fast HTTP/1.1\r\nHost: t\r\n\r\n");
            $slow = $client->readResponse(2.0);
            $elapsed = \microtime(true) - $started;
            $closed = $client->waitForClose(1.0) && $client->buffered() === '';
            $other = LoopClient::connect($port);
            $other->get('/fast');
            $fast = $other->readResponse();
        });

        self::assertNotNull($slow);
        self::assertSame(504, $slow->status);
        self::assertSame('Gateway Timeout' . "\n", $slow->body);
        self::assertStringStartsWith('text/plain', $slow->headers['content-type'] ?? '');
        self::assertSame('close', $slow->headers['connection'] ?? null);
        // A request's start is read from the connections' coarse clock (Http\Clock, advanced
        // by the server's sweep every 50 ms), so the 504 may come up to one sweep early.
        self::assertGreaterThanOrEqual(0.15, $elapsed);
        self::assertLessThan(1.0, $elapsed);
        self::assertTrue($closed, 'closed after the 504; the pipelined request is dropped');
        self::assertSame(200, $fast?->status, 'the worker serves on');
        self::assertSame('fast', $fast->body);
        self::assertCount(2, $events);
        self::assertStringStartsWith('cancelled: GET /slow timed out after 0.', $events[0]);
        self::assertSame('finally', $events[1]);
        $warnings = $worker->logger->messages('warning');
        self::assertCount(2, $warnings, \implode("\n", $warnings));
        self::assertMatchesRegularExpression('~^GET /slow timed out after 0\.\d{3} s; answered 504 Gateway Timeout$~', $warnings[0]);
        self::assertSame('The master process is gone: stopping', $warnings[1]);
        self::assertSame([], $worker->logger->messages('error'), 'a cancelled request is not an application error');
    }

    public function testALateResumeOfTheCancelledWaitIsHarmless(): void
    {
        $events = [];
        $resumedLate = new Awaited('the late resume');
        $app = static function (Request $request) use (&$events, $resumedLate): string {
            if ($request->path !== '/stale') {
                return 'fast';
            }
            // Whoever was to wake this request still does so, after it was cancelled.
            $suspension = EventLoop::getSuspension();
            EventLoop::delay(0.9, static function () use ($suspension, &$events, $resumedLate): void {
                $suspension->resume('late');
                $events[] = 'resumed late';
                $resumedLate->happen();
            });
            try {
                $events[] = 'got ' . $suspension->suspend();
            } catch (RequestTimedOut) {
                $events[] = 'cancelled';
                // A task may wait again after its cancellation (cleanup, say): it waits normally.
                delay(0.01);
                $events[] = 'waited after cancellation';
            }

            return 'too late';
        };
        $statuses = [];
        InProcessWorker::run(new ServerOptions('app.php', requestTimeout: 0.2), $app, static function (int $port) use (&$statuses, $resumedLate): void {
            $client = LoopClient::connect($port);
            $client->get('/stale');
            $statuses[] = $client->readResponse()?->status;
            $resumedLate->wait();
            $other = LoopClient::connect($port);
            $other->get('/fast');
            $statuses[] = $other->readResponse()?->status;
        });

        self::assertSame([504, 200], $statuses);
        self::assertSame(['cancelled', 'waited after cancellation', 'resumed late'], $events);
    }

    public function testAStreamedResponseOutlivesTheRequestTimeoutWhichCoversProducingIt(): void
    {
        // Server-sent events and long downloads: once the handler has produced its response, the
        // request timeout is over; the stream goes on as long as the app and the client keep it.
        $events = [];
        $app = static function () use (&$events): Response {
            return new Response(200, ['Content-Type' => 'text/plain'], (static function () use (&$events): \Generator {
                try {
                    yield "first\n";
                    delay(0.5);
                    yield "second\n";
                } finally {
                    $events[] = 'finally';
                }
            })());
        };
        $head = $chunks = null;
        $worker = InProcessWorker::run(new ServerOptions('app.php', requestTimeout: 0.2), $app, static function (int $port) use (&$head, &$chunks): void {
            $client = LoopClient::connect($port);
            $client->get('/events');
            $head = $client->readResponse();
            $chunks = [$client->readChunk(), $client->readChunk(), $client->readChunk()];
        });

        self::assertSame(200, $head?->status);
        self::assertSame(["first\n", "second\n", ''], $chunks, 'every piece, then the terminating chunk');
        self::assertSame(['finally'], $events);
        self::assertSame([], \array_values(\array_filter($worker->logger->messages('warning'), static fn (string $line): bool => \str_contains($line, 'timed out'))));
        self::assertSame([], $worker->logger->messages('error'));
    }

    public function testARequestWaitingForAConcurrencySlotTimesOutWithoutLosingTheSlot(): void
    {
        $ran = [];
        $holding = new Awaited('/hold to start');
        $app = static function (Request $request) use (&$ran, $holding): string {
            $ran[] = $request->path;
            if ($request->path === '/hold') {
                $holding->happen();
                // Answered 504 at its timeout, but it keeps its slot until 0.6 s (the wait is
                // shielded from the cancellation): the queued request times out still waiting.
                \Spindle\context()?->shield(static fn () => delay(0.6));
            }

            return 'ok';
        };
        $statuses = [];
        InProcessWorker::run(new ServerOptions('app.php', concurrency: 1, requestTimeout: 0.3), $app, static function (int $port) use (&$statuses, $holding): void {
            $holder = LoopClient::connect($port);
            $holder->get('/hold');
            // /queued arrives while /hold has the only slot.
            $holding->wait();
            $waiter = LoopClient::connect($port);
            $waiter->get('/queued');
            $statuses[] = $holder->readResponse()?->status;
            $statuses[] = $waiter->readResponse()?->status;
            // Had the cancelled waiter kept the slot it was handed, this one would wait forever.
            $after = LoopClient::connect($port);
            $after->get('/after');
            $statuses[] = $after->readResponse()?->status;
        });

        self::assertSame([504, 504, 200], $statuses);
        self::assertSame(['/hold', '/after'], $ran, 'the timed-out waiter never reached the app');
    }

    public function testARequestThatHoldsTheLoopIsNotInterruptedByTheWorker(): void
    {
        // Nothing in the worker runs while a request computes without yielding: it finishes and
        // is answered. Ending such a worker is the master's job (its reports stop coming).
        $app = static function (): string {
            $until = \microtime(true) + 0.8;
            while (\microtime(true) < $until) {
                // Holds the loop past the timeout and past a sweep.
            }

            return 'computed';
        };
        $response = null;
        $worker = InProcessWorker::run(new ServerOptions('app.php', requestTimeout: 0.2), $app, static function (int $port) use (&$response): void {
            $client = LoopClient::connect($port);
            $client->get('/spin');
            $response = $client->readResponse();
        });

        self::assertSame(200, $response?->status);
        self::assertSame('computed', $response->body);
        foreach ($worker->logger->messages('warning') as $warning) {
            self::assertStringNotContainsString('timed out', $warning);
        }
    }

    public function testNoTimeoutWhenDisabled(): void
    {
        $app = static function (): string {
            delay(0.8);

            return 'slow but fine';
        };
        $response = null;
        InProcessWorker::run(new ServerOptions('app.php', requestTimeout: 0.0), $app, static function (int $port) use (&$response): void {
            $client = LoopClient::connect($port);
            $client->get('/slow');
            $response = $client->readResponse();
        });

        self::assertSame(200, $response?->status);
    }
}
