<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Bridge\Pusher\PusherApp;
use Spindle\Bridge\Pusher\RequestSignature;
use Spindle\Http\WebSocket\FrameEncoder;
use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\RawClient;
use Spindle\Tests\E2E\Support\ServerProcess;
use Spindle\Tests\Support\Pusher\PusherTestClient;
use Spindle\Tests\Unit\Metrics\PrometheusParser;

/**
 * What an operator sees of WebSockets on `spindle serve` (tests/fixtures/apps/pusher.php, the
 * Pusher protocol): the spindle_websocket_* and spindle_pusher_* families on --metrics, the access
 * log line each connection gets when it closes (status 101, bytes, duration, close code), and the
 * ws column of `spindle status`.
 */
final class WebSocketObservabilityTest extends E2ETestCase
{
    public function testMetricsAccessLogAndStatusFollowTheConnections(): void
    {
        $dir = \sys_get_temp_dir() . '/spindle-ws-observability-' . \getmypid() . '-' . \bin2hex(\random_bytes(3));
        \mkdir($dir);
        try {
            $this->observe($dir);
        } finally {
            self::removeTree($dir);
        }
    }

    private function observe(string $dir): void
    {
        $log = $dir . '/access.log';
        $pidFile = $dir . '/spindle.pid';
        $server = ServerProcess::start(__DIR__ . '/../fixtures/apps/pusher.php', [
            '--workers=1', '--metrics=127.0.0.1:0', '--access-log=' . $log, '--pid-file=' . $pidFile,
        ]);
        self::assertTrue($server->waitForLog('Metrics on http://', 5.0), $server->stderr());
        self::assertSame(1, \preg_match('#Metrics on http://127\.0\.0\.1:(\d+)/metrics#', $server->stderr(), $m));
        $metricsPort = (int) ($m[1] ?? 0);

        $a = PusherTestClient::connect($server->port());
        $a->established();
        $b = PusherTestClient::connect($server->port());
        $b->established();
        foreach ([$a, $b] as $client) {
            $client->send(['event' => 'pusher:subscribe', 'data' => ['channel' => 'news']]);
            self::assertSame('pusher_internal:subscription_succeeded', $client->next()['event'] ?? null);
        }
        self::assertSame(200, self::publish($server->port(), 'news'));
        foreach ([$a, $b] as $client) {
            self::assertSame('Story', $client->next()['event'] ?? null);
        }
        // A closes cleanly (1000): its line goes to the access log; B stays.
        $a->sendRaw(\substr(FrameEncoder::close(1000), 2), 8);
        $a->waitForClose();

        $samples = [];
        self::assertTrue(self::eventually(static function () use ($metricsPort, &$samples): bool {
            $samples = PrometheusParser::parse(self::scrape($metricsPort, '/metrics'));

            return (float) ($samples['spindle_websocket_closed_total{code="1000"}'] ?? 0) === 1.0
                && (float) ($samples['spindle_pusher_broadcast_seconds_count'] ?? 0) === 1.0;
        }, 5.0), 'the metrics follow within a report or two: ' . \json_encode($samples));
        self::assertSame(1.0, (float) $samples['spindle_websocket_connections']);
        self::assertSame(2.0, (float) $samples['spindle_websocket_opened_total']);
        // In: 2 subscribes; out: 2 connection_established, 2 subscription_succeeded, 2 broadcasts.
        self::assertSame(2.0, (float) $samples['spindle_websocket_messages_total{direction="in"}']);
        self::assertSame(6.0, (float) $samples['spindle_websocket_messages_total{direction="out"}']);
        self::assertGreaterThan(0, (int) $samples['spindle_websocket_bytes_total{direction="out"}']);
        self::assertSame(0.0, (float) $samples['spindle_websocket_dropped_total{reason="slow"}']);
        self::assertSame(0.0, (float) $samples['spindle_websocket_refused_total{limit="worker"}']);
        self::assertSame(1.0, (float) $samples['spindle_pusher_connections{app="1"}']);
        self::assertSame(1.0, (float) $samples['spindle_pusher_channels{app="1"}']);
        self::assertSame(1.0, (float) $samples['spindle_pusher_subscriptions{app="1"}']);
        self::assertSame(2.0, (float) $samples['spindle_pusher_broadcast_deliveries_total']);
        self::assertSame(1.0, (float) $samples['spindle_pusher_broadcast_seconds_bucket{le="+Inf"}']);

        // The access log is flushed every second: A's line, written at its close.
        $line = '';
        self::assertTrue(self::eventually(static function () use ($log, &$line): bool {
            foreach (\file($log, \FILE_IGNORE_NEW_LINES) ?: [] as $candidate) {
                if (\str_contains($candidate, '"GET /app/app-key')) {
                    $line = $candidate;

                    return true;
                }
            }

            return false;
        }, 5.0), 'a line for the closed connection');
        self::assertSame(1, \preg_match('#^127\.0\.0\.1 - - \[[^\]]+\] "GET /app/app-key\?protocol=7[^"]* HTTP/1\.1" 101 (\d+) "-" "[^"]*" "[^"]*" (\d+) (\d+) 1000$#', $line, $fields), $line);
        self::assertGreaterThan(0, (int) ($fields[1] ?? 0), 'bytes sent after the handshake');
        self::assertSame(1, \substr_count((string) \file_get_contents($log), '"GET /app/app-key'), 'B is still open: no line yet');

        $output = [];
        \exec(\implode(' ', \array_map('escapeshellarg', [\PHP_BINARY, \dirname(__DIR__, 2) . '/bin/spindle', 'status', '--pid-file=' . $pidFile])), $output, $code);
        self::assertSame(0, $code, \implode("\n", $output));
        $header = \array_values(\array_filter($output, static fn (string $l): bool => \str_starts_with($l, 'pid ')))[0] ?? '';
        $columns = \preg_split('/\s+/', \trim($header)) ?: [];
        $row = \array_values(\array_filter($output, static fn (string $l): bool => \preg_match('/^\d+\s/', $l) === 1))[0] ?? '';
        $values = \preg_split('/\s+/', \trim($row)) ?: [];
        self::assertContains('ws', $columns, \implode("\n", $output));
        self::assertSame('1', $values[\array_search('ws', $columns, true)] ?? null, \implode("\n", $output));
        self::assertSame('1', $values[\array_search('conns', $columns, true)] ?? null, 'B is the one connection');

        $b->close();
        $server->stop();
    }

    private static function publish(int $port, string $channel): int
    {
        $body = \json_encode(['name' => 'Story', 'channel' => $channel, 'data' => '{}'], \JSON_THROW_ON_ERROR);
        $query = RequestSignature::signedQuery(new PusherApp('1', 'app-key', 'app-secret'), 'POST', '/apps/1/events', $body, \time());
        $client = new RawClient($port);
        $client->send('POST /apps/1/events?' . \http_build_query($query) . " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: " . \strlen($body) . "\r\n\r\n" . $body);
        $status = $client->readResponse()->status;
        $client->close();

        return $status;
    }

    private static function scrape(int $port, string $path): string
    {
        $client = new RawClient($port);
        $client->send("GET {$path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
        $body = $client->readResponse()->body;
        $client->close();

        return $body;
    }
}
