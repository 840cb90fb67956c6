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
use Spindle\Loop\Loop;
use Spindle\Loop\TaskRunner;
use Spindle\Http\ClosureHandler;

/**
 * Requests pipelined in one read are answered in one write when none of them waits, in order;
 * one that waits lets the answers before it go at once. The socket pair is SOCK_SEQPACKET, so
 * every write of the server arrives as one message of its own and the writes can be counted.
 */
final class PipelinedWritesTest extends TestCase
{
    /** @var resource */
    private $client;
    private Http1Connection $connection;
    private RequestRunner $runner;

    protected function setUp(): void
    {
        $app = static function (Request $request): Response {
            if ($request->path === '/wait') {
                \Spindle\delay(0.01);
            }

            return new Response(200, ['Content-Type' => 'text/plain'], 'answer' . $request->path);
        };
        $clock = new Clock();
        $this->runner = new RequestRunner(new ClosureHandler($app), new TaskRunner(Loop::driver()), new NullLogger(), $clock, new ConcurrencyLimit(10));
        $set = new ConnectionServices($this->runner, new HttpLimits(), new NullLogger(), $clock, new ResponseSerializer(), \sys_get_temp_dir(), false);
        $pair = \stream_socket_pair(\STREAM_PF_UNIX, \STREAM_SOCK_SEQPACKET, 0);
        self::assertIsArray($pair);
        [$client, $server] = $pair;
        \stream_set_blocking($client, false);
        \stream_set_blocking($server, false);
        $this->client = $client;
        $this->connection = new Http1Connection($server, $set, new IgnoredConnectionEvents(), new Peer('127.0.0.1', 50000, '127.0.0.1', 80));
    }

    protected function tearDown(): void
    {
        $this->connection->close();
        \fclose($this->client);
    }

    /**
     * Sends $requests and runs the loop until a write of the server ends with $last (5 s at most).
     *
     * @return list<string> the server's writes up to it, one message each
     */
    private function exchange(string $requests, string $last): array
    {
        \fwrite($this->client, $requests);
        $writes = [];
        $client = $this->client;
        $readId = EventLoop::onReadable($client, static function (string $id) use ($client, $last, &$writes): void {
            while (($message = \fread($client, 65536)) !== false && $message !== '') {
                $writes[] = $message;
                if (\str_ends_with($message, $last)) {
                    EventLoop::cancel($id);
                    EventLoop::getDriver()->stop();

                    return;
                }
            }
        });
        $guard = EventLoop::unreference(EventLoop::delay(5.0, static fn () => EventLoop::getDriver()->stop()));
        EventLoop::run();
        EventLoop::cancel($readId);
        EventLoop::cancel($guard);
        self::assertNotSame([], $writes, 'no answer');
        self::assertStringEndsWith($last, $writes[\count($writes) - 1], 'the last answer did not come');

        return $writes;
    }

    private static function get(string $path): string
    {
        return "GET $path HTTP/1.1\r\nHost: a\r\n\r\n";
    }

    public function testPipelinedAnswersLeaveInOneWriteInOrder(): void
    {
        $writes = $this->exchange(self::get('/1') . self::get('/2') . self::get('/3'), 'answer/3');
        self::assertCount(1, $writes);
        self::assertSame(3, \substr_count($writes[0], 'HTTP/1.1 200 OK'));
        self::assertMatchesRegularExpression('#answer/1.*answer/2.*answer/3$#s', $writes[0]);
    }

    public function testARequestThatWaitsLetsTheAnswersBeforeItGoFirst(): void
    {
        $writes = $this->exchange(self::get('/1') . self::get('/wait') . self::get('/3'), 'answer/3');
        self::assertCount(2, $writes, 'the first answer goes when the second request waits; the last two together after it');
        self::assertStringEndsWith('answer/1', $writes[0]);
        self::assertMatchesRegularExpression('#answer/wait.*answer/3$#s', $writes[1]);
    }

    public function testASingleRequestIsAnsweredAtOnce(): void
    {
        $writes = $this->exchange(self::get('/1'), 'answer/1');
        self::assertCount(1, $writes);
        self::assertStringEndsWith('answer/1', $writes[0]);
    }

    public function testAClosingRequestInTheBatchStillGetsItsAnswer(): void
    {
        $writes = $this->exchange(self::get('/1') . "GET /2 HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n", 'answer/2');
        self::assertCount(1, $writes);
        self::assertMatchesRegularExpression('#answer/1.*Connection: close.*answer/2$#s', $writes[0]);
        // The server closed its end once the answers were written.
        self::assertSame('', \fread($this->client, 1));
        self::assertTrue(\feof($this->client), 'the connection is closed after the last answer');
    }
}
