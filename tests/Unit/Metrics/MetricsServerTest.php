<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Metrics;

use PHPUnit\Framework\TestCase;
use Spindle\Metrics\MetricsServer;

/** The master's metrics listener, driven the way the master's select loop drives it. */
final class MetricsServerTest extends TestCase
{
    /** Sends $request on a new connection and polls the server until the answer is complete. */
    private static function ask(MetricsServer $server, string $request): string
    {
        $client = \stream_socket_client('tcp://' . $server->address, $errno, $error, 2.0);
        self::assertIsResource($client, $error);
        \fwrite($client, $request);
        \stream_set_blocking($client, false);
        $answer = '';
        $deadline = \microtime(true) + 5.0;
        while (\microtime(true) < $deadline) {
            $read = $server->readStreams();
            $write = $server->writeStreams();
            $except = null;
            \stream_select($read, $write, $except, 0, 20000);
            $server->poll($read, $write, \microtime(true));
            $answer .= (string) \fread($client, 65536);
            if (\feof($client)) {
                break;
            }
        }
        \fclose($client);

        return $answer;
    }

    public function testItAnswersPathsAndRefusesWhatIsNotAGet(): void
    {
        $big = \str_repeat("metric 1\n", 20000);
        $server = new MetricsServer('127.0.0.1:0', static fn (string $path): array => match ($path) {
            '/metrics' => [200, 'text/plain', $big],
            default => [404, 'text/plain', "no\n"],
        });
        $answer = self::ask($server, "GET /metrics?x=1 HTTP/1.1\r\nHost: a\r\n\r\n");
        self::assertStringStartsWith("HTTP/1.1 200 OK\r\n", $answer);
        self::assertStringContainsString("Content-Length: 180000\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n", $answer);
        self::assertStringEndsWith($big, $answer, 'a large answer is written out over several polls');

        $head = self::ask($server, "HEAD /metrics HTTP/1.1\r\nHost: a\r\n\r\n");
        self::assertStringContainsString("Content-Length: 180000\r\n", $head);
        self::assertStringEndsWith("\r\n\r\n", $head, 'no body for HEAD');
        self::assertStringStartsWith('HTTP/1.1 404 Not Found', self::ask($server, "GET /other HTTP/1.0\r\n\r\n"));
        self::assertStringStartsWith('HTTP/1.1 405 Method Not Allowed', self::ask($server, "POST /metrics HTTP/1.1\r\nHost: a\r\n\r\n"));
        self::assertStringStartsWith('HTTP/1.1 400 Bad Request', self::ask($server, "\x00\x01garbage\r\n\r\n"));
        self::assertStringStartsWith('HTTP/1.1 431', self::ask($server, 'GET /metrics HTTP/1.1' . \str_repeat('x', 9000)));
        $server->close();
    }

    /**
     * 64 connections that never send anything: the oldest are pushed out as new ones arrive, a
     * request still gets its answer, and the idle ones left are closed once their time is up.
     * The clock given to poll() stands still until the timeout is tested.
     */
    public function testIdleConnectionsAreEvictedAndTimedOut(): void
    {
        $server = new MetricsServer('127.0.0.1:0', static fn (string $path): array => [200, 'text/plain', "ok {$path}\n"], 5.0);
        $now = \microtime(true);
        $idle = [];
        for ($i = 0; $i < 64; ++$i) {
            $idle[] = \stream_socket_client('tcp://' . $server->address, $errno, $error, 2.0);
            self::pump($server, $now);
        }
        $client = \stream_socket_client('tcp://' . $server->address, $errno, $error, 2.0);
        self::assertIsResource($client);
        \fwrite($client, "GET /metrics HTTP/1.1\r\nHost: a\r\n\r\n");
        \stream_set_blocking($client, false);
        $answer = '';
        $deadline = \microtime(true) + 10.0;
        while (!\feof($client) && \microtime(true) < $deadline) {
            self::pump($server, $now);
            $answer .= (string) \fread($client, 65536);
        }
        self::assertStringEndsWith("\r\n\r\nok /metrics\n", $answer);

        // The 33 oldest were closed to make room (32 at most stay open, the request took one).
        $closed = static fn (array $streams): int => \count(\array_filter($streams, static function ($stream): bool {
            \stream_set_blocking($stream, false);

            return \fread($stream, 1) === '' && \feof($stream);
        }));
        self::assertTrue(self::eventually(static fn (): bool => $closed($idle) >= 33));
        self::assertSame(33, $closed($idle));
        self::assertSame(\range(0, 32), \array_keys(\array_filter($idle, static fn ($stream): bool => \feof($stream))), 'the oldest ones');

        // The rest are dropped once the idle timeout has passed.
        self::pump($server, $now + 4.9);
        self::assertSame(33, $closed($idle));
        self::pump($server, $now + 5.1);
        self::assertTrue(self::eventually(static fn (): bool => $closed($idle) === 64));
        $server->close();
    }

    private static function pump(MetricsServer $server, float $now): void
    {
        $read = $server->readStreams();
        $write = $server->writeStreams();
        $except = null;
        \stream_select($read, $write, $except, 0, 20000);
        $server->poll($read, $write, $now);
    }

    private static function eventually(\Closure $condition): bool
    {
        $deadline = \microtime(true) + 10.0;
        while (!$condition()) {
            if (\microtime(true) > $deadline) {
                return false;
            }
            \usleep(10_000);
        }

        return true;
    }
}
