<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Http;

use PHPUnit\Framework\TestCase;
use Psr\Log\NullLogger;
use Revolt\EventLoop;
use Spindle\Http\Clock;
use Spindle\Http\ClosureHandler;
use Spindle\Http\ConcurrencyLimit;
use Spindle\Http\ConnectionClosed;
use Spindle\Http\ConnectionServices;
use Spindle\Http\Http1\Http1Connection;
use Spindle\Http\HttpException;
use Spindle\Http\HttpLimits;
use Spindle\Http\Peer;
use Spindle\Http\Request;
use Spindle\Http\RequestRunner;
use Spindle\Http\Response;
use Spindle\Http\ResponseSerializer;
use Spindle\Loop\Loop;
use Spindle\Loop\TaskRunner;

/**
 * A handler that streams request bodies (StreamsRequestBody) is called once the head is in and
 * reads the body as it arrives (Request::$bodyStream), with the connection reading at most about
 * --body-buffer-size ahead of it.
 */
final class StreamedRequestBodyTest extends TestCase
{
    /** @var resource */
    private mixed $client;
    private Http1Connection $connection;
    /** @var list<string> what the handler did, in order */
    private array $log = [];
    /** @var \Closure(Request): Response */
    private \Closure $app;

    protected function setUp(): void
    {
        $clock = new Clock();
        $runner = new RequestRunner(new ClosureHandler(fn (Request $request): Response => ($this->app)($request)), new TaskRunner(Loop::driver()), new NullLogger(), $clock, new ConcurrencyLimit(10), requestTimeout: 30.0);
        $set = new ConnectionServices($runner, new HttpLimits(bodyBufferSize: 65536), new NullLogger(), $clock, new ResponseSerializer(), \sys_get_temp_dir(), false, streamBodies: true);
        $pair = \stream_socket_pair(\STREAM_PF_UNIX, \STREAM_SOCK_STREAM, 0);
        self::assertIsArray($pair);
        [$client, $server] = $pair;
        \stream_set_blocking($client, false);
        \stream_set_blocking($server, false);
        $this->client = $client;
        $this->connection = new Http1Connection($server, $set, new IgnoredConnectionEvents(), new Peer('127.0.0.1', 50000, '127.0.0.1', 80));
        $this->app = function (Request $request): Response {
            $stream = $request->bodyStream;
            self::assertNotNull($stream);
            $this->log[] = 'called';
            $total = 0;
            $hash = \hash_init('sha1');
            try {
                while (($bytes = $stream->read()) !== null) {
                    $this->log[] = 'read ' . \strlen($bytes);
                    $total += \strlen($bytes);
                    \hash_update($hash, $bytes);
                }
            } catch (HttpException|ConnectionClosed $e) {
                $this->log[] = $e::class;

                return new Response(400, [], 'bad body');
            }

            return new Response(200, [], $total . ' ' . \hash_final($hash));
        };
    }

    protected function tearDown(): void
    {
        $this->connection->close();
        if (\is_resource($this->client)) {
            \fclose($this->client);
        }
    }

    public function testTheHandlerRunsBeforeTheBodyHasArrivedAndReadsItPieceByPiece(): void
    {
        $this->send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nhello");
        self::assertSame(['called', 'read 5'], $this->log, 'called with half the body sent');
        self::assertSame('', (string) \fread($this->client, 65536), 'and waits for the rest');
        $this->send('world');
        $written = (string) \fread($this->client, 65536);
        self::assertStringStartsWith('HTTP/1.1 200 OK', $written);
        self::assertStringEndsWith("\r\n\r\n10 " . \sha1('helloworld'), $written);

        // The connection goes on with the next request.
        $this->send("POST /b HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nok");
        self::assertStringEndsWith("\r\n\r\n2 " . \sha1('ok'), (string) \fread($this->client, 65536));
    }

    public function testAChunkedBodyIsStreamedDecoded(): void
    {
        $this->send("POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n");
        self::assertSame(['called', 'read 3'], $this->log);
        $this->send("4\r\ndefg\r\n0\r\n\r\n");
        self::assertStringEndsWith("\r\n\r\n7 " . \sha1('abcdefg'), (string) \fread($this->client, 65536));
    }

    public function testReadingStopsWhileTheHandlerIsBehindAndResumesWhenItReads(): void
    {
        $gate = null;
        $this->app = function (Request $request) use (&$gate): Response {
            $stream = $request->bodyStream;
            \assert($stream !== null);
            $gate = EventLoop::getSuspension();
            $gate->suspend();
            $total = \strlen($stream->readAll());

            return new Response(200, [], (string) $total);
        };
        $size = 4 * 1024 * 1024;
        \fwrite($this->client, "POST /big HTTP/1.1\r\nHost: x\r\nContent-Length: $size\r\n\r\n");
        $sent = $this->pump(\str_repeat('x', $size));
        self::assertLessThan($size, $sent, 'the connection stopped reading while its handler did not read');
        self::assertNotNull($gate);
        $gate->resume();
        $sent += $this->pump(\substr(\str_repeat('x', $size), $sent));
        self::assertSame($size, $sent);
        $this->turn();
        self::assertStringEndsWith("\r\n\r\n$size", (string) \fread($this->client, 65536));
    }

    public function testAHandlerThatAnswersWithoutReadingTheBodyClosesTheConnectionAfterItsResponse(): void
    {
        $this->app = static fn (): Response => new Response(413, [], 'too big for me');
        $this->send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\nabc");
        $written = (string) \fread($this->client, 65536);
        self::assertStringStartsWith('HTTP/1.1 413 ', $written);
        self::assertStringContainsString("Connection: close\r\n", $written);
        self::assertTrue($this->connection->isClosed());
    }

    public function testAClientThatLeavesMidBodyMakesTheReadThrow(): void
    {
        $this->send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc");
        \fclose($this->client);
        $this->turn();
        self::assertSame(['called', 'read 3', ConnectionClosed::class], $this->log);
    }

    public function testABrokenChunkMakesTheReadThrow(): void
    {
        $this->send("POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\nzz\r\n");
        self::assertSame(['called', 'read 3', HttpException::class], $this->log);
        self::assertStringStartsWith('HTTP/1.1 400 ', (string) \fread($this->client, 65536));
    }

    /** Writes as much of $bytes as the connection takes, turning the loop; returns how much went. */
    private function pump(string $bytes): int
    {
        $sent = 0;
        $stalled = 0;
        while ($sent < \strlen($bytes) && $stalled < 5) {
            $written = @\fwrite($this->client, \substr($bytes, $sent, 65536));
            if ($written === false || $written === 0) {
                ++$stalled;
            } else {
                $stalled = 0;
                $sent += $written;
            }
            $this->turn(0.002);
        }

        return $sent;
    }

    private function send(string $bytes): void
    {
        \fwrite($this->client, $bytes);
        $this->turn();
    }

    private function turn(float $seconds = 0.01): void
    {
        EventLoop::delay($seconds, static fn () => EventLoop::getDriver()->stop());
        EventLoop::run();
    }
}
