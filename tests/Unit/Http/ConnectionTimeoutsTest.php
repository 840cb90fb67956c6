<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Http;

use PHPUnit\Framework\TestCase;
use Psr\Log\NullLogger;
use Revolt\EventLoop;
use Spindle\Http\Clock;
use Spindle\Http\ConcurrencyLimit;
use Spindle\Http\Http1\Http1Connection;
use Spindle\Http\Peer;
use Spindle\Http\ConnectionServices;
use Spindle\Http\HttpLimits;
use Spindle\Http\Request;
use Spindle\Http\RequestRunner;
use Spindle\Http\Response;
use Spindle\Http\ResponseSerializer;
use Spindle\Http\TimeoutWheel;
use Spindle\Loop\Loop;
use Spindle\Loop\TaskRunner;
use Spindle\Http\ClosureHandler;

/**
 * The connection timeouts on a manual clock: each fires once its limit has passed by at most one
 * slot of the timeout wheel (50 ms), and not before; the request timeout (the RequestRunner's)
 * too. No test waits for a timeout in real time.
 */
final class ConnectionTimeoutsTest extends TestCase
{
    private const START = 1_000_000.0;

    private Clock $clock;
    private TimeoutWheel $wheel;
    private ConnectionServices $set;
    private RequestRunner $runner;
    /** @var resource */
    private $client;
    private ?Http1Connection $connection = null;
    /** @var \Revolt\EventLoop\Suspension<mixed>|null the request to /hold, until the test resumes it */
    private ?EventLoop\Suspension $held = null;

    protected function setUp(): void
    {
        $this->start(new HttpLimits(headerTimeout: 10.0, bodyTimeout: 20.0, keepAliveTimeout: 5.0, bodyMinRate: 0));
    }

    /** A connection with $limits, in place of the one setUp() made. */
    private function start(HttpLimits $limits): void
    {
        if ($this->connection !== null) {
            $this->tearDown();
            $this->connection = null;
        }
        $this->clock = new Clock(self::START);
        $this->wheel = new TimeoutWheel(self::START);
        $held = &$this->held;
        $handler = static function (Request $request) use (&$held): Response {
            if ($request->path === '/slow') {
                EventLoop::getSuspension()->suspend();
            }
            if ($request->path === '/hold') {
                $held = EventLoop::getSuspension();
                $held->suspend();
            }

            return new Response(200, ['Content-Type' => 'text/plain'], 'ok');
        };
        $this->runner = new RequestRunner(new ClosureHandler($handler), new TaskRunner(Loop::driver()), new NullLogger(), $this->clock, new ConcurrencyLimit(10), requestTimeout: 3.0);
        $this->set = new ConnectionServices($this->runner, $limits, new NullLogger(), $this->clock, new ResponseSerializer(), \sys_get_temp_dir(), false, $this->wheel);
        [$client, $server] = \stream_socket_pair(\STREAM_PF_UNIX, \STREAM_SOCK_STREAM, 0);
        \stream_set_blocking($client, false);
        \stream_set_blocking($server, false);
        $this->client = $client;
        $this->connection = new Http1Connection($server, $this->set, new IgnoredConnectionEvents(), new Peer('127.0.0.1', 50000, '127.0.0.1', 80));
    }

    protected function tearDown(): void
    {
        $this->connection?->close();
        \fclose($this->client);
    }

    /** Sends $bytes and lets the connection read them. */
    private function send(string $bytes): void
    {
        \fwrite($this->client, $bytes);
        $this->turn();
    }

    /** One short turn of the loop for the connection's callbacks (the clock stays where it is). */
    private function turn(): void
    {
        EventLoop::delay(0.005, static fn () => EventLoop::getDriver()->stop());
        EventLoop::run();
    }

    /** Moves the clock $seconds past the start and lets the wheel and the runner expire what is due. */
    private function advanceTo(float $seconds): void
    {
        $this->clock->now = self::START + $seconds;
        $this->wheel->expire($this->clock->now);
        $this->runner->expire($this->clock->now);
        $this->turn();
    }

    private function received(): string
    {
        return (string) \fread($this->client, 65536);
    }

    private function closedByServer(): bool
    {
        $this->received();

        return \feof($this->client);
    }

    public function testARequestHeadGets408OnceTheHeaderTimeoutHasPassed(): void
    {
        $this->send("GET / HTTP/1.1\r\nHost: a\r\n");
        $this->advanceTo(9.95);
        self::assertSame('', $this->received(), 'not before the limit');
        $this->advanceTo(10.06);
        self::assertStringStartsWith('HTTP/1.1 408 ', $this->received());
    }

    public function testASilentNewConnectionIsClosedAfterTheHeaderTimeout(): void
    {
        $this->advanceTo(9.95);
        self::assertFalse($this->closedByServer());
        $this->advanceTo(10.06);
        self::assertTrue($this->closedByServer());
    }

    public function testAnIdleKeepAliveConnectionIsClosedAfterTheKeepAliveTimeout(): void
    {
        $this->advanceTo(1.0);
        $this->send("GET / HTTP/1.1\r\nHost: a\r\n\r\n");
        self::assertStringEndsWith("\r\n\r\nok", $this->received());
        // Counted from the response (at 1.0), not from the connection's start.
        $this->advanceTo(5.95);
        self::assertFalse($this->closedByServer());
        $this->advanceTo(6.06);
        self::assertTrue($this->closedByServer());
    }

    public function testANewRequestHeadOnAKeepAliveConnectionHasTheHeaderTimeout(): void
    {
        $this->send("GET / HTTP/1.1\r\nHost: a\r\n\r\n");
        self::assertStringEndsWith('ok', $this->received());
        $this->advanceTo(4.0);
        $this->send("GET / HTTP/1.1\r\n");
        // Past the keep-alive limit of the idle connection, but a head is under way: 10 s from 4.0.
        $this->advanceTo(13.95);
        self::assertSame('', $this->received());
        $this->advanceTo(14.06);
        self::assertStringStartsWith('HTTP/1.1 408 ', $this->received());
    }

    public function testARequestBodyGets408OnceTheBodyTimeoutHasPassedSinceTheLastRead(): void
    {
        $this->send("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\n12345");
        $this->advanceTo(15.0);
        $this->send('678');
        $this->advanceTo(34.95);
        self::assertSame('', $this->received());
        $this->advanceTo(35.06);
        self::assertStringStartsWith('HTTP/1.1 408 ', $this->received());
    }

    public function testARequestGets504OnceTheRequestTimeoutHasPassed(): void
    {
        $this->send("GET /slow HTTP/1.1\r\nHost: a\r\n\r\n");
        $this->advanceTo(2.95);
        self::assertSame('', $this->received());
        $this->advanceTo(3.06);
        self::assertStringStartsWith('HTTP/1.1 504 ', $this->received());
    }

    public function testTheWheelHoldsOneSlotPerConnectionAndForgetsClosedOnes(): void
    {
        self::assertSame(1, $this->wheel->count());
        $this->send("GET / HTTP/1.1\r\nHost: a\r\n\r\n");
        $this->received();
        self::assertSame(1, $this->wheel->count());
        $this->connection?->close();
        self::assertSame(0, $this->wheel->count());
    }

    public function testABodyBehindTheMinimumRateGets408OnceItsGraceAndCreditAreSpent(): void
    {
        $this->start(new HttpLimits(bodyTimeout: 20.0, bodyMinRate: 100, bodyRateGrace: 5.0));
        $this->send("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1000\r\n\r\n" . \str_repeat('x', 50));
        // A byte a second: each read is well within the 20 s body timeout, but the body may take
        // only 5 s plus a second per 100 bytes, from its start.
        for ($t = 1; $t <= 5; ++$t) {
            $this->advanceTo((float) $t);
            $this->send('y');
        }
        // 55 bytes: 5.55 s.
        $this->advanceTo(5.5);
        self::assertSame('', $this->received(), 'not before the grace and the credit of its bytes');
        $this->advanceTo(5.61);
        $response = $this->received();
        self::assertStringStartsWith('HTTP/1.1 408 ', $response);
        self::assertStringContainsString('too slowly', $response);
        self::assertTrue($this->closedByServer());
    }

    public function testAChunkedBodyBehindTheMinimumRateGets408(): void
    {
        $this->start(new HttpLimits(bodyTimeout: 20.0, bodyMinRate: 100, bodyRateGrace: 2.0));
        $this->send("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n");
        $this->advanceTo(1.0);
        $this->send("1\r\ny\r\n");
        $this->advanceTo(1.95);
        self::assertSame('', $this->received());
        $this->advanceTo(2.1);
        self::assertStringStartsWith('HTTP/1.1 408 ', $this->received());
    }

    public function testABodyThatKeepsUpWithTheMinimumRateIsNotCut(): void
    {
        $this->start(new HttpLimits(bodyTimeout: 20.0, bodyMinRate: 100, bodyRateGrace: 1.0));
        $this->send("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 2000\r\n\r\n");
        // 150 bytes a second for 13 s: always ahead of 1 s + 1 s per 100 bytes.
        for ($t = 1; $t <= 13; ++$t) {
            $this->send(\str_repeat('z', 150));
            $this->advanceTo((float) $t);
            self::assertSame('', $this->received(), "cut at {$t} s");
        }
        $this->send(\str_repeat('z', 50));
        self::assertStringEndsWith("\r\n\r\nok", $this->received());
    }

    /**
     * At the connection cap, a connection whose body is behind the minimum rate may be closed to
     * make room (it counts as waiting since it fell behind); one that keeps up may not.
     */
    public function testABodyBehindTheMinimumRateCountsAsWaitingSinceItFellBehind(): void
    {
        $this->start(new HttpLimits(bodyTimeout: 20.0, bodyMinRate: 100, bodyRateGrace: 30.0));
        $connection = $this->connection;
        \assert($connection !== null);
        $this->send("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5000\r\n\r\n" . \str_repeat('x', 300));
        // 300 bytes are 3 s of the minimum rate: it keeps up until then.
        $this->advanceTo(2.0);
        self::assertNull($connection->waitingSince());
        $this->advanceTo(3.5);
        self::assertSame(self::START + 3.0, $connection->waitingSince());
    }

    /**
     * A body that arrives behind a running request (pipelined, or waiting for its "100
     * Continue") is not timed while that request runs: its timeouts count from the moment the
     * request before it is done.
     */
    public function testABodyBehindARunningRequestIsTimedFromWhenThatRequestIsDone(): void
    {
        $this->start(new HttpLimits(bodyTimeout: 4.0, bodyMinRate: 100, bodyRateGrace: 2.0));
        $this->send("GET /hold HTTP/1.1\r\nHost: a\r\n\r\nPOST / HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\nExpect: 100-continue\r\n\r\n");
        $this->advanceTo(2.9);
        self::assertNotNull($this->held);
        $this->held->resume();
        $this->turn();
        // The "100 Continue" goes out once the request before is answered.
        self::assertStringEndsWith("\r\n\r\nokHTTP/1.1 100 Continue\r\n\r\n", $this->received());
        // The body's 2 s of grace count from then (2.9), not from its head.
        $this->advanceTo(4.8);
        self::assertSame('', $this->received());
        $this->send('0123456789');
        self::assertStringEndsWith("\r\n\r\nok", $this->received());
    }

    public function testBodyMemoryIsGivenBackWhenARequestEndsAndWhenQueuedOnesAreDropped(): void
    {
        $memory = $this->set->bodyMemory;
        $this->send("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello");
        self::assertStringEndsWith("\r\n\r\nok", $this->received());
        self::assertSame(0, $memory->used);
        // A held request, a whole one queued behind it and one whose body is on its way.
        $this->send("GET /hold HTTP/1.1\r\nHost: a\r\n\r\nPOST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhelloPOST / HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\n12345");
        self::assertSame(10, $memory->used);
        $this->connection?->close();
        self::assertSame(0, $memory->used);
        self::assertNotNull($this->held);
        $this->held->resume();
        $this->turn();
        self::assertSame(0, $memory->used);
    }
}
