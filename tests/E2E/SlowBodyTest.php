<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\RawClient;
use Spindle\Tests\E2E\Support\ServerProcess;

/**
 * Clients that send request bodies slowly: a body that stalls longer than --body-timeout, or falls
 * behind --body-min-rate once its --body-rate-grace is over, is answered 408 and its connection
 * closed; and at the connection cap, connections whose bodies are behind that rate make room for
 * new ones as connections trickling a head do. Every wait is bounded.
 */
final class SlowBodyTest extends E2ETestCase
{
    private const HELLO = __DIR__ . '/../../examples/hello.php';

    /** @return iterable<string, array{string, string}> a head, and a body byte to trickle */
    public static function framings(): iterable
    {
        yield 'Content-Length' => ["POST /upload HTTP/1.1\r\nHost: a\r\nContent-Length: 100000\r\n\r\n", 'x'];
        yield 'chunked' => ["POST /upload HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n", "1\r\nx\r\n"];
    }

    /** @dataProvider framings */
    public function testABodyTricklingBelowTheMinimumRateGets408(string $head, string $byte): void
    {
        $server = self::sharedServer(self::HELLO, ['--body-min-rate=1000', '--body-rate-grace=1', '--body-timeout=30']);
        $client = new RawClient($server->port());
        $client->send($head . $byte);
        $started = \microtime(true);
        // A byte every 0.2 s: far inside the 30 s body timeout, far below 1,000 bytes a second.
        $deadline = $started + 15.0;
        while (!$client->waitForClose(0.2) && \microtime(true) < $deadline) {
            try {
                $client->send($byte);
            } catch (\RuntimeException) {
                // Closed between the wait and the write: read what came.
            }
        }
        self::assertTrue($client->isClosedByServer(), 'a trickling body must not hold its connection');
        // (The server's clock moves in 50 ms steps, and a loaded machine may stretch them: a wide margin.)
        self::assertGreaterThan(0.5, \microtime(true) - $started, 'not before the grace is over');
        self::assertStringStartsWith('HTTP/1.1 408 ', $client->buffered());
        self::assertStringContainsString('Request body arrived too slowly', $client->buffered());
        self::assertServerAnswers($server);
    }

    /** @dataProvider framings */
    public function testAStalledBodyGets408AfterTheBodyTimeout(string $head, string $byte): void
    {
        $server = self::sharedServer(self::HELLO, ['--body-min-rate=0', '--body-timeout=1']);
        $client = new RawClient($server->port());
        $client->send($head . $byte);
        $started = \microtime(true);
        self::assertTrue($client->waitForClose(10.0), 'a stalled body must not hold its connection');
        self::assertGreaterThan(0.5, \microtime(true) - $started, 'not before the body timeout');
        self::assertStringStartsWith('HTTP/1.1 408 ', $client->buffered());
        self::assertStringContainsString('Timed out reading the request body', $client->buffered());
    }

    /**
     * 600 connections (half Content-Length, half chunked) trickle bodies at one worker holding at
     * most 512: every one of them is behind the minimum rate, so a normal request still gets a
     * place, long before the rate's grace (60 s here) or the body timeout would free one.
     */
    public function testConnectionsTricklingBodiesMakeRoomForANormalRequest(): void
    {
        $server = ServerProcess::start(self::HELLO, ['--workers=1', '--body-rate-grace=60', '--body-timeout=60']);
        $tricklers = [];
        try {
            $framings = \array_values(\iterator_to_array(self::framings()));
            for ($i = 0; $i < 600; ++$i) {
                $socket = \stream_socket_client('tcp://127.0.0.1:' . $server->port(), $errno, $error, 10.0);
                self::assertIsResource($socket, $error);
                [$head, $byte] = $framings[$i % 2];
                \fwrite($socket, $head . $byte);
                \stream_set_blocking($socket, false);
                $tricklers[] = [$socket, $byte];
            }
            // The worker holds 512: the other 88 were closed to make room as it took them (the
            // connections just accepted, not yet read from, count as waiting since then). Once
            // it has, 512 connections are in the middle of a body.
            $closed = [];
            self::assertTrue(self::eventually(static function () use ($tricklers, &$closed): bool {
                foreach ($tricklers as $i => [$socket]) {
                    if (!isset($closed[$i]) && @\fread($socket, 1024) === '' && \feof($socket)) {
                        $closed[$i] = true;
                    }
                }

                return \count($closed) >= 88;
            }, 20.0), 'the worker took every connection');
            $real = \stream_socket_client('tcp://127.0.0.1:' . $server->port(), $errno, $error, 10.0);
            self::assertIsResource($real, $error);
            $sent = \microtime(true);
            \fwrite($real, "GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
            \stream_set_blocking($real, false);
            $response = '';
            $lastTrickle = $sent;
            $answeredAfter = null;
            while (\microtime(true) - $sent < 30.0) {
                $read = [$real];
                $write = $except = null;
                if (@\stream_select($read, $write, $except, 0, 200000) > 0) {
                    $data = (string) \fread($real, 65536);
                    $response .= $data;
                    if ($data === '' && \feof($real)) {
                        break;
                    }
                    $answeredAfter ??= \microtime(true) - $sent;
                }
                if (\microtime(true) - $lastTrickle >= 1.0) {
                    // The tricklers go on: a byte a second each, to those still open.
                    $lastTrickle = \microtime(true);
                    foreach ($tricklers as [$socket, $byte]) {
                        @\fwrite($socket, $byte);
                    }
                }
            }
            self::assertStringStartsWith('HTTP/1.1 200 OK', $response, 'a normal request is answered while bodies trickle');
            self::assertNotNull($answeredAfter);
            if (\getenv('SPINDLE_TEST_FIGURES') !== false) {
                \fwrite(\STDERR, \sprintf("normal request answered after %.3f s among 600 trickling bodies\n", $answeredAfter));
            }
            // Generous for a loaded machine; on an idle one it takes milliseconds.
            self::assertLessThan(10.0, $answeredAfter);
            self::assertStringNotContainsString('exited with status', $server->stderr());
        } finally {
            foreach ($tricklers as [$socket]) {
                @\fclose($socket);
            }
            $server->stop();
        }
    }
}
