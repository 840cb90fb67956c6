<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E\Support;

use PHPUnit\Framework\TestCase;

/**
 * Base for end-to-end tests: servers shared by the tests of one class (stopped after the
 * class), a curl runner and small raw-request helpers. All traffic goes to 127.0.0.1.
 */
abstract class E2ETestCase extends TestCase
{
    /** @var array<string, ServerProcess> */
    private static array $servers = [];

    /** @var list<string> */
    private array $cookieJars = [];

    /** A curl cookie jar (a temporary file) of the running test, removed after it. */
    protected function cookieJar(): string
    {
        $jar = \tempnam(\sys_get_temp_dir(), 'spindle-e2e-jar-');
        self::assertIsString($jar);

        return $this->cookieJars[] = $jar;
    }

    /** @after */
    protected function removeCookieJars(): void
    {
        foreach ($this->cookieJars as $jar) {
            @\unlink($jar);
        }
        $this->cookieJars = [];
    }

    public static function tearDownAfterClass(): void
    {
        self::stopSharedServers();
    }

    /**
     * Stops the servers the class's tests shared (the next sharedServer() call starts a new
     * one): for a test that changes what a running server of the same app would read, such as
     * its cache directory.
     */
    protected static function stopSharedServers(): void
    {
        foreach (self::$servers as $server) {
            $server->stop();
        }
        self::$servers = [];
    }

    /**
     * A server shared by the tests of the running class, started on first use.
     *
     * @param list<string> $options
     */
    protected static function sharedServer(string $app, array $options = []): ServerProcess
    {
        $key = static::class . "\0" . $app . "\0" . \implode("\0", $options);
        $server = self::$servers[$key] ?? null;
        if ($server === null || !$server->isRunning()) {
            $server = self::$servers[$key] = ServerProcess::start($app, $options);
        }

        return $server;
    }

    /**
     * Runs curl (never through a shell) and returns its exit code, stdout and stderr.
     *
     * @param list<string> $arguments
     *
     * @return array{code: int, out: string, err: string, seconds: float}
     */
    protected static function curl(array $arguments, float $maxTime = 10.0): array
    {
        $out = \tempnam(\sys_get_temp_dir(), 'spindle-e2e-curl-');
        $err = \tempnam(\sys_get_temp_dir(), 'spindle-e2e-curl-');
        self::assertIsString($out);
        self::assertIsString($err);
        $started = \microtime(true);
        $process = \proc_open(
            ['curl', '--noproxy', '*', '--max-time', (string) $maxTime, ...$arguments],
            [0 => ['file', '/dev/null', 'r'], 1 => ['file', $out, 'w'], 2 => ['file', $err, 'w']],
            $pipes,
        );
        self::assertIsResource($process, 'curl could not be started');
        $code = \proc_close($process);
        $result = [
            'code' => $code,
            'out' => (string) \file_get_contents($out),
            'err' => (string) \file_get_contents($err),
            'seconds' => \microtime(true) - $started,
        ];
        @\unlink($out);
        @\unlink($err);

        return $result;
    }

    /**
     * Splits curl -i output into the final response's status, headers and body
     * (interim 1xx responses are skipped).
     *
     * @return array{status: int, protocol: string, headers: array<string, list<string>>, body: string}
     */
    protected static function parseCurlResponse(string $output): array
    {
        while (true) {
            $end = \strpos($output, "\r\n\r\n");
            self::assertNotFalse($end, 'No response head in curl output: ' . \substr($output, 0, 500));
            $lines = \explode("\r\n", \substr($output, 0, $end));
            $body = (string) \substr($output, $end + 4);
            if (\preg_match('#^HTTP/(\d(?:\.\d)?) (\d{3})#', $lines[0], $m) !== 1) {
                self::fail('Bad status line ' . $lines[0]);
            }
            $status = (int) $m[2];
            if ($status >= 100 && $status < 200) {
                $output = $body;
                continue;
            }
            $headers = [];
            foreach (\array_slice($lines, 1) as $line) {
                [$name, $value] = \explode(':', $line, 2) + [1 => ''];
                $headers[\strtolower($name)][] = \trim($value);
            }

            return ['status' => $status, 'protocol' => $m[1], 'headers' => $headers, 'body' => $body];
        }
    }

    /** Sends one request on a new connection and returns the response. */
    protected static function rawRequest(ServerProcess $server, string $request, bool $forHead = false): RawResponse
    {
        $client = new RawClient($server->port());
        $client->send($request);
        $response = $client->readResponse($forHead);
        $client->close();

        return $response;
    }

    protected static function get(string $path, string $extraHeaders = ''): string
    {
        return "GET {$path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{$extraHeaders}\r\n";
    }

    /** Sends a bad request and asserts its status, "Connection: close" and that the connection is closed. */
    protected static function assertRefusedAndClosed(ServerProcess $server, string $request, int $status): RawClient
    {
        $client = new RawClient($server->port());
        $client->send($request);
        $response = $client->readResponse();
        self::assertSame($status, $response->status, $response->raw);
        self::assertSame('close', $response->header('connection'));
        self::assertTrue($client->waitForClose(2.0), 'the connection is closed after the error');

        return $client;
    }

    /** Asserts that the server still answers a plain request with 200. */
    protected static function assertServerAnswers(ServerProcess $server, string $path = '/'): RawResponse
    {
        $response = self::rawRequest($server, self::get($path, "Connection: close\r\n"));
        self::assertSame(200, $response->status, $response->raw);

        return $response;
    }

    /**
     * Polls $condition every 10 ms until it returns true or $timeout passes.
     *
     * @param \Closure(): bool $condition
     */
    protected static function eventually(\Closure $condition, float $timeout): bool
    {
        $deadline = \microtime(true) + $timeout;
        while (true) {
            if ($condition()) {
                return true;
            }
            if (\microtime(true) >= $deadline) {
                return false;
            }
            \usleep(10000);
        }
    }

    /** Removes $directory and everything below it (links are removed, not followed). */
    protected static function removeTree(string $directory): void
    {
        foreach (\scandir($directory) ?: [] as $entry) {
            if ($entry === '.' || $entry === '..') {
                continue;
            }
            $path = $directory . '/' . $entry;
            \is_dir($path) && !\is_link($path) ? self::removeTree($path) : @\unlink($path);
        }
        @\rmdir($directory);
    }

    /** Figures worth seeing in the test output (on stderr: the tests stay quiet on stdout). */
    protected static function reportFigures(string $what, string $figures): void
    {
        \fwrite(\STDERR, \sprintf("\n[%s] %s\n", $what, $figures));
    }

    /**
     * Asserts that no request in $log (a server's stderr, or the part of it a test produced) held
     * the event loop for $seconds or more. A wait that blocked would hold it for the whole wait;
     * a request kept off the CPU by a busy machine is logged too (past the 0.5 s threshold), for less.
     */
    protected static function assertNoRequestHeldTheLoop(string $log, float $seconds): void
    {
        \preg_match_all('/blocked the event loop for ([0-9.]+) s/', $log, $blocked);
        foreach ($blocked[1] as $held) {
            self::assertLessThan($seconds, (float) $held, $log);
        }
    }
}
