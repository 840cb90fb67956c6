<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\RawClient;
use Spindle\Tests\E2E\Support\ServerProcess;

/**
 * What request bodies and large responses cost a worker's memory: a body above --body-buffer-size
 * is written to a temporary file as it arrives (and reaches the app whole, through getBody(), the
 * file removed after the request); a connection does not read requests far ahead of the one that
 * runs; a string response to a client that does not read holds back the requests behind it.
 * Memory is the worker's resident set from /proc, with a wide margin.
 */
final class RequestBodyMemoryTest extends E2ETestCase
{
    private const MIB = 1048576;

    private static function server(): ServerProcess
    {
        return self::sharedServer(ServerProcess::fixture('bodies.php'), ['--workers=1', '--request-timeout=120']);
    }

    /** @return iterable<string, array{int, bool, bool}> body size, chunked, whether it goes to a file */
    public static function bodies(): iterable
    {
        yield 'small, in memory' => [1000, false, false];
        yield 'at the buffer size, in memory' => [65536, false, false];
        yield '1 MiB, to a file' => [self::MIB, false, true];
        yield '1 MiB chunked, to a file' => [self::MIB, true, true];
    }

    /** @dataProvider bodies */
    public function testABodyReachesThePsr7AppWholeAndItsTemporaryFileIsRemoved(int $size, bool $chunked, bool $toFile): void
    {
        $body = \random_bytes($size);
        $client = new RawClient(self::server()->port(), 30.0);
        if ($chunked) {
            $framed = '';
            foreach (\str_split($body, 100000) as $piece) {
                $framed .= \dechex(\strlen($piece)) . "\r\n" . $piece . "\r\n";
            }
            $client->send("POST /hash HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n" . $framed . "0\r\n\r\n");
        } else {
            $client->send("POST /hash HTTP/1.1\r\nHost: a\r\nContent-Length: {$size}\r\n\r\n" . $body);
        }
        $response = $client->readResponse();
        self::assertSame(200, $response->status, $response->body);
        $data = $response->json();
        self::assertSame(['size' => $size, 'sha1' => \sha1($body)], ['size' => $data['size'], 'sha1' => $data['sha1']]);
        if (!$toFile) {
            self::assertNull($data['file'], 'held in memory');

            return;
        }
        self::assertIsString($data['file'], 'read from a temporary file');
        self::assertTrue(self::eventually(static fn (): bool => !\file_exists($data['file']), 5.0), 'the temporary file is removed after the request');
    }

    /**
     * 31 bodies of 16 MiB pipelined behind a slow request on one connection: the worker reads
     * little ahead of the running request, and each body goes to a temporary file, so it grows by
     * a few MiB, not by the 496 MiB the bodies weigh. Every body reaches the app whole.
     */
    public function testPipelinedLargeBodiesBehindASlowRequestDoNotGrowTheWorker(): void
    {
        $server = self::server();
        $body = \random_bytes(16 * self::MIB);
        $sha1 = \sha1($body);
        $post = "POST /hash HTTP/1.1\r\nHost: a\r\nContent-Length: " . \strlen($body) . "\r\n\r\n";

        // One such body first, so that what the worker keeps once it has seen one is in the baseline.
        $warm = new RawClient($server->port(), 60.0);
        self::writeAll($warm, $post . $body);
        $pid = $warm->readResponse()->json()['pid'];
        self::assertIsInt($pid);
        $warm->close();
        $before = ServerProcess::rss($pid);
        self::assertNotNull($before);
        // Peak resident memory from here on (VmHWM, reset through clear_refs where allowed).
        $peakReset = @\file_put_contents('/proc/' . $pid . '/clear_refs', '5') !== false;

        $client = new RawClient($server->port(), 120.0);
        $client->send("GET /hold HTTP/1.1\r\nHost: a\r\n\r\n");
        // The bodies go out while the first request is held, until the server stops taking them
        // (or all of them are sent); then that request is let go, and the rest follows.
        $request = $post . $body;
        $total = 31 * \strlen($request);
        $sent = self::writeUntilStalled($client, $request, $total, 0, 1.0);
        self::assertSame(['released' => 1], self::rawRequest($server, "GET /release HTTP/1.1\r\nHost: a\r\n\r\n")->json());
        self::writeUntilStalled($client, $request, $total, $sent, 60.0);
        self::assertSame(['released' => true], $client->readResponse()->json());
        for ($i = 0; $i < 31; ++$i) {
            $data = $client->readResponse()->json();
            self::assertSame([16 * self::MIB, $sha1, true], [$data['size'], $data['sha1'], \is_string($data['file'])], "body {$i}");
        }
        $peak = self::peakRss($pid);
        self::assertNotNull($peak);
        $growth = $peak - $before;
        if (\getenv('SPINDLE_TEST_FIGURES') !== false) {
            \fwrite(\STDERR, \sprintf("31 x 16 MiB pipelined: worker RSS %.1f MiB before, peak %.1f MiB after (growth %.1f MiB, peak %s)\n", $before / self::MIB, $peak / self::MIB, $growth / self::MIB, $peakReset ? 'reset before' : 'since start'));
        }
        self::assertLessThan(64 * 1000 * 1000, $growth, \sprintf('the worker grew by %.1f MiB', $growth / self::MIB));
    }

    /**
     * A client that pipelines requests for 4 MiB string responses and reads none: the worker
     * answers the first ones, then holds the rest back while more than the write high-water mark
     * (1 MiB) waits for the client, so it holds about one response, not thirty.
     */
    public function testStringResponsesToAClientThatDoesNotReadAreHeldBack(): void
    {
        $server = self::server();
        $pid = self::rawRequest($server, "GET /pid HTTP/1.1\r\nHost: a\r\n\r\n")->json()['pid'];
        self::assertIsInt($pid);
        $count = static fn (): int => self::rawRequest($server, "GET /count HTTP/1.1\r\nHost: a\r\n\r\n")->json()['big'];
        $already = $count();
        $before = ServerProcess::rss($pid);
        self::assertNotNull($before);
        @\file_put_contents('/proc/' . $pid . '/clear_refs', '5');

        $reader = new RawClient($server->port(), 30.0);
        $reader->send(\str_repeat("GET /big?mib=4 HTTP/1.1\r\nHost: a\r\n\r\n", 30));
        self::assertTrue(self::eventually(static fn (): bool => $count() > $already, 10.0), 'the first request runs');
        // The client reads nothing for a second: what the worker does meanwhile is bounded.
        \usleep(1000000);
        $answered = $count() - $already;
        $peak = self::peakRss($pid);
        self::assertNotNull($peak);
        if (\getenv('SPINDLE_TEST_FIGURES') !== false) {
            \fwrite(\STDERR, \sprintf("30 x 4 MiB string responses, client not reading: %d answered, worker grew by %.1f MiB\n", $answered, ($peak - $before) / self::MIB));
        }
        self::assertLessThanOrEqual(4, $answered, 'requests behind a response the client has not taken wait');
        self::assertLessThan(40 * self::MIB, $peak - $before, \sprintf('the worker grew by %.1f MiB', ($peak - $before) / self::MIB));

        // Once the client reads, every response comes.
        for ($i = 0; $i < 30; ++$i) {
            $response = $reader->readResponse(sink: static function (string $piece): void {});
            self::assertSame(200, $response->status);
        }
        self::assertSame(30, $count() - $already);
    }

    /**
     * Writes $request over and over, from byte $sent of $total, until $total bytes are written or
     * the socket takes nothing for $stall seconds; returns how many bytes have been written.
     */
    private static function writeUntilStalled(RawClient $client, string $request, int $total, int $sent, float $stall): int
    {
        $socket = $client->socket();
        $length = \strlen($request);
        $progress = \microtime(true);
        while ($sent < $total) {
            $offset = $sent % $length;
            $written = @\fwrite($socket, \substr($request, $offset, \min(self::MIB, $length - $offset)));
            self::assertNotFalse($written, 'the server closed the connection');
            if ($written > 0) {
                $sent += $written;
                $progress = \microtime(true);
                continue;
            }
            $left = $stall - (\microtime(true) - $progress);
            if ($left <= 0) {
                break;
            }
            $read = $except = null;
            $write = [$socket];
            @\stream_select($read, $write, $except, 0, (int) ($left * 1e6));
        }

        return $sent;
    }

    /** Writes all of $bytes in pieces (without copying the rest of a large string each time). */
    private static function writeAll(RawClient $client, string $bytes): void
    {
        $length = \strlen($bytes);
        for ($offset = 0; $offset < $length; $offset += self::MIB) {
            $client->send(\substr($bytes, $offset, self::MIB), 60.0);
        }
    }

    /** Peak resident memory of $pid (VmHWM) in bytes, or null when it is gone. */
    private static function peakRss(int $pid): ?int
    {
        $status = @\file_get_contents('/proc/' . $pid . '/status');
        if (!\is_string($status) || \preg_match('/^VmHWM:\s+(\d+)\s+kB/m', $status, $m) !== 1) {
            return null;
        }

        return (int) $m[1] * 1024;
    }
}
