<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Http;

use PHPUnit\Framework\TestCase;
use Psr\Log\NullLogger;
use Revolt\EventLoop;
use Spindle\Http\Clock;
use Spindle\Http\Connection;
use Spindle\Http\ConnectionPhase;
use Spindle\Http\ConnectionServices;
use Spindle\Http\Exchange;
use Spindle\Http\HttpException;
use Spindle\Http\HttpLimits;
use Spindle\Http\RequestDispatcher;
use Spindle\Http\Response;
use Spindle\Http\ResponseSerializer;

/** A connection's phases as a request goes through it, driven by a dispatcher the test answers by hand. */
final class ConnectionPhaseTest extends TestCase
{
    /** @var resource */
    private $client;
    private Connection $connection;
    /** @var list<Exchange> */
    private array $dispatched = [];

    protected function setUp(): void
    {
        $dispatched = &$this->dispatched;
        $dispatcher = new class ($dispatched) implements RequestDispatcher {
            /** @param list<Exchange> $dispatched */
            public function __construct(private array &$dispatched)
            {
            }

            public function dispatch(Exchange $exchange): void
            {
                $this->dispatched[] = $exchange;
            }

            public function expire(float $now): void
            {
            }
        };
        $set = new ConnectionServices($dispatcher, new HttpLimits(), new NullLogger(), new Clock(), new ResponseSerializer(), \sys_get_temp_dir(), false);
        $pair = \stream_socket_pair(\STREAM_PF_UNIX, \STREAM_SOCK_STREAM, 0);
        self::assertIsArray($pair);
        [$client, $server] = $pair;
        \stream_set_blocking($client, false);
        \stream_set_blocking($server, false);
        $this->client = $client;
        $this->connection = new Connection($server, $set, static function (): void {}, '127.0.0.1', 50000, '127.0.0.1', 80);
    }

    protected function tearDown(): void
    {
        $this->connection->close();
        \fclose($this->client);
    }

    public function testAKeptRequestGoesWaitingRunningRespondingWaiting(): void
    {
        self::assertSame(ConnectionPhase::Waiting, $this->connection->phase());
        $this->send("GET /a HTTP/1.1\r\nHost: x\r\n\r\n");
        self::assertCount(1, $this->dispatched);
        $exchange = $this->dispatched[0];
        self::assertSame(ConnectionPhase::Running, $this->connection->phase());
        self::assertFalse($exchange->responseBegun());

        $exchange->respond(new Response(200, [], 'a'));
        self::assertSame(ConnectionPhase::Responding, $this->connection->phase());
        self::assertTrue($exchange->responseBegun());
        $exchange->respond(new Response(500, [], 'twice'));
        $exchange->finish();
        self::assertSame(ConnectionPhase::Waiting, $this->connection->phase());
        $written = (string) \fread($this->client, 65536);
        self::assertStringStartsWith('HTTP/1.1 200 OK', $written);
        self::assertStringNotContainsString('twice', $written, 'a second answer to one request is ignored');
    }

    public function testTheLastResponseClosesTheConnectionAndServesNothingPipelinedBehindIt(): void
    {
        $this->send("GET /a HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\n\r\n");
        self::assertCount(1, $this->dispatched);
        $this->dispatched[0]->respond(new Response(200, [], 'a'));
        self::assertSame(ConnectionPhase::LastResponse, $this->connection->phase());
        $this->dispatched[0]->finish();
        self::assertSame(ConnectionPhase::Closed, $this->connection->phase());
        self::assertCount(1, $this->dispatched, '/b is never dispatched');
    }

    public function testAFailedRequestIsAnsweredAndTheConnectionCloses(): void
    {
        $this->send("GET /a HTTP/1.1\r\nHost: x\r\n\r\n");
        $exchange = $this->dispatched[0];
        $exchange->fail(new HttpException(504, 'Gateway Timeout'));
        self::assertTrue($exchange->responseBegun());
        self::assertSame(ConnectionPhase::Closed, $this->connection->phase(), 'the 504 went out at once, so the connection closed');
        $exchange->respond(new Response(200, [], 'too late'));
        $exchange->finish();
        self::assertSame(ConnectionPhase::Closed, $this->connection->phase());
        self::assertStringStartsWith('HTTP/1.1 504 Gateway Timeout', (string) \fread($this->client, 65536));
    }

    public function testAClientThatLeavesClosesTheConnectionWhileItsRequestRuns(): void
    {
        $this->send("GET /a HTTP/1.1\r\nHost: x\r\n\r\n");
        \fclose($this->client);
        $this->client = \fopen('php://memory', 'r') ?: throw new \LogicException('no stream');
        $this->turn();
        self::assertSame(ConnectionPhase::Closed, $this->connection->phase());
        $this->dispatched[0]->respond(new Response(200, [], 'a'));
        $this->dispatched[0]->finish();
        self::assertSame(ConnectionPhase::Closed, $this->connection->phase());
    }

    private function send(string $bytes): void
    {
        \fwrite($this->client, $bytes);
        $this->turn();
    }

    /** Runs the loop until the connection read what is there. */
    private function turn(): void
    {
        EventLoop::delay(0.01, static fn () => EventLoop::getDriver()->stop());
        EventLoop::run();
    }

    public function testThePhasesConnectionHoldsAreTheEnumsCasesInOrder(): void
    {
        $constants = (new \ReflectionClass(Connection::class))->getConstants();
        foreach (ConnectionPhase::cases() as $position => $case) {
            $name = \strtoupper((string) \preg_replace('/(?<!^)[A-Z]/', '_$0', $case->name));
            self::assertSame($position, $constants[$name] ?? null, $case->name);
        }
    }

    public function testALastResponseTheClientIsSlowToTakeKeepsTheConnectionClosingUntilWritten(): void
    {
        $this->send("GET /a HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        $this->dispatched[0]->respond(new Response(200, [], \str_repeat('x', 4 << 20)));
        $this->dispatched[0]->finish();
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
        self::assertGreaterThan(4 << 20, $received);
    }
}
