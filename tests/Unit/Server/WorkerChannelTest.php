<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Server;

use PHPUnit\Framework\TestCase;
use Revolt\EventLoop;
use Spindle\Http\Request;
use Spindle\Server\ChannelToMaster;
use Spindle\Server\RetireReason;
use Spindle\Server\ServerOptions;
use Spindle\Server\Worker;

use function Spindle\delay;

/** The worker's side of the channel to the master: ready, reports, retire, boot-error, master gone. */
final class WorkerChannelTest extends TestCase
{
    /**
     * The app most tests serve: /sleep?s= waits (and makes $sleeping happen as it starts), /spin?s=
     * computes without yielding, anything else answers at once.
     */
    private static function app(?Awaited $sleeping = null): \Closure
    {
        return static function (Request $request) use ($sleeping): string {
            \parse_str($request->query, $query);
            $seconds = \is_numeric($query['s'] ?? null) ? (float) $query['s'] : 0.0;
            if ($request->path === '/sleep') {
                $sleeping?->happen();
                delay($seconds);
            } elseif ($request->path === '/spin') {
                $until = \microtime(true) + $seconds;
                while (\microtime(true) < $until) {
                    // Holds the loop.
                }
            }

            return 'done ' . $request->path;
        };
    }

    public function testReadyThenAReportEverySecondWithCountersAndLag(): void
    {
        $responses = [];
        $sleeping = new Awaited('/sleep to start');
        $worker = InProcessWorker::run(new ServerOptions('app.php'), self::app($sleeping), static function (int $port, InProcessWorker $worker) use (&$responses, $sleeping): void {
            $sleeper = LoopClient::connect($port);
            $sleeper->get('/sleep?s=1.6');
            // /spin holds the loop while /sleep is in flight.
            $sleeping->wait();
            $spinner = LoopClient::connect($port);
            $spinner->get('/spin?s=0.3');
            $responses[] = $spinner->readResponse()?->body;
            $spinner->close();
            $responses[] = $sleeper->readResponse(3.0)?->body;
            // Until the second report (the worker sends one a second), however busy the machine.
            $worker->waitForMessages('report', 2, 6.0);
        }, 10.0);

        self::assertSame(['done /spin', 'done /sleep'], $responses);
        self::assertSame(['type' => 'ready'], $worker->messages[0][1]);
        self::assertSame('{"type":"ready"}', $worker->messages[0][2]);
        $reports = [];
        foreach ($worker->messages as [$at, $message, $line]) {
            if ($message['type'] === 'report') {
                $reports[] = [$at, $message];
                self::assertSame(['type', 'requests', 'inflight', 'connections', 'memory', 'peak', 'lag', 'db', 'ws'], \array_keys($message), $line);
                foreach (['requests', 'inflight', 'connections', 'memory', 'peak'] as $key) {
                    self::assertIsInt($message[$key], $line);
                }
                self::assertIsFloat($message['lag'], $line);
                self::assertGreaterThan(0, $message['memory']);
                self::assertGreaterThanOrEqual($message['memory'], $message['peak']);
            }
        }
        self::assertCount(2, $reports, 'one report a second, while a request waits too');
        // A report a second: loose bounds, as a loaded machine delays timers.
        self::assertEqualsWithDelta(1.0, $reports[0][0], 0.5);
        self::assertEqualsWithDelta(1.0, $reports[1][0] - $reports[0][0], 0.5);

        [, $first] = $reports[0];
        self::assertSame(1, $first['requests'], '/spin was served');
        self::assertSame(1, $first['inflight'], '/sleep was waiting');
        self::assertSame(1, $first['connections']);
        self::assertGreaterThan(0.15, $first['lag'], '/spin held the loop for 0.3 s');
        [, $second] = $reports[1];
        self::assertSame(2, $second['requests']);
        self::assertSame(0, $second['inflight']);
        self::assertLessThan(0.25, $second['lag'], 'the lag is the worst since the previous report (not /spin\'s 0.3 s again)');
    }

    public function testAsksToRetireOnceAfterMaxRequestsPlusJitterAndKeepsServing(): void
    {
        $statuses = [];
        $retiredAfter = null;
        $worker = InProcessWorker::run(new ServerOptions('app.php', maxRequests: 20), self::app(), static function (int $port, InProcessWorker $worker) use (&$statuses, &$retiredAfter): void {
            $client = LoopClient::connect($port);
            for ($i = 1; $i <= 25; ++$i) {
                $client->get('/n' . $i);
                $statuses[] = $client->readResponse()?->status;
                // The worker writes its retire message before that response: it is already here.
                if ($retiredAfter === null && $worker->ofType('retire') !== []) {
                    $retiredAfter = $i;
                }
            }
        });

        $limit = $worker->worker->requestLimit();
        self::assertGreaterThanOrEqual(20, $limit);
        self::assertLessThanOrEqual(22, $limit);
        self::assertSame(\array_fill(0, 25, 200), $statuses, 'it keeps serving after asking');
        self::assertSame($limit, $retiredAfter);
        self::assertSame([['type' => 'retire', 'reason' => 'max-requests']], $worker->ofType('retire'), 'asked once');
    }

    public function testJitterIsUpToTenPercentAndDrawnPerWorker(): void
    {
        $limits = [];
        for ($i = 0; $i < 200; ++$i) {
            $limits[] = (new Worker(new ServerOptions('app.php', maxRequests: 100), new MemoryLogger()))->requestLimit();
        }
        self::assertGreaterThanOrEqual(100, \min($limits));
        self::assertLessThanOrEqual(110, \max($limits));
        self::assertGreaterThan(3, \count(\array_unique($limits)), 'workers do not all recycle together');
        self::assertSame(0, (new Worker(new ServerOptions('app.php'), new MemoryLogger()))->requestLimit(), 'off by default');
        self::assertSame(1, (new Worker(new ServerOptions('app.php', maxRequests: 1), new MemoryLogger()))->requestLimit(), 'no jitter under 10');
    }

    public function testAsksToRetireOnceWhenMemoryPassesTheLimit(): void
    {
        $statuses = [];
        $retiredAfter = null;
        // Any PHP process uses more than 1 MiB.
        $worker = InProcessWorker::run(new ServerOptions('app.php', maxMemory: 1), self::app(), static function (int $port, InProcessWorker $worker) use (&$statuses, &$retiredAfter): void {
            $client = LoopClient::connect($port);
            for ($i = 1; $i <= 3; ++$i) {
                $client->get('/m' . $i);
                $statuses[] = $client->readResponse()?->status;
                if ($retiredAfter === null && $worker->ofType('retire') !== []) {
                    $retiredAfter = $i;
                }
            }
        });

        self::assertSame([200, 200, 200], $statuses);
        self::assertSame(1, $retiredAfter, 'checked after each request');
        self::assertSame([['type' => 'retire', 'reason' => 'max-memory']], $worker->ofType('retire'));
    }

    public function testNoRetireWithoutLimits(): void
    {
        $worker = InProcessWorker::run(new ServerOptions('app.php'), self::app(), static function (int $port): void {
            $client = LoopClient::connect($port);
            for ($i = 1; $i <= 5; ++$i) {
                $client->get('/x');
                $client->readResponse();
            }
        });

        self::assertSame([], $worker->ofType('retire'));
    }

    public function testTheWorkerDrainsAndStopsWhenTheMasterIsGone(): void
    {
        $late = null;
        $refused = false;
        $started = \microtime(true);
        $sleeping = new Awaited('/sleep to start');
        $worker = InProcessWorker::run(new ServerOptions('app.php'), self::app($sleeping), static function (int $port, InProcessWorker $worker) use (&$late, &$refused, $sleeping): void {
            $client = LoopClient::connect($port);
            $client->get('/sleep?s=0.4');
            // The request is in flight when the master goes.
            $sleeping->wait();
            $gone = $worker->logger->awaited('warning', 'The master process is gone: stopping');
            // The harness closes the master's end when this script returns: read on in another fiber.
            EventLoop::queue(static function () use ($client, $port, $gone, &$late, &$refused): void {
                // The worker saw the master go (and stopped accepting at once).
                $gone->wait();
                try {
                    LoopClient::connect($port);
                } catch (\RuntimeException) {
                    $refused = true;
                }
                $late = $client->readResponse();
            });
        });

        self::assertLessThan(2.0, \microtime(true) - $started, 'serve() returned once drained');
        self::assertNotNull($late, 'the request in flight was finished');
        self::assertSame(200, $late->status);
        self::assertSame('close', $late->headers['connection'] ?? null);
        self::assertTrue($refused, 'no new connections');
        self::assertContains('The master process is gone: stopping', $worker->logger->messages('warning'));
    }

    public function testSendingToAMasterThatIsGoneFailsQuietlyAndCountsAsGone(): void
    {
        [$workerEnd, $masterEnd] = self::pair();
        $channel = new ChannelToMaster($workerEnd);
        $gone = 0;
        $channel->onClosed(static function () use (&$gone): void {
            ++$gone;
        });
        \fclose($masterEnd);

        self::assertFalse($channel->report(1, 0, 0, 1, 1, 0.0));
        self::assertTrue($channel->isClosed());
        self::assertFalse($channel->ready());
        EventLoop::run();
        self::assertSame(1, $gone);
        $channel->detach();
    }

    public function testEndOfStreamOnTheChannelMeansTheMasterIsGone(): void
    {
        [$workerEnd, $masterEnd] = self::pair();
        $channel = new ChannelToMaster($workerEnd);
        $gone = false;
        // The watcher does not keep the loop alive: this referenced timer does, until the
        // channel sees the end (at most 5 s).
        $deadline = EventLoop::delay(5.0, static fn () => null);
        $channel->onClosed(static function () use (&$gone, $deadline): void {
            $gone = true;
            EventLoop::cancel($deadline);
        });
        EventLoop::queue(static function () use ($masterEnd): void {
            \fwrite($masterEnd, "ignored\n");
            \fclose($masterEnd);
        });
        EventLoop::run();

        self::assertTrue($gone);
        self::assertTrue($channel->isClosed());
    }

    public function testMessageFormats(): void
    {
        [$workerEnd, $masterEnd] = self::pair();
        $channel = new ChannelToMaster($workerEnd);
        $channel->bootFailed(new \RuntimeException("Cannot load app.php: \xff"));
        $channel->ready();
        $channel->bootFailed(new \RuntimeException('after ready: not sent'));
        $channel->report(7, 2, 3, 4194304, 6291456, 0.0);
        $channel->report(7, 2, 3, 4194304, 6291456, 0.25);
        $channel->retire(RetireReason::MaxMemory);
        $channel->retire(RetireReason::MaxRequests);

        self::assertSame(
            '{"type":"boot-error","message":"RuntimeException: Cannot load app.php: \\ufffd"}' . "\n"
            . '{"type":"ready"}' . "\n"
            . '{"type":"report","requests":7,"inflight":2,"connections":3,"memory":4194304,"peak":6291456,"lag":0.0,"db":[0,0,0],"ws":0}' . "\n"
            . '{"type":"report","requests":7,"inflight":2,"connections":3,"memory":4194304,"peak":6291456,"lag":0.25,"db":[0,0,0],"ws":0}' . "\n"
            . '{"type":"retire","reason":"max-memory"}' . "\n",
            (string) \stream_get_contents($masterEnd, -1, -1),
        );
        $channel->detach();
    }

    /** @return array{resource, resource} */
    private static function pair(): array
    {
        $pair = \stream_socket_pair(\STREAM_PF_UNIX, \STREAM_SOCK_STREAM, \STREAM_IPPROTO_IP);
        self::assertNotFalse($pair);
        \stream_set_blocking($pair[1], false);

        return [$pair[0], $pair[1]];
    }
}
