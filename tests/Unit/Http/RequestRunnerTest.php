<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Http;

use PHPUnit\Framework\TestCase;
use Psr\Log\AbstractLogger;
use Psr\Log\LoggerInterface;
use Revolt\EventLoop\Suspension;
use Revolt\EventLoop;
use Spindle\Http\Clock;
use Spindle\Http\ConcurrencyLimit;
use Spindle\Http\Http1\Http1Connection;
use Spindle\Http\Peer;
use Spindle\Http\ConnectionServices;
use Spindle\Http\ErrorResponses;
use Spindle\Http\HttpException;
use Spindle\Http\HttpLimits;
use Spindle\Http\Request;
use Spindle\Http\RequestRunner;
use Spindle\Http\Response;
use Spindle\Http\ResponseSerializer;
use Spindle\Http\TimeoutWheel;
use Spindle\Loop\Loop;
use Spindle\Loop\TaskRunner;
use Spindle\Server\AccessLog\RequestIds;
use Spindle\Http\ClosureHandler;
use Spindle\Server\RequestPath;
use Spindle\Server\RequestTimedOut;
use Spindle\Tests\Unit\Server\MemoryLogger;

/**
 * The RequestRunner behind real connections on socket pairs, with a manual clock for the request
 * timeout: what a client gets back when the app answers, throws, refuses, outlives the timeout
 * before or after its response began, and what the runner keeps meanwhile.
 */
final class RequestRunnerTest extends TestCase
{
    /** The manual clock's start: the wall-clock time of the test (the connections' deadlines count from it). */
    private float $start = 0.0;

    private Clock $clock;
    private MemoryLogger $logger;
    private ?RequestRunner $runner = null;
    private ?ConnectionServices $set = null;
    /** @var list<array{resource, Http1Connection}> */
    private array $pairs = [];
    /** @var array<string, Suspension<mixed>> requests waiting in the app, by path */
    private array $waiting = [];
    /** @var list<string> paths that entered the app, in order */
    private array $entered = [];
    /** @var list<string> what the app saw when it was cancelled */
    private array $cancelled = [];

    protected function setUp(): void
    {
        $this->start = \floor(\microtime(true));
        $this->clock = new Clock($this->start);
        $this->logger = new MemoryLogger();
    }

    protected function tearDown(): void
    {
        foreach ($this->pairs as [$client, $connection]) {
            $connection->close();
            \fclose($client);
        }
    }

    private function start(int $concurrency = 10, float $timeout = 3.0, bool $requestIds = false, ?LoggerInterface $runnerLogger = null): void
    {
        $app = function (Request $request): Response {
            $path = $request->path;
            $this->entered[] = $path;
            if ($path === '/stranded') {
                // Left by its fiber without a wait in the loop, as a request that ended the process is.
                \Fiber::suspend();
            }
            if (\str_starts_with($path, '/wait')) {
                try {
                    $suspension = EventLoop::getSuspension();
                    $this->waiting[$path] = $suspension;
                    $suspension->suspend();
                } catch (RequestTimedOut $e) {
                    $this->cancelled[] = $path;

                    throw $e;
                }
            }

            if (\str_starts_with($path, '/after')) {
                $context = Loop::context();
                \assert($context !== null);
                $context->defer(function () use ($path): void {
                    $this->entered[] = 'after ' . $path;
                    if ($path === '/after-boom') {
                        throw new \RuntimeException('the terminate step failed');
                    }
                });
            }

            return match ($path) {
                '/boom' => throw new \LogicException('the app failed'),
                '/refuse' => throw new HttpException(422, 'Refused'),
                '/stream' => new Response(200, [], (function (): \Generator {
                    yield 'first';
                    $suspension = EventLoop::getSuspension();
                    $this->waiting['/stream'] = $suspension;
                    $suspension->suspend();
                    yield 'never';
                })()),
                default => new Response(200, ['Content-Type' => 'text/plain'], 'id=' . ($request->header('x-request-id') ?? '-')),
            };
        };
        $handler = new ClosureHandler($app);
        $this->runner = new RequestRunner(
            $requestIds ? RequestPath::build($handler, new RequestIds(), new ErrorResponses($this->logger), null, null, null) : $handler,
            new TaskRunner(Loop::driver()),
            $runnerLogger ?? $this->logger,
            $this->clock,
            new ConcurrencyLimit($concurrency),
            requestTimeout: $timeout,
            timedOut: static fn (string $message): RequestTimedOut => new RequestTimedOut($message),
        );
        $this->set = new ConnectionServices($this->runner, new HttpLimits(), $this->logger, $this->clock, new ResponseSerializer(), \sys_get_temp_dir(), false, new TimeoutWheel($this->start));
    }

    /** @return resource the client end of a new connection */
    private function connect()
    {
        \assert($this->set !== null);
        [$client, $server] = \stream_socket_pair(\STREAM_PF_UNIX, \STREAM_SOCK_STREAM, 0);
        \stream_set_blocking($client, false);
        \stream_set_blocking($server, false);
        $this->pairs[] = [$client, new Http1Connection($server, $this->set, new IgnoredConnectionEvents(), new Peer('127.0.0.1', 50000, '127.0.0.1', 80))];

        return $client;
    }

    /** @param resource $client */
    private function send($client, string $path): void
    {
        \fwrite($client, "GET $path HTTP/1.1\r\nHost: a\r\n\r\n");
        $this->turn();
    }

    private function turn(): void
    {
        EventLoop::delay(0.005, static fn () => EventLoop::getDriver()->stop());
        EventLoop::run();
    }

    private function advanceTo(float $seconds): void
    {
        \assert($this->runner !== null);
        $this->clock->now = $this->start + $seconds;
        $this->runner->expire($this->clock->now);
        $this->turn();
    }

    /** @param resource $client */
    private static function received($client): string
    {
        return (string) \fread($client, 65536);
    }

    public function testAnsweredRequestsLeaveNothingBehind(): void
    {
        $this->start();
        $client = $this->connect();
        $this->send($client, '/');
        self::assertStringEndsWith("\r\n\r\nid=-", self::received($client));
        \assert($this->runner !== null);
        self::assertSame(0, $this->runner->runningCount());
    }

    public function testARequestLeftByItsFiberIsFoundAndAnsweredAndItsSlotGivenBack(): void
    {
        $this->start(concurrency: 1);
        $stranded = $this->connect();
        $this->send($stranded, '/stranded');
        $queued = $this->connect();
        $this->send($queued, '/after');
        \assert($this->runner !== null);
        self::assertSame(['/stranded'], $this->entered, 'the second request waits for the only slot');

        $found = $this->runner->interrupted();
        self::assertCount(1, $found, 'a request waiting for a slot waits in the loop: it is not interrupted');
        self::assertSame('GET /stranded', $found[0]->context->label);

        self::assertTrue($this->runner->abandon($found[0], new Response(200, ['Connection' => 'close'], 'printed so far')));
        $this->turn();
        $answer = self::received($stranded);
        self::assertStringStartsWith('HTTP/1.1 200 OK', $answer);
        self::assertStringEndsWith("\r\n\r\nprinted so far", $answer);
        self::assertSame('', (string) \fread($stranded, 1), 'its connection is closed');
        self::assertTrue(\feof($stranded));
        self::assertStringEndsWith("\r\n\r\nid=-", self::received($queued), 'the slot went to the waiting request');
        self::assertSame(0, $this->runner->runningCount());
        self::assertSame([], $this->runner->interrupted());
    }

    public function testTheOldestRequestTimesOutFirstAndEachGetsA504(): void
    {
        $this->start(timeout: 3.0);
        $first = $this->connect();
        $second = $this->connect();
        $this->send($first, '/wait-1');
        $this->clock->now = $this->start + 1.0;
        $this->send($second, '/wait-2');
        \assert($this->runner !== null);
        self::assertSame(2, $this->runner->runningCount());

        $this->advanceTo(2.95);
        self::assertSame('', self::received($first));
        $this->advanceTo(3.06);
        self::assertStringStartsWith('HTTP/1.1 504 ', self::received($first));
        self::assertSame('', self::received($second), 'the younger request has time left');
        self::assertSame(['/wait-1'], $this->cancelled, 'the timed-out request is cancelled where it waits');
        self::assertSame(1, $this->runner->runningCount());

        $this->advanceTo(4.06);
        self::assertStringStartsWith('HTTP/1.1 504 ', self::received($second));
        self::assertSame(['/wait-1', '/wait-2'], $this->cancelled);
        self::assertSame(0, $this->runner->runningCount());
        self::assertCount(2, $this->logger->messages('warning'));
    }

    public function testAStreamedResponseIsNotCutByTheRequestTimeoutWhichCoversProducingIt(): void
    {
        $this->start(timeout: 3.0);
        $client = $this->connect();
        $this->send($client, '/stream');
        $head = self::received($client);
        self::assertStringStartsWith('HTTP/1.1 200 ', $head);
        self::assertStringContainsString("first\r\n", $head);
        $this->advanceTo(3.06);
        $this->advanceTo(10.0);
        self::assertSame('', self::received($client));
        self::assertFalse(\feof($client), 'the stream goes on past the request timeout');
        self::assertSame([], $this->logger->messages('warning'));
        \assert($this->runner !== null);
        self::assertSame(1, $this->runner->runningCount(), 'it is still under way');
        self::assertSame([], $this->cancelled);
    }

    public function testAnAppThatThrowsGetsA500AndAnErrorLogLine(): void
    {
        $this->start();
        $client = $this->connect();
        $this->send($client, '/boom');
        $response = self::received($client);
        self::assertStringStartsWith('HTTP/1.1 500 ', $response);
        self::assertStringEndsWith("Internal Server Error\n", $response);
        self::assertStringNotContainsString('the app failed', $response, 'no exception text outside debug mode');
        self::assertSame(['GET /boom failed: the app failed'], $this->logger->messages('error'));
        // The connection stays usable.
        $this->send($client, '/');
        self::assertStringEndsWith('id=-', self::received($client));
    }

    public function testALoggerThatFailsLeavesTheFailedRequestItsAnswerAndItsSlotFree(): void
    {
        $this->start(concurrency: 1, runnerLogger: new class () extends AbstractLogger {
            public function log($level, string|\Stringable $message, array $context = []): void
            {
                throw new \RuntimeException('the log is full');
            }
        });
        $client = $this->connect();
        $this->send($client, '/boom');
        self::assertStringStartsWith('HTTP/1.1 500 ', self::received($client));
        // The only slot was given back: the next request runs.
        $this->send($client, '/');
        self::assertStringEndsWith('id=-', self::received($client));
    }

    public function testARefusalIsItsStatusWithoutAnErrorLogLine(): void
    {
        $this->start();
        $client = $this->connect();
        $this->send($client, '/refuse');
        $response = self::received($client);
        self::assertStringStartsWith('HTTP/1.1 422 ', $response);
        self::assertStringEndsWith("Refused\n", $response);
        self::assertSame([], $this->logger->messages('error'));
    }

    public function testConcurrencyLetsTheOthersWaitTheirTurn(): void
    {
        $this->start(concurrency: 1, timeout: 0.0);
        $first = $this->connect();
        $second = $this->connect();
        $this->send($first, '/wait-1');
        $this->send($second, '/wait-2');
        self::assertSame(['/wait-1'], $this->entered, 'the second request waits for the slot');
        $this->waiting['/wait-1']->resume();
        $this->turn();
        self::assertStringEndsWith('id=-', self::received($first));
        self::assertSame(['/wait-1', '/wait-2'], $this->entered);
        $this->waiting['/wait-2']->resume();
        $this->turn();
        self::assertStringEndsWith('id=-', self::received($second));
    }

    public function testTheCountsFollowEachRequestFailedOnesIncluded(): void
    {
        $this->start(concurrency: 1, timeout: 0.0);
        \assert($this->runner !== null);
        $first = $this->connect();
        $second = $this->connect();
        $this->send($first, '/wait-1');
        $this->send($second, '/boom');
        self::assertSame(2, $this->runner->inflightCount(), 'one in the app, one waiting for its slot');
        self::assertSame(0, $this->runner->requestCount());
        $this->waiting['/wait-1']->resume();
        $this->turn();
        self::assertSame(0, $this->runner->inflightCount());
        self::assertSame(2, $this->runner->requestCount());
        self::assertStringStartsWith('HTTP/1.1 500 ', self::received($second));
    }

    public function testTheWorkAfterAResponseRunsBeforeTheNextPipelinedRequest(): void
    {
        $this->start();
        $client = $this->connect();
        \fwrite($client, "GET /after-1 HTTP/1.1\r\nHost: a\r\n\r\nGET /after-boom HTTP/1.1\r\nHost: a\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n");
        $this->turn();
        self::assertSame(['/after-1', 'after /after-1', '/after-boom', 'after /after-boom', '/'], $this->entered);
        self::assertSame(3, \substr_count(self::received($client), 'HTTP/1.1 200 OK'), 'each was answered, the one whose after-work failed included');
        self::assertSame(['GET /after-boom: the work after its response failed: the terminate step failed'], $this->logger->messages('error'));
        \assert($this->runner !== null);
        self::assertSame(0, $this->runner->runningCount());
    }

    public function testEachRequestGetsAnIdThatGoesBackWithItsResponse(): void
    {
        $this->start(requestIds: true);
        $client = $this->connect();
        \fwrite($client, "GET / HTTP/1.1\r\nHost: a\r\nX-Request-Id: given-7\r\n\r\n");
        $this->turn();
        $response = self::received($client);
        self::assertStringContainsString("\r\nX-Request-Id: given-7\r\n", $response);
        self::assertStringEndsWith('id=given-7', $response, 'the app sees the same id');
        $this->send($client, '/');
        self::assertMatchesRegularExpression('/\r\nX-Request-Id: ([^\r]+)\r\n(?s:.*)id=\1$/', self::received($client));
        $this->send($client, '/boom');
        self::assertMatchesRegularExpression('/^HTTP\/1.1 500 .*\r\nX-Request-Id: [^\r]+\r\n/s', self::received($client), 'the 500 that stands for a failing app carries the id too');
    }
}
