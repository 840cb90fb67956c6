<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Http;

use PHPUnit\Framework\TestCase;
use Psr\Log\NullLogger;
use Revolt\EventLoop;
use Spindle\Http\Clock;
use Spindle\Http\Connection;
use Spindle\Http\ConnectionServices;
use Spindle\Http\HttpLimits;
use Spindle\Http\Request;
use Spindle\Http\Response;
use Spindle\Http\ResponseSerializer;
use Spindle\Http\TimeoutWheel;
use Spindle\Loop\Loop;
use Spindle\Loop\TaskRunner;
use Spindle\Server\ClosureApplication;
use Spindle\Server\ConcurrencyLimit;
use Spindle\Server\RequestRunner;

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
    private ?Connection $connection = null;

    protected function setUp(): void
    {
        $this->clock = new Clock();
        $this->clock->now = self::START;
        $this->wheel = new TimeoutWheel(self::START);
        $handler = static function (Request $request): Response {
            if ($request->path === '/slow') {
                EventLoop::getSuspension()->suspend();
            }

            return new Response(200, ['Content-Type' => 'text/plain'], 'ok');
        };
        $limits = new HttpLimits(headerTimeout: 10.0, bodyTimeout: 20.0, keepAliveTimeout: 5.0);
        $this->runner = new RequestRunner(new ClosureApplication($handler), new TaskRunner(Loop::driver()), new NullLogger(), $this->clock, new ConcurrencyLimit(10), requestTimeout: 3.0);
        $this->set = new ConnectionServices($this->runner, $limits, new NullLogger(), $this->clock, new ResponseSerializer(), \sys_get_temp_dir(), false, $this->wheel);
        [$client, $server] = \stream_socket_pair(\STREAM_PF_UNIX, \STREAM_SOCK_STREAM, 0);
        \stream_set_blocking($client, false);
        \stream_set_blocking($server, false);
        $this->client = $client;
        $this->connection = new Connection($server, $this->set, static function (): void {}, '127.0.0.1', 50000, '127.0.0.1', 80);
    }

    protected function tearDown(): void
    {
        $this->connection?->close();
        $this->runner->close();
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
}
