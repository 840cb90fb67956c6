<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\RawClient;
use Spindle\Tests\E2E\Support\ServerProcess;

/** Many requests at once in one worker (one fiber each), and several workers on one port. */
final class ConcurrencyTest extends E2ETestCase
{
    public function testFiftyConcurrentSlowRequestsInOneWorker(): void
    {
        $server = self::sharedServer(ServerProcess::fixture('delay.php'), ['--workers=1']);
        self::assertServerAnswers($server, '/warm-up');

        $started = \microtime(true);
        $clients = [];
        for ($i = 0; $i < 50; ++$i) {
            $client = new RawClient($server->port());
            $client->send(self::get("/c{$i}?s=0.1", "Connection: close\r\n"));
            $clients[$i] = $client;
        }
        // Drive all sockets at once until every server has closed its connection.
        $deadline = $started + 5.0;
        $open = $clients;
        while ($open !== [] && \microtime(true) < $deadline) {
            $read = [];
            foreach ($open as $i => $client) {
                $read[$i] = $client->socket();
            }
            $write = $except = null;
            if (@\stream_select($read, $write, $except, 0, 100000) < 1) {
                continue;
            }
            foreach ($read as $i => $_) {
                if ($open[$i]->waitForClose(0.001)) {
                    unset($open[$i]);
                }
            }
        }
        $elapsed = \microtime(true) - $started;
        self::assertSame([], \array_keys($open), 'requests left unanswered');

        $pids = [];
        foreach ($clients as $i => $client) {
            $response = $client->readResponse();
            self::assertSame(200, $response->status);
            $data = $response->json();
            self::assertSame("/c{$i}", $data['path']);
            self::assertGreaterThanOrEqual(0.09, $data['slept']);
            $pids[$data['pid']] = true;
        }
        self::assertCount(1, $pids);
        // One after the other they would take 5 s.
        self::assertLessThan(0.8, $elapsed);
    }

    public function testRequestsOverTheConcurrencyLimitWaitTheirTurn(): void
    {
        $server = self::sharedServer(ServerProcess::fixture('delay.php'), ['--workers=1', '--concurrency=2']);
        self::assertServerAnswers($server, '/warm-up');
        $started = \microtime(true);
        $clients = [];
        for ($i = 0; $i < 6; ++$i) {
            $clients[$i] = new RawClient($server->port());
            $clients[$i]->send(self::get("/q{$i}?s=0.2", "Connection: close\r\n"));
        }
        foreach ($clients as $i => $client) {
            $response = $client->readResponse();
            self::assertSame(200, $response->status);
            self::assertSame("/q{$i}", $response->json()['path']);
        }
        // Two at a time: three rounds of 0.2 s.
        $elapsed = \microtime(true) - $started;
        self::assertGreaterThanOrEqual(0.55, $elapsed);
        self::assertLessThan(1.5, $elapsed);
    }

    public function testHandlerBlockingTheLoopIsReported(): void
    {
        $server = self::sharedServer(ServerProcess::fixture('delay.php'), ['--workers=1', '--block-threshold=0.1']);
        self::assertServerAnswers($server, '/blocker?block=0.25');
        self::assertTrue($server->waitForLog('GET /blocker blocked the event loop for', 2.0), $server->stderr());
        self::assertServerAnswers($server, '/polite?s=0.25');
        self::assertStringNotContainsString('/polite', $server->stderr());
    }

    public function testTwoWorkersShareThePort(): void
    {
        $server = self::sharedServer(ServerProcess::fixture('delay.php'), ['--workers=2']);
        $workers = $server->workerPids();
        self::assertCount(2, $workers);

        $seen = [];
        for ($i = 0; $i < 60 && \count($seen) < 2; ++$i) {
            $seen[self::assertServerAnswers($server, '/who')->json()['pid']] = true;
        }
        $pids = \array_keys($seen);
        \sort($pids);
        self::assertSame($workers, $pids, 'both workers answer connections');
        self::assertNotContains($server->pid(), $pids, 'the master does not serve requests');
    }
}
