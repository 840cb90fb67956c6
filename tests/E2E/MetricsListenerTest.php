<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\RawClient;
use Spindle\Tests\E2E\Support\ServerProcess;

/**
 * The master's --metrics listener against clients that connect and send nothing: they cannot
 * lock out a scrape or a probe (the oldest idle connection makes room for a new one), and they
 * are closed after a few seconds.
 */
final class MetricsListenerTest extends E2ETestCase
{
    public function testSixtyFourIdleConnectionsDoNotLockOutMetricsOrHealth(): void
    {
        $server = ServerProcess::start(ServerProcess::fixture('echo.php'), ['--metrics=127.0.0.1:0', '--health-path=/healthz', '--ready-path=/readyz']);
        self::assertTrue($server->waitForLog('Metrics on http://', 5.0), $server->stderr());
        self::assertSame(1, \preg_match('#Metrics on http://127\.0\.0\.1:(\d+)/metrics#', $server->stderr(), $m));
        $port = (int) $m[1];

        $idle = [];
        for ($i = 0; $i < 64; ++$i) {
            $idle[] = new RawClient($port, 10.0);
        }
        $timings = [];
        foreach (['/metrics', '/healthz', '/readyz'] as $path) {
            // A generous client timeout: the answer must come; how fast is reported, not asserted.
            $start = \microtime(true);
            $client = new RawClient($port, 10.0);
            $client->send("GET {$path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
            $response = $client->readResponse();
            $timings[] = \sprintf('%s %.0f ms', $path, (\microtime(true) - $start) * 1000);
            self::assertSame(200, $response->status, $path);
            self::assertStringContainsString(['/metrics' => 'spindle_ready 1', '/healthz' => 'ok', '/readyz' => 'ready'][$path], $response->body);
            $client->close();
        }

        // Every idle connection is closed: the oldest to make room, the rest after the idle timeout.
        foreach ($idle as $i => $client) {
            self::assertTrue($client->waitForClose(30.0), "idle connection {$i} was never closed");
            self::assertSame('', $client->buffered(), 'closed without an answer');
        }
        self::assertTrue($server->isRunning());
        \fwrite(\STDERR, \sprintf("\n[metrics listener, 64 idle connections] %s\n", \implode(', ', $timings)));
    }
}
