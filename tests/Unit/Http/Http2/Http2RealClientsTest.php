<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Http\Http2;

use PHPUnit\Framework\TestCase;

/**
 * Real HTTP/2 clients (curl and h2load, both on libnghttp2) against the session, served in clear
 * text (prior knowledge) by tests/fixtures/http2/h2c-server.php on a port of its own choosing.
 */
final class Http2RealClientsTest extends TestCase
{
    /** @var resource|null */
    private static $process = null;
    /** @var array<int, resource> */
    private static array $pipes = [];
    private static string $base = '';

    public static function setUpBeforeClass(): void
    {
        $process = proc_open([PHP_BINARY, __DIR__ . '/../../../fixtures/http2/h2c-server.php'], [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['file', '/dev/null', 'w']], self::$pipes);
        self::assertIsResource($process);
        self::$process = $process;
        $line = (string) fgets(self::$pipes[1]);
        self::assertMatchesRegularExpression('/^listening on 127\.0\.0\.1:\d+$/', trim($line));
        self::$base = 'http://' . substr(trim($line), \strlen('listening on '));
    }

    public static function tearDownAfterClass(): void
    {
        if (self::$process !== null) {
            $status = proc_get_status(self::$process);
            posix_kill($status['pid'], SIGTERM);
            foreach (self::$pipes as $pipe) {
                fclose($pipe);
            }
            proc_close(self::$process);
        }
    }

    /** @param list<string> $args */
    private static function client(array $args, string $stdin = ''): string
    {
        $process = proc_open($args, [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
        self::assertIsResource($process);
        fwrite($pipes[0], $stdin);
        fclose($pipes[0]);
        $out = stream_get_contents($pipes[1]);
        $err = stream_get_contents($pipes[2]);
        fclose($pipes[1]);
        fclose($pipes[2]);
        self::assertSame(0, proc_close($process), implode(' ', \array_slice($args, 0, 6)) . ': ' . $err);

        return (string) $out;
    }

    public function testCurlGet(): void
    {
        $out = self::client(['curl', '-sS', '--http2-prior-knowledge', '-w', '\n%{http_version} %{http_code}', self::$base . '/hello?a=1']);
        self::assertSame("GET /hello?a=1\n\n2 200", $out);
    }

    public function testCurlPostOfALargeBodyAndLargeHeaders(): void
    {
        $body = str_repeat('0123456789abcdef', 20000); // 320 KB: several windows' worth
        $out = self::client(['curl', '-sS', '--http2-prior-knowledge', '--data-binary', '@-', '-H', 'x-big: ' . str_repeat('h', 40000),
            self::$base . '/upload'], $body);
        self::assertSame("POST /upload\n" . $body, $out);
    }

    public function testCurlDownloadsALargeBody(): void
    {
        $out = self::client(['curl', '-sS', '--http2-prior-knowledge', self::$base . '/bytes/3000000']);
        self::assertSame(3000000, \strlen($out));
        self::assertSame(str_repeat('x', 3000000), $out);
    }

    public function testH2loadManyStreamsOnFewConnections(): void
    {
        $out = self::client(['h2load', '-n', '2000', '-c', '4', '-m', '10', self::$base . '/hello']);
        self::assertMatchesRegularExpression('/requests: 2000 total, 2000 started, 2000 done, 2000 succeeded, 0 failed, 0 errored/', $out);
        self::assertMatchesRegularExpression('/status codes: 2000 2xx/', $out);
    }
}
