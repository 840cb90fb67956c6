<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Http;

use PHPUnit\Framework\TestCase;
use Psr\Log\NullLogger;
use Revolt\EventLoop;
use Revolt\EventLoop\Suspension;
use Spindle\Http\Clock;
use Spindle\Http\ConcurrencyLimit;
use Spindle\Http\Http1\Http1Connection;
use Spindle\Http\Peer;
use Spindle\Http\Http1\ConnectionPhase;
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
 * A connection's phases as a request goes through it, with a handler that waits until the test
 * gives it its response, and bodies that wait until the test lets them go on.
 */
final class ConnectionPhaseTest extends TestCase
{
    /** @var resource */
    private $client;
    private Http1Connection $connection;
    private Clock $clock;
    private RequestRunner $runner;
    /** @var list<string> the paths that reached the handler, in order */
    private array $entered = [];
    /** @var list<Suspension<mixed>> handlers and bodies waiting for the test, oldest first */
    private array $waiting = [];

    protected function setUp(): void
    {
        $this->clock = new Clock();
        $app = new ClosureHandler(function (Request $request): Response {
            $this->entered[] = $request->path;
            $response = $this->wait();
            \assert($response instanceof Response);

            return $response;
        });
        $this->runner = new RequestRunner($app, new TaskRunner(Loop::driver()), new NullLogger(), $this->clock, new ConcurrencyLimit(10), requestTimeout: 30.0);
        $set = new ConnectionServices($this->runner, new HttpLimits(), new NullLogger(), $this->clock, new ResponseSerializer(), \sys_get_temp_dir(), false);
        $pair = \stream_socket_pair(\STREAM_PF_UNIX, \STREAM_SOCK_STREAM, 0);
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
        // Nothing is left waiting for the next test.
        while ($this->waiting !== []) {
            $this->goOn(new Response(200, [], ''));
        }
    }

    public function testAKeptRequestGoesWaitingRunningRespondingWaiting(): void
    {
        self::assertSame(ConnectionPhase::Waiting, $this->connection->phase());
        $this->send("GET /a HTTP/1.1\r\nHost: x\r\n\r\n");
        self::assertSame(['/a'], $this->entered);
        self::assertSame(ConnectionPhase::Running, $this->connection->phase());

        $this->goOn(new Response(200, [], $this->pausedBody('a', 'b')));
        self::assertSame(ConnectionPhase::Responding, $this->connection->phase(), 'its head and first piece went out, the rest waits');
        $this->goOn();
        self::assertSame(ConnectionPhase::Waiting, $this->connection->phase());
        $written = (string) \fread($this->client, 65536);
        self::assertStringStartsWith('HTTP/1.1 200 OK', $written);
        self::assertStringContainsString("1\r\na\r\n1\r\nb\r\n0\r\n\r\n", $written);
    }

    public function testTheLastResponseClosesTheConnectionAndServesNothingPipelinedBehindIt(): void
    {
        $this->send("GET /a HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\n\r\n");
        self::assertSame(['/a'], $this->entered);
        $this->goOn(new Response(200, [], $this->pausedBody('a', 'b')));
        self::assertSame(ConnectionPhase::LastResponse, $this->connection->phase());
        $this->goOn();
        self::assertSame(ConnectionPhase::Closed, $this->connection->phase());
        self::assertSame(['/a'], $this->entered, '/b never runs');
    }

    public function testARequestPastItsTimeoutIsAnsweredAndTheConnectionCloses(): void
    {
        $this->send("GET /a HTTP/1.1\r\nHost: x\r\n\r\n");
        $this->runner->expire($this->clock->now + 31.0);
        self::assertSame(ConnectionPhase::Closed, $this->connection->phase(), 'the 504 went out at once, so the connection closed');
        $this->turn();
        self::assertSame([], $this->waiting, 'the handler was cancelled where it waited');
        self::assertSame(ConnectionPhase::Closed, $this->connection->phase());
        self::assertSame(0, $this->runner->runningCount());
        $written = (string) \fread($this->client, 65536);
        self::assertStringStartsWith('HTTP/1.1 504 Gateway Timeout', $written);
        self::assertStringNotContainsString('HTTP/1.1 500', $written, 'what the cancelled handler answered is dropped');
    }

    public function testAClientThatLeavesClosesTheConnectionWhileItsRequestRuns(): void
    {
        $this->send("GET /a HTTP/1.1\r\nHost: x\r\n\r\n");
        \fclose($this->client);
        $this->client = \fopen('php://memory', 'r') ?: throw new \LogicException('no stream');
        $this->turn();
        self::assertSame(ConnectionPhase::Closed, $this->connection->phase());
        $this->goOn(new Response(200, [], 'a'));
        self::assertSame(ConnectionPhase::Closed, $this->connection->phase());
        self::assertSame(0, $this->runner->runningCount(), 'the request still ended');
    }

    private function send(string $bytes): void
    {
        \fwrite($this->client, $bytes);
        $this->turn();
    }

    /** In a request's fiber: waits until the test goes on, and returns what it gave. */
    private function wait(): mixed
    {
        $suspension = EventLoop::getSuspension();
        $this->waiting[] = $suspension;
        try {
            return $suspension->suspend();
        } catch (\Throwable $e) {
            // Cancelled where it waits: it waits no more.
            $this->waiting = \array_values(\array_filter($this->waiting, static fn (Suspension $waiting): bool => $waiting !== $suspension));

            throw $e;
        }
    }

    /** Lets the oldest waiting handler or body go on with $value, and runs the loop a turn. */
    private function goOn(mixed $value = null): void
    {
        $suspension = \array_shift($this->waiting);
        self::assertNotNull($suspension, 'nothing waits');
        $suspension->resume($value);
        $this->turn();
    }

    /** @return \Generator<int, string> $first, then (once the test goes on) $second */
    private function pausedBody(string $first, string $second): \Generator
    {
        yield $first;
        $this->wait();
        yield $second;
    }

    /** Runs the loop until the connection read what is there. */
    private function turn(): void
    {
        EventLoop::delay(0.01, static fn () => EventLoop::getDriver()->stop());
        EventLoop::run();
    }

    public function testThePhasesConnectionHoldsAreTheEnumsCasesInOrder(): void
    {
        $constants = (new \ReflectionClass(Http1Connection::class))->getConstants();
        foreach (ConnectionPhase::cases() as $position => $case) {
            $name = \strtoupper((string) \preg_replace('/(?<!^)[A-Z]/', '_$0', $case->name));
            self::assertSame($position, $constants[$name] ?? null, $case->name);
        }
    }

    public function testALastResponseTheClientIsSlowToTakeKeepsTheConnectionClosingUntilWritten(): void
    {
        $this->send("GET /a HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        $this->goOn(new Response(200, [], \str_repeat('x', 4 << 20)));
        self::assertSame(ConnectionPhase::Closing, $this->connection->phase(), 'more is written than the socket holds');
        $received = 0;
        $client = $this->client;
        $readId = EventLoop::onReadable($client, static function (string $id) use ($client, &$received): void {
            $data = \fread($client, 1 << 20);
            $received += \strlen((string) $data);
            if ($data === '' || $data === false) {
                EventLoop::cancel($id);
            }
        });
        for ($turns = 0; $turns < 500 && $this->connection->phase() !== ConnectionPhase::Closed; ++$turns) {
            $this->turn();
        }
        EventLoop::cancel($readId);
        self::assertSame(ConnectionPhase::Closed, $this->connection->phase());
        // Closed once the last byte is handed to the kernel: what the loop's reader has not taken
        // yet waits in the client's socket, up to the end of the stream the close marked.
        \stream_set_blocking($client, true);
        \stream_set_timeout($client, 10);
        while (!\feof($client)) {
            $data = \fread($client, 1 << 20);
            if ($data === false || ($data === '' && \stream_get_meta_data($client)['timed_out'])) {
                break;
            }
            $received += \strlen($data);
        }
        self::assertGreaterThan(4 << 20, $received);
    }
}
