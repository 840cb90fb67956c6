<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\HttpClient;

use GuzzleHttp\Client;
use GuzzleHttp\HandlerStack;
use GuzzleHttp\Promise\CancellationException;
use GuzzleHttp\Promise\PromiseInterface;
use GuzzleHttp\Promise\Utils;
use GuzzleHttp\Psr7\Request as PsrRequest;
use PHPUnit\Framework\TestCase;
use Revolt\EventLoop;
use Spindle\HttpClient\Guzzle\SpindleHandler;
use Spindle\HttpClient\HttpClient;
use Spindle\Loop\Context;
use Spindle\Loop\Loop;
use Spindle\Loop\TaskCancelled;

/**
 * A cancelled Guzzle request stops: its connection is closed, nothing is thrown onto the event
 * loop afterwards (its error handler sees nothing), and the requests after it work. The same when
 * the server request that started it ends without waiting for it, or is cancelled (its timeout)
 * while it waits for it.
 */
final class GuzzleCancellationTest extends TestCase
{
    private static ?FakeServer $server = null;
    /** @var list<\Throwable> what reached the loop's error handler */
    private array $loopErrors = [];
    private ?\Closure $previousHandler = null;

    public static function setUpBeforeClass(): void
    {
        self::$server = FakeServer::start();
    }

    public static function tearDownAfterClass(): void
    {
        self::$server?->stop();
        self::$server = null;
    }

    protected function setUp(): void
    {
        $this->previousHandler = EventLoop::getErrorHandler();
        EventLoop::setErrorHandler(function (\Throwable $e): void {
            $this->loopErrors[] = $e;
        });
    }

    protected function tearDown(): void
    {
        EventLoop::setErrorHandler($this->previousHandler);
    }

    private static function url(string $path): string
    {
        return self::$server?->url($path) ?? '';
    }

    /** Runs the loop for $seconds: whatever a cancelled request would still do happens meanwhile. */
    private static function runLoopFor(float $seconds): void
    {
        $suspension = EventLoop::getSuspension();
        EventLoop::delay($seconds, static fn () => $suspension->resume());
        $suspension->suspend();
    }

    private function assertLoopSawNothing(): void
    {
        self::assertSame([], \array_map(static fn (\Throwable $e): string => $e::class . ': ' . $e->getMessage(), $this->loopErrors), "Errors were thrown onto the event loop");
    }

    public function testCancelledPromisesStopTheirRequests(): void
    {
        $ours = new HttpClient();
        $handler = new SpindleHandler($ours);
        // Before they start, and while they wait for the answer (1 s away).
        $promises = [];
        for ($i = 0; $i < 10; ++$i) {
            $promises[] = $promise = $handler(new PsrRequest('GET', self::url('/delay?ms=1000')), []);
            if ($i % 2 === 0) {
                $promise->cancel();
            }
        }
        self::runLoopFor(0.2);
        self::assertSame(5, $ours->pool->stats()['open'], 'five requests are waiting for their answers');
        foreach ($promises as $promise) {
            $promise->cancel();
        }
        foreach ($promises as $promise) {
            self::assertSame(PromiseInterface::REJECTED, $promise->getState());
            try {
                $promise->wait();
                self::fail('a cancelled promise has no response');
            } catch (CancellationException) {
            }
        }
        self::runLoopFor(1.2);
        self::assertSame(['open' => 0, 'idle' => 0], $ours->pool->stats(), 'the cancelled requests closed their connections');
        $this->assertLoopSawNothing();

        // The requests after them work.
        $client = new Client(['handler' => HandlerStack::create($handler)]);
        $responses = Utils::unwrap([$client->getAsync(self::url('/hello')), $client->getAsync(self::url('/hello'))]);
        self::assertSame(['hello', 'hello'], \array_map(static fn ($r): string => (string) $r->getBody(), $responses));
        self::assertSame('hello', (string) $client->get(self::url('/hello'))->getBody());
        $this->assertLoopSawNothing();
    }

    public function testCancellingFinishedOrSynchronousRequestsChangesNothing(): void
    {
        $handler = new SpindleHandler(new HttpClient());
        $done = $handler(new PsrRequest('GET', self::url('/hello')), []);
        $done->wait();
        $done->cancel();
        self::assertSame(PromiseInterface::FULFILLED, $done->getState());
        $sync = $handler(new PsrRequest('GET', self::url('/hello')), ['sync' => true]);
        self::assertSame(PromiseInterface::FULFILLED, $sync->getState(), 'a synchronous request is settled when the handler returns, as with CurlHandler');
        $sync->cancel();
        self::assertSame(PromiseInterface::FULFILLED, $sync->getState());
        self::runLoopFor(0.05);
        $this->assertLoopSawNothing();
    }

    /**
     * Spindle's loop driver (tasks with contexts) is installed before the loop first runs: in a
     * process of its own.
     *
     * @runInSeparateProcess
     *
     * @preserveGlobalState disabled
     */
    public function testARequestThatEndsCancelsWhatItStartedAndNeverWaitedFor(): void
    {
        Loop::driver();
        $ours = new HttpClient();
        $handler = new SpindleHandler($ours);
        $promise = null;
        Loop::startChild(new Context('GET /fire-and-forget'), static function () use ($handler, &$promise): void {
            $promise = $handler(new PsrRequest('GET', self::url('/delay?ms=1000')), []);
            self::runLoopFor(0.2); // the request is on its way
        });
        self::runLoopFor(0.4);
        self::assertInstanceOf(PromiseInterface::class, $promise);
        self::assertSame(PromiseInterface::REJECTED, $promise->getState(), 'the request ended: what it started was cancelled');
        self::runLoopFor(1.0);
        self::assertSame(['open' => 0, 'idle' => 0], $ours->pool->stats());
        $this->assertLoopSawNothing();
    }

    /**
     * Spindle's loop driver (tasks with contexts) is installed before the loop first runs: in a
     * process of its own.
     *
     * @runInSeparateProcess
     *
     * @preserveGlobalState disabled
     */
    public function testARequestCancelledWhileItWaitsCancelsWhatItWaitsFor(): void
    {
        Loop::driver();
        $ours = new HttpClient();
        $client = new Client(['handler' => HandlerStack::create(new SpindleHandler($ours))]);
        $task = new Context('GET /slow');
        $caught = null;
        Loop::startChild($task, static function () use ($client, &$caught): void {
            try {
                Utils::unwrap([$client->getAsync(self::url('/delay?ms=1000'))]);
            } catch (\Throwable $e) {
                $caught = $e;
            }
        });
        self::runLoopFor(0.2);
        self::assertTrue(Loop::cancel($task, new TaskCancelled('GET /slow: the request timed out')));
        self::runLoopFor(0.1);
        self::assertInstanceOf(TaskCancelled::class, $caught);
        self::assertSame(0, $ours->pool->stats()['open'], 'the transfer it waited for was cancelled with it');
        self::runLoopFor(1.0);
        self::assertSame(['open' => 0, 'idle' => 0], $ours->pool->stats());
        $this->assertLoopSawNothing();
    }
}
