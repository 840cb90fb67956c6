<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\RawClient;
use Spindle\Tests\E2E\Support\RawResponse;
use Spindle\Tests\E2E\Support\ServerProcess;

/**
 * A worker's channel to the master carrying lines that are no message: the master logs each one,
 * naming the worker, and goes on reading that channel (the worker's later messages still count)
 * and supervising; no worker is replaced for it.
 */
final class WorkerChannelGarbageTest extends E2ETestCase
{
    public function testTheMasterLogsGarbageFromAWorkerAndKeepsActingOnItsMessages(): void
    {
        // --max-requests: the worker's retire message, sent after the garbage, must still be read.
        $server = ServerProcess::start(ServerProcess::fixture('channel-garbage.php'), ['--workers=1', '--max-requests=20']);
        $worker = $server->workerPids();
        self::assertCount(1, $worker);

        $garbage = self::request($server, '/garbage');
        self::assertSame(200, $garbage->status, $garbage->body);
        self::assertTrue($server->waitForLog('unknown message type', 20.0), $server->stderr());
        $log = $server->stderr();
        self::assertStringContainsString(\sprintf('Worker %d sent a malformed message (ignored): not a JSON object: "this is not a message"', $worker[0]), $log);
        self::assertStringContainsString('unknown message type "nonsense"', $log);
        self::assertStringContainsString('"requests" must be an integer', $log);

        $answer = self::request($server, '/after');
        self::assertSame('ok ' . $worker[0], $answer->body, 'the same worker serves on');
        self::assertTrue($server->isRunning());

        // Up to 22 requests (20 plus the jitter) make the worker ask to be replaced.
        for ($i = 0; $i < 22; ++$i) {
            self::assertSame(200, self::request($server, '/n' . $i)->status);
        }
        self::assertTrue($server->waitForLog(\sprintf('Recycling worker %d (max-requests)', $worker[0]), 20.0), $server->stderr());
        self::assertTrue($server->waitForLog('took over from worker ' . $worker[0], 30.0), $server->stderr());
        self::assertStringNotContainsString('CRITICAL', $server->stderr());
        self::assertSame(0, $server->stop(), $server->stderr());
    }

    private static function request(ServerProcess $server, string $path): RawResponse
    {
        $client = new RawClient($server->port(), 10.0);
        $client->send(self::get($path, "Connection: close\r\n"));

        return $client->readResponse();
    }
}
