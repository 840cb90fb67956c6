<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\RawClient;
use Spindle\Tests\E2E\Support\RawResponse;
use Spindle\Tests\E2E\Support\ServerProcess;
use Spindle\Tests\Unit\Metrics\PrometheusParser;

/**
 * --access-log, --metrics, --health-path and --ready-path on a running server: the log lines,
 * the request ids, the reopen on SIGUSR1, the metrics read by a Prometheus parser, the
 * readiness that turns 503 as soon as a graceful stop begins, and `status --json`.
 */
final class ProductionTest extends E2ETestCase
{
    private string $dir = '';

    protected function setUp(): void
    {
        $this->dir = \sys_get_temp_dir() . '/spindle-production-' . \getmypid() . '-' . \bin2hex(\random_bytes(3));
        \mkdir($this->dir);
    }

    protected function tearDown(): void
    {
        \exec('rm -rf ' . \escapeshellarg($this->dir));
    }

    private static function metricsPort(ServerProcess $server): int
    {
        self::assertTrue($server->waitForLog('Metrics on http://', 5.0), $server->stderr());
        self::assertSame(1, \preg_match('#Metrics on http://127\.0\.0\.1:(\d+)/metrics#', $server->stderr(), $m));

        return (int) $m[1];
    }

    /** @return array{int, string} status and body of GET $path on the metrics listener */
    private static function fetch(int $port, string $path): array
    {
        $client = new RawClient($port);
        $client->send("GET {$path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
        $response = $client->readResponse();
        $client->close();

        return [$response->status, $response->body];
    }

    /** @return list<array<string, mixed>> */
    private static function jsonLines(string $file): array
    {
        $lines = [];
        foreach (\file($file, \FILE_IGNORE_NEW_LINES) ?: [] as $line) {
            $decoded = \json_decode($line, true);
            self::assertIsArray($decoded, 'every line is JSON: ' . $line);
            $lines[] = $decoded;
        }

        return $lines;
    }

    public function testAccessLogMetricsHealthAndStatus(): void
    {
        $log = $this->dir . '/access.log';
        $pidFile = $this->dir . '/spindle.pid';
        $server = ServerProcess::start(ServerProcess::fixture('echo.php'), [
            '--workers=2', '--access-log=' . $log, '--access-log-format=json', '--metrics=127.0.0.1:0',
            '--health-path=/healthz', '--ready-path=/readyz', '--pid-file=' . $pidFile,
        ]);
        $metricsPort = self::metricsPort($server);

        $client = new RawClient($server->port());
        for ($i = 0; $i < 10; ++$i) {
            $client->send(self::get('/item/' . $i . '?q=' . $i, $i === 0 ? "X-Request-Id: from-the-client\r\nUser-Agent: e2e/1\r\n" : "User-Agent: e2e/1\r\n"));
            $response = $client->readResponse();
            self::assertSame(200, $response->status);
            $id = $response->header('x-request-id');
            self::assertNotNull($id);
            $seen = $response->json();
            self::assertSame([$id], $seen['headers']['x-request-id'] ?? $seen['headers']['X-Request-Id'] ?? null, 'the app got the id');
            if ($i === 0) {
                self::assertSame('from-the-client', $id);
            }
        }
        $client->send(self::get('/healthz'));
        self::assertSame(200, $client->readResponse()->status);
        $client->send(self::get('/readyz'));
        self::assertSame('ready', \trim($client->readResponse()->body));
        $client->close();

        self::assertTrue(self::eventually(static fn (): bool => \count(\file($log) ?: []) >= 10, 3.0), 'the lines are flushed within a second');
        $lines = self::jsonLines($log);
        self::assertCount(10, $lines, 'one line per request; the health paths are not logged');
        self::assertSame('from-the-client', $lines[0]['request_id']);
        self::assertSame(['/item/0', 'q=0', 200, '127.0.0.1', 'e2e/1'], [$lines[0]['path'], $lines[0]['query'], $lines[0]['status'], $lines[0]['remote_addr'], $lines[0]['user_agent']]);
        self::assertContains($lines[0]['pid'], $server->workerPids());

        // logrotate: move the file away, SIGUSR1 to the master, the next line goes to a new file.
        \rename($log, $log . '.1');
        $server->signal(\SIGUSR1);
        // Until the signal reaches a worker, its lines still go to the moved file (as with nginx):
        // each attempt has a path of its own, and those found in the new file are not in the old.
        $attempt = 0;
        $reopened = [];
        self::assertTrue(self::eventually(static function () use ($server, $log, &$attempt, &$reopened): bool {
            self::assertServerAnswers($server, '/after-rotation/' . ++$attempt);
            \preg_match_all('~/after-rotation/(\d+)"~', \is_file($log) ? (string) \file_get_contents($log) : '', $m);
            $reopened = $m[1];

            return $reopened !== [];
        }, 5.0), 'the workers reopened the log');
        $before = (string) \file_get_contents($log . '.1');
        foreach ($reopened as $n) {
            self::assertStringNotContainsString('/after-rotation/' . $n . '"', $before, 'a line is written to one file');
        }
        self::assertSame(2, \count($server->workerPids()), 'SIGUSR1 ended no worker');

        // Metrics: the master's sum over both workers, read by a Prometheus parser.
        $samples = [];
        self::assertTrue(self::eventually(static function () use ($metricsPort, &$samples): bool {
            [$status, $body] = self::fetch($metricsPort, '/metrics');
            self::assertSame(200, $status);
            $samples = PrometheusParser::parse($body);

            return (float) ($samples['spindle_http_requests_total{method="GET",status="2xx"}'] ?? 0) >= 11;
        }, 5.0), 'the requests are counted within a report or two: ' . \json_encode($samples));
        self::assertGreaterThanOrEqual(11.0, (float) $samples['spindle_http_request_duration_seconds_count']);
        self::assertSame(1.0, (float) $samples['spindle_ready']);
        self::assertSame(0.0, (float) $samples['spindle_worker_restarts_total{reason="crash"}']);
        self::assertArrayHasKey('spindle_event_loop_lag_seconds_bucket{le="+Inf"}', $samples);
        self::assertSame('gauge', $samples['# TYPE spindle_worker_memory_bytes']);
        self::assertSame([200, "ok\n"], self::fetch($metricsPort, '/healthz'));
        self::assertSame([200, "ready\n"], self::fetch($metricsPort, '/readyz'));

        $status = self::spindleJson(['status', '--pid-file=' . $pidFile, '--json']);
        self::assertTrue($status['ready']);
        self::assertTrue($status['live']);
        self::assertSame(2, $status['ready_workers']);
        self::assertSame('http://127.0.0.1:' . $metricsPort . '/metrics', $status['metrics']);
        self::assertSame(0, $server->stop());
    }

    public function testAFailedRequestIsLoggedWithItsStatusAndItsIdGoesBack(): void
    {
        $log = $this->dir . '/access.log';
        $server = ServerProcess::start(ServerProcess::fixture('throwing.php'), ['--access-log=' . $log, '--trusted-proxies=127.0.0.1']);
        $response = self::rawRequest($server, self::get('/boom', "X-Forwarded-For: 198.51.100.4\r\nX-Request-Id: failing-1\r\nConnection: close\r\n"));
        self::assertSame(500, $response->status);
        self::assertSame('failing-1', $response->header('x-request-id'), 'the 500 the server made carries the id');
        self::assertTrue(self::eventually(static fn (): bool => (string) @\file_get_contents($log) !== '', 3.0));
        self::assertMatchesRegularExpression(
            '#^198\.51\.100\.4 - - \[[^\]]+\] "GET /boom HTTP/1\.1" 500 0 "-" "-" "failing-1" \d+ \d+\n$#',
            (string) \file_get_contents($log),
            'combined by default, the client address from the trusted proxy\'s header',
        );
        self::assertSame(0, $server->stop());
    }

    public function testReadinessTurns503AsSoonAsAGracefulStopBegins(): void
    {
        $server = ServerProcess::start(ServerProcess::fixture('delay.php'), [
            '--workers=1', '--metrics=127.0.0.1:0', '--ready-path=/readyz', '--drain-timeout=10',
        ]);
        $metricsPort = self::metricsPort($server);
        $probe = new RawClient($server->port());
        $probe->send(self::get('/readyz'));
        self::assertSame(200, $probe->readResponse()->status);

        $slow = new RawClient($server->port());
        $slow->send(self::get('/slow?s=1.5&announce=1'));
        self::assertTrue($server->waitForLog('delay-app started /slow', 5.0));
        $server->signal(\SIGTERM);

        self::assertTrue(self::eventually(static fn (): bool => self::fetch($metricsPort, '/readyz')[0] === 503, 2.0), 'the master says not ready at once');
        // The worker drains: a probe on a kept-alive connection gets 503 (and "Connection: close").
        $answer = null;
        self::assertTrue(self::eventually(static function () use ($probe, &$answer): bool {
            $probe->send(self::get('/readyz'));
            $answer = $probe->readResponse();

            return $answer->status === 503;
        }, 2.0));
        \assert($answer instanceof RawResponse);
        self::assertSame('close', $answer->header('connection'));
        self::assertSame(200, $slow->readResponse(timeout: 5.0)->status, 'the request in flight finishes');
        self::assertSame(0, $server->waitForExit(10.0));
    }

    /**
     * @param list<string> $arguments
     *
     * @return array<string, mixed>
     */
    private static function spindleJson(array $arguments): array
    {
        $output = [];
        \exec(\implode(' ', \array_map('escapeshellarg', [\PHP_BINARY, \dirname(__DIR__, 2) . '/bin/spindle', ...$arguments])), $output, $code);
        self::assertSame(0, $code);
        $decoded = \json_decode(\implode("\n", $output), true);
        self::assertIsArray($decoded);

        /** @var array<string, mixed> $decoded */
        return $decoded;
    }
}
