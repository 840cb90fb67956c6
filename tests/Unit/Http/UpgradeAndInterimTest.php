<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Http;

use PHPUnit\Framework\TestCase;
use Psr\Log\NullLogger;
use Revolt\EventLoop;
use Spindle\Http\Clock;
use Spindle\Http\ConcurrencyLimit;
use Spindle\Http\ConnectionDriver;
use Spindle\Http\ConnectionServices;
use Spindle\Http\Http1\Http1Connection;
use Spindle\Http\HttpLimits;
use Spindle\Http\Peer;
use Spindle\Http\Request;
use Spindle\Http\RequestRunner;
use Spindle\Http\Response;
use Spindle\Http\ResponseSerializer;
use Spindle\Http\RunningRequest;
use Spindle\Http\UpgradedSocket;
use Spindle\Http\UpgradeHandler;
use Spindle\Loop\Loop;
use Spindle\Loop\TaskRunner;
use Spindle\Http\ClosureHandler;

/**
 * The HTTP/1.1 driver's two ways past "one request, one response": interim responses ahead of the
 * final one (RunningRequest::sendInformational()), and a 101 after which the connection is
 * handed to another driver (Response::upgrade()) and nothing more is read as HTTP.
 */
final class UpgradeAndInterimTest extends TestCase
{
    /** @var resource */
    private mixed $client;
    private Http1Connection $connection;
    private IgnoredConnectionEvents $events;
    /** @var list<UpgradedSocket> what the upgrade handler was given */
    private array $takenOver = [];
    /** @var \Closure(Request): Response */
    private \Closure $app;

    protected function setUp(): void
    {
        $clock = new Clock();
        $app = new ClosureHandler(fn (Request $request): Response => ($this->app)($request));
        $runner = new RequestRunner($app, new TaskRunner(Loop::driver()), new NullLogger(), $clock, new ConcurrencyLimit(10), requestTimeout: 30.0);
        $set = new ConnectionServices($runner, new HttpLimits(), new NullLogger(), $clock, new ResponseSerializer(), \sys_get_temp_dir(), false, interimOverHttp1: $this->getName(false) !== 'testWithoutTheOptionAnHttp11ClientGetsNoInterimResponse');
        $pair = \stream_socket_pair(\STREAM_PF_UNIX, \STREAM_SOCK_STREAM, 0);
        self::assertIsArray($pair);
        [$client, $server] = $pair;
        \stream_set_blocking($client, false);
        \stream_set_blocking($server, false);
        $this->client = $client;
        $this->events = new IgnoredConnectionEvents();
        $this->connection = new Http1Connection($server, $set, $this->events, new Peer('127.0.0.1', 50000, '127.0.0.1', 80));
    }

    protected function tearDown(): void
    {
        $this->connection->close();
        foreach ($this->takenOver as $socket) {
            if (\is_resource($socket->socket)) {
                \fclose($socket->socket);
            }
        }
        \fclose($this->client);
    }

    public function testEarlyHintsGoOutBeforeTheFinalResponse(): void
    {
        $this->app = static function (Request $request): Response {
            $run = RunningRequest::current();
            self::assertNotNull($run);
            self::assertTrue($run->sendInformational(103, ['Link' => ['</app.css>; rel=preload; as=style', '</app.js>; rel=preload; as=script']]));
            self::assertTrue($run->sendInformational(103, ['Link' => '</font.woff2>; rel=preload; as=font']));

            return new Response(200, ['Link' => '</app.css>; rel=preload; as=style'], 'page');
        };
        $written = $this->exchange("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
        self::assertStringStartsWith(
            "HTTP/1.1 103 Early Hints\r\nLink: </app.css>; rel=preload; as=style\r\nLink: </app.js>; rel=preload; as=script\r\n\r\n"
            . "HTTP/1.1 103 Early Hints\r\nLink: </font.woff2>; rel=preload; as=font\r\n\r\nHTTP/1.1 200 OK\r\n",
            $written,
        );
        self::assertStringEndsWith("\r\n\r\npage", $written);
    }

    public function testWithoutTheOptionAnHttp11ClientGetsNoInterimResponse(): void
    {
        $sent = null;
        $this->app = static function () use (&$sent): Response {
            $sent = RunningRequest::current()?->sendInformational(103, ['Link' => '</a.css>; rel=preload']);

            return new Response(200, [], 'page');
        };
        $written = $this->exchange("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
        self::assertFalse($sent);
        self::assertStringStartsWith('HTTP/1.1 200 OK', $written);
    }

    public function testAnHttp10ClientGetsNoInterimResponse(): void
    {
        $sent = null;
        $this->app = static function () use (&$sent): Response {
            $sent = RunningRequest::current()?->sendInformational(103, ['Link' => '</a.css>; rel=preload']);

            return new Response(200, [], 'page');
        };
        $written = $this->exchange("GET / HTTP/1.0\r\n\r\n");
        self::assertFalse($sent);
        self::assertStringStartsWith('HTTP/1.0 200 OK', $written);
    }

    public function testOnlyAn1xxOtherThan101IsAnInterimResponse(): void
    {
        $errors = [];
        $this->app = static function () use (&$errors): Response {
            foreach ([101, 200, 99] as $status) {
                try {
                    RunningRequest::current()?->sendInformational($status, []);
                } catch (\InvalidArgumentException $e) {
                    $errors[] = $status;
                }
            }

            return new Response(204);
        };
        self::assertStringStartsWith('HTTP/1.1 204 ', $this->exchange("GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
        self::assertSame([101, 200, 99], $errors);
    }

    public function testA101HandsTheSocketAndTheBytesPastTheRequestToTheUpgrade(): void
    {
        $this->app = fn (Request $request): Response => Response::upgrade(['Upgrade' => 'echo', 'Connection' => 'keep-alive'], $this->upgradeHandler());
        \fwrite($this->client, "GET /chat HTTP/1.1\r\nHost: x\r\nUpgrade: echo\r\nConnection: Upgrade\r\n\r\n");
        $this->turn();
        $written = (string) \fread($this->client, 65536);
        self::assertMatchesRegularExpression("#^HTTP/1\\.1 101 Switching Protocols\r\nUpgrade: echo\r\nConnection: Upgrade\r\n\r\n$#", $written, "the app's Connection header gives way to the upgrade's");
        self::assertCount(1, $this->takenOver);
        self::assertSame('/chat', $this->takenOver[0]->request->path);
        self::assertCount(1, $this->events->replaced);
        self::assertSame($this->connection, $this->events->replaced[0][0]);
        self::assertSame([], $this->events->closed, 'the socket stays open: it is the new driver\'s');
        self::assertTrue($this->connection->isClosed());

        // What the client sends now is not HTTP, and it reaches the new driver's socket untouched.
        \fwrite($this->client, "GET / HTTP/1.1\r\n\r\n");
        $this->turn();
        self::assertSame("GET / HTTP/1.1\r\n\r\n", \fread($this->takenOver[0]->socket, 65536));
        self::assertSame('', (string) \fread($this->client, 65536), 'nothing answered it as HTTP');
    }

    public function testAnUpgradeOfAnHttp10RequestIsA500AndNothingIsHandedOver(): void
    {
        $this->app = fn (): Response => Response::upgrade(['Upgrade' => 'echo'], $this->upgradeHandler());
        $written = $this->exchange("GET / HTTP/1.0\r\nUpgrade: echo\r\nConnection: Upgrade\r\n\r\n");
        self::assertStringStartsWith('HTTP/1.0 500 ', $written);
        self::assertSame([], $this->takenOver);
        self::assertTrue($this->connection->isClosed());
        self::assertCount(1, $this->events->closed);
    }

    public function testAnUpgradeWhoseHeadCouldSplitTheResponseIsA500(): void
    {
        $this->app = fn (): Response => Response::upgrade(['Upgrade' => "echo\r\nX: y"], $this->upgradeHandler());
        self::assertStringStartsWith('HTTP/1.1 500 ', $this->exchange("GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
        self::assertSame([], $this->takenOver);
    }

    private function upgradeHandler(): UpgradeHandler
    {
        return new class($this->takenOver) implements UpgradeHandler {
            /** @param list<UpgradedSocket> $takenOver */
            public function __construct(private array &$takenOver)
            {
            }

            public function takeOver(UpgradedSocket $socket): ConnectionDriver
            {
                $this->takenOver[] = $socket;

                return new class implements ConnectionDriver {
                    public function drain(): void
                    {
                    }

                    public function close(): void
                    {
                    }

                    public function isClosed(): bool
                    {
                        return false;
                    }

                    public function waitingSince(): ?float
                    {
                        return null;
                    }
                };
            }
        };
    }

    private function exchange(string $request): string
    {
        \fwrite($this->client, $request);
        $this->turn();

        return (string) \fread($this->client, 65536);
    }

    private function turn(): void
    {
        EventLoop::delay(0.01, static fn () => EventLoop::getDriver()->stop());
        EventLoop::run();
    }
}
