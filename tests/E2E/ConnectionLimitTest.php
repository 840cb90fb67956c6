<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\RawClient;
use Spindle\Tests\E2E\Support\ServerProcess;

/**
 * --max-connections: a worker at its cap closes the connection that has waited longest without a
 * whole request (silent, trickling its head, or idle keep-alive) to make room, or, when every
 * connection has a request in progress, stops accepting; the connections that arrive meanwhile
 * wait in the listening socket's queue and are served once a connection closes. With the default
 * cap a client that opens more connections than select() can watch does not crash the worker.
 */
final class ConnectionLimitTest extends E2ETestCase
{
    private const HELLO = __DIR__ . '/../../examples/hello.php';

    public function testAtTheCapTheConnectionWaitingLongestForItsRequestMakesRoom(): void
    {
        $server = ServerProcess::start(self::HELLO, ['--workers=1', '--max-connections=2', '--header-timeout=60']);
        try {
            // Two connections without a whole request: one silent, then one still sending its head.
            $silent = new RawClient($server->port());
            $slow = new RawClient($server->port());
            $slow->send("GET / HTTP/1.1\r\nHost: a\r\n");

            // Answered long before the 60 s header timeout: the silent one, waiting longest, is closed.
            $third = new RawClient($server->port(), 20.0);
            $third->send("GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
            self::assertSame(200, $third->readResponse()->status);
            self::assertTrue($silent->waitForClose(5.0), 'the connection waiting longest was closed');

            // The slow one was younger and is still served.
            $slow->send("\r\n");
            self::assertSame(200, $slow->readResponse()->status);
        } finally {
            $server->stop();
        }
    }

    public function testAConnectionWithARequestInProgressIsNeverClosedToMakeRoom(): void
    {
        $server = ServerProcess::start(ServerProcess::fixture('delay.php'), ['--workers=1', '--max-connections=1']);
        try {
            $busy = new RawClient($server->port(), 15.0);
            $busy->send("GET /busy?s=1&announce=1 HTTP/1.1\r\nHost: a\r\n\r\n");
            self::assertTrue($server->waitForLog('delay-app started /busy', 5.0), $server->stderr());
            $new = new RawClient($server->port(), 15.0);
            $new->send("GET /new HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
            self::assertFalse($new->waitForBytes(1, 0.3), 'served while the only connection had a request running');
            self::assertSame(200, $busy->readResponse()->status, 'the running request was not cut');
            unset($busy);
            self::assertSame(200, $new->readResponse()->status);
        } finally {
            $server->stop();
        }
    }

    /**
     * Issue scenario: 1,500 connections that send nothing and a few that trickle a request head
     * hold the worker at its cap; a real client is still answered, long before the header timeout
     * that would otherwise free a place.
     */
    public function testIdleAndSlowClientsCannotKeepARealClientOut(): void
    {
        $server = ServerProcess::start(self::HELLO, ['--workers=1', '--header-timeout=60', '--keepalive-timeout=60']);
        $idle = [];
        try {
            for ($i = 0; $i < 1500; ++$i) {
                $socket = \stream_socket_client('tcp://127.0.0.1:' . $server->port(), $errno, $error, 10.0);
                self::assertIsResource($socket, $error);
                $idle[] = $socket;
                if ($i % 100 === 0) {
                    \fwrite($socket, "GET / HTTP/1.1\r\nHost: a\r\n");
                }
            }
            $real = \stream_socket_client('tcp://127.0.0.1:' . $server->port(), $errno, $error, 10.0);
            self::assertIsResource($real, $error);
            \stream_set_timeout($real, 20);
            \fwrite($real, "GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
            self::assertStringStartsWith('HTTP/1.1 200 OK', (string) \stream_get_contents($real), 'answered before the 60 s header timeout');
            self::assertStringNotContainsString('exited with status', $server->stderr());
        } finally {
            foreach ($idle as $socket) {
                \fclose($socket);
            }
            $server->stop();
        }
    }

    public function testIdleKeepAliveConnectionsMakeRoomForNewOnesAtTheCap(): void
    {
        $server = ServerProcess::start(self::HELLO, ['--workers=1', '--max-connections=4', '--keepalive-timeout=30']);
        try {
            $idle = [];
            for ($i = 0; $i < 4; ++$i) {
                $client = new RawClient($server->port());
                $client->send("GET / HTTP/1.1\r\nHost: a\r\n\r\n");
                self::assertSame(200, $client->readResponse()->status);
                $idle[] = $client;
            }
            // Answered long before the idle connections' 30 s keep-alive timeout: the oldest
            // idle one is closed to make room.
            $new = new RawClient($server->port());
            $new->send("GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
            self::assertSame(200, $new->readResponse(timeout: 10.0)->status);
            self::assertTrue($idle[0]->waitForClose(5.0), 'the oldest idle connection was closed');
            $idle[3]->send("GET / HTTP/1.1\r\nHost: a\r\n\r\n");
            self::assertSame(200, $idle[3]->readResponse()->status, 'the newest idle connection is still open');
        } finally {
            $server->stop();
        }
    }

    /**
     * A connection that has not sent its first request has --header-timeout to start it (the
     * keep-alive timeout if that is shorter): silent connections cannot hold the cap for long.
     */
    public function testSilentConnectionsDoNotHoldTheCapForTheKeepAliveTimeout(): void
    {
        $server = ServerProcess::start(ServerProcess::fixture('delay.php'), ['--workers=1', '--max-connections=4', '--keepalive-timeout=30', '--header-timeout=2']);
        $silent = [];
        for ($i = 0; $i < 3; ++$i) {
            $silent[] = new RawClient($server->port());
        }
        // A fourth connection, busy for 20 s: once the worker runs its request, it has taken the
        // three silent ones before it, and it is at the cap.
        $busy = new RawClient($server->port());
        $busy->send("GET /busy?s=20&announce=1 HTTP/1.1\r\nHost: a\r\n\r\n");
        self::assertTrue($server->waitForLog('delay-app started /busy', 5.0), $server->stderr());
        $new = new RawClient($server->port(), 15.0);
        $new->send("GET /new HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
        try {
            self::assertSame(200, $new->readResponse()->status, 'answered long before the keep-alive timeout');
        } finally {
            $server->stop();
        }
    }

    public function testMoreConnectionsThanSelectCanWatchDoNotCrashTheWorker(): void
    {
        if (\extension_loaded('ev') || \extension_loaded('event') || \extension_loaded('uv')) {
            self::markTestSkipped('the loop does not use select() here');
        }
        // Idle connections are closed after --keepalive-timeout: at the cap, the worker gets to
        // the last connection once the idle ones before it are gone.
        $server = ServerProcess::start(self::HELLO, ['--workers=1', '--keepalive-timeout=1']);
        try {
            // Plain blocking sockets: the test's own select() would fail on these descriptors.
            $idle = [];
            for ($i = 0; $i < 1100; ++$i) {
                $socket = \stream_socket_client('tcp://127.0.0.1:' . $server->port(), $errno, $error, 5.0);
                self::assertIsResource($socket, $error);
                $idle[] = $socket;
            }
            $last = \stream_socket_client('tcp://127.0.0.1:' . $server->port(), $errno, $error, 5.0);
            self::assertIsResource($last, $error);
            \stream_set_timeout($last, 30);
            \fwrite($last, "GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
            self::assertStringStartsWith('HTTP/1.1 200 OK', (string) \stream_get_contents($last));
            self::assertStringNotContainsString('Worker failed', $server->stderr());
            self::assertStringNotContainsString('exited with status', $server->stderr());
            foreach ($idle as $socket) {
                \fclose($socket);
            }
        } finally {
            $server->stop();
        }
    }
}
