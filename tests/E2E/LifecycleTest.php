<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\RawClient;
use Spindle\Tests\E2E\Support\ServerProcess;

/** Graceful stop, worker restarts and failures at start-up. Each test runs its own server. */
final class LifecycleTest extends E2ETestCase
{
    public function testSigtermDrainsInFlightRequestsAndExitsZero(): void
    {
        $server = ServerProcess::start(ServerProcess::fixture('delay.php'), ['--workers=2']);
        $port = $server->port();

        // An idle keep-alive connection and a request that takes one second.
        $idle = new RawClient($port);
        $idle->send(self::get('/idle'));
        self::assertSame(200, $idle->readResponse()->status);
        $slow = new RawClient($port);
        $slow->send(self::get('/slow?s=1&announce=1'));
        self::assertTrue($server->waitForLog('delay-app started /slow', 3.0), $server->stderr());

        $signalled = \microtime(true);
        $server->signal(\SIGTERM);

        // New connections are refused once the workers have closed their listeners.
        $refused = self::eventually(static function () use ($port): bool {
            $client = RawClient::tryConnect($port, 0.5);
            if ($client === null) {
                return true;
            }
            $client->close();

            return false;
        }, 3.0);
        self::assertTrue($refused, 'the server still accepts connections after SIGTERM');
        self::assertLessThan(0.9, \microtime(true) - $signalled, 'listeners closed only after the drain');

        // The idle connection is closed; the slow request still completes.
        self::assertTrue($idle->waitForClose(2.0), 'idle connection kept open while draining');
        $response = $slow->readResponse(timeout: 5.0);
        self::assertSame(200, $response->status);
        self::assertSame('/slow', $response->json()['path']);
        self::assertGreaterThanOrEqual(0.95, $response->json()['slept']);
        self::assertSame('close', $response->header('connection'));
        self::assertTrue($slow->waitForClose(2.0));

        self::assertSame(0, $server->waitForExit(5.0), $server->stderr());
        self::assertStringNotContainsString('ERROR', $server->stderr());
        self::assertStringNotContainsString('CRITICAL', $server->stderr());
    }

    public function testCtrlCAtATerminalDrainsGracefully(): void
    {
        // A terminal sends SIGINT to every process of the foreground group: the master and
        // each worker. That is one stop request, not two.
        $server = ServerProcess::start(ServerProcess::fixture('delay.php'), ['--workers=2']);
        $slow = new RawClient($server->port());
        $slow->send(self::get('/slow?s=1&announce=1'));
        self::assertTrue($server->waitForLog('delay-app started /slow', 3.0), $server->stderr());

        $workers = $server->workerPids();
        self::assertCount(2, $workers);
        foreach ($workers as $worker) {
            \posix_kill($worker, \SIGINT);
        }
        $server->signal(\SIGINT);

        $response = $slow->readResponse(timeout: 5.0);
        self::assertSame(200, $response->status);
        self::assertSame('/slow', $response->json()['path']);
        self::assertSame(0, $server->waitForExit(5.0), $server->stderr());
    }

    public function testDrainTimeoutEndsRequestsThatTakeTooLong(): void
    {
        $server = ServerProcess::start(ServerProcess::fixture('delay.php'), ['--drain-timeout=1']);
        $slow = new RawClient($server->port());
        $slow->send(self::get('/endless?s=60&announce=1'));
        self::assertTrue($server->waitForLog('delay-app started /endless', 3.0), $server->stderr());

        $signalled = \microtime(true);
        $server->signal(\SIGTERM);
        self::assertTrue($slow->waitForClose(4.0), 'the request outlived the drain timeout');
        self::assertGreaterThan(0.9, \microtime(true) - $signalled);
        self::assertNotNull($server->waitForExit(3.0), 'a request waiting on a timer kept the worker alive');
        self::assertLessThan(4.0, \microtime(true) - $signalled);
        self::assertStringContainsString('Drain timeout', $server->stderr());
    }

    public function testSecondSignalStopsImmediately(): void
    {
        $server = ServerProcess::start(ServerProcess::fixture('delay.php'));
        $slow = new RawClient($server->port());
        $slow->send(self::get('/very-slow?s=30&announce=1'));
        self::assertTrue($server->waitForLog('delay-app started /very-slow', 3.0), $server->stderr());

        $server->signal(\SIGTERM);
        self::assertNull($server->waitForExit(0.3), 'the first signal waits for the request');
        $server->signal(\SIGTERM);
        $code = $server->waitForExit(3.0);
        self::assertNotNull($code, 'a second signal must stop the server promptly');
        self::assertTrue($slow->waitForClose(1.0));
    }

    public function testKilledWorkerIsReplaced(): void
    {
        $server = ServerProcess::start(ServerProcess::fixture('delay.php'), ['--workers=1']);
        $before = self::assertServerAnswers($server, '/pid')->json()['pid'];
        self::assertSame([$before], $server->workerPids());

        \posix_kill($before, \SIGKILL);

        $after = null;
        $answered = self::eventually(static function () use ($server, $before, &$after): bool {
            $client = RawClient::tryConnect($server->port(), 0.5);
            if ($client === null) {
                return false;
            }
            try {
                $client->send(self::get('/pid', "Connection: close\r\n"));
                $response = $client->readResponse(timeout: 1.0);
            } catch (\RuntimeException) {
                return false;
            }
            $after = $response->json()['pid'];

            return $response->status === 200 && $after !== $before;
        }, 5.0);
        self::assertTrue($answered, 'no new worker answered: ' . $server->stderr());
        self::assertSame([$after], $server->workerPids());
        self::assertTrue($server->waitForLog("Worker {$before} was killed by signal 9", 1.0), $server->stderr());

        // The replacement keeps serving, and the server still stops cleanly.
        self::assertServerAnswers($server, '/again');
        self::assertSame(0, $server->stop());
    }

    public function testBootFailureExitsNonZeroWithTheErrorOnStderr(): void
    {
        $server = ServerProcess::launch(ServerProcess::fixture('boot-failure.php'), ['--workers=2']);
        $code = $server->waitForExit(10.0);
        self::assertNotNull($code, 'the server kept running although the app cannot load');
        self::assertNotSame(0, $code);
        self::assertStringContainsString('Fixture boot failure: cannot reach the configuration service', $server->stderr());
        self::assertStringNotContainsString('listening', $server->stdout());
    }

    public function testAppFileReturningSomethingElseFailsAtBoot(): void
    {
        $server = ServerProcess::launch(ServerProcess::fixture('not-a-handler.php'));
        $code = $server->waitForExit(10.0);
        self::assertNotNull($code);
        self::assertNotSame(0, $code);
        self::assertStringContainsString('must return a Psr\Http\Server\RequestHandlerInterface, a Spindle\Http\RequestHandler or a Closure, it returned int', $server->stderr());
        self::assertStringNotContainsString('listening', $server->stdout());
    }

    public function testMissingAppFileIsReportedOnStderr(): void
    {
        $server = ServerProcess::launch(ServerProcess::fixture('does-not-exist.php'));
        $code = $server->waitForExit(10.0);
        self::assertSame(2, $code);
        self::assertStringContainsString('does-not-exist.php does not exist', $server->stderr());
        self::assertStringNotContainsString('listening', $server->stdout());
    }

    public function testInvalidOptionIsReportedOnStderr(): void
    {
        $server = ServerProcess::launch(ServerProcess::fixture('delay.php'), ['--workers=0']);
        self::assertSame(2, $server->waitForExit(10.0));
        self::assertStringContainsString('--workers must be at least 1', $server->stderr());
    }
}
