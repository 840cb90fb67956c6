<?php

declare(strict_types=1);

namespace Spindle\Tests\Reported;

use Spindle\Tests\E2E\E2ETestCase;
use Spindle\Tests\E2E\RawClient;
use Spindle\Tests\E2E\ServerProcess;

/**
 * Known bugs in src/Http, src/Server and src/Bridge, each pinned by a test that fails until it is fixed.
 *
 * This directory belongs to no test suite, so the default run stays green; run it with
 * `vendor/bin/phpunit tests/Reported`. Move a test into tests/E2E once it passes.
 */
final class ReportedBugsTest extends E2ETestCase
{
    private static function uriServer(): ServerProcess
    {
        return self::sharedServer(__DIR__ . '/uri-app.php', ['--workers=1']);
    }

    /**
     * RFC 9112 §2.2 lets a server accept a bare LF as a line terminator, or refuse the request;
     * either way it must answer. Today the parser waits for CRLF CRLF until --header-timeout
     * (15 s) and then answers 408.
     */
    public function testHeadWithBareLfLineEndingsIsAnsweredAtOnce(): void
    {
        $client = new RawClient(self::uriServer()->port());
        $client->send("GET /lf HTTP/1.1\nHost: a\n\n");
        $response = $client->readResponse(timeout: 5.0);
        self::assertContains($response->status, [200, 400]);
    }

    /** The same inside a chunked body: today it stalls until --body-timeout (60 s), then 408. */
    public function testChunkedBodyWithBareLfLineEndingsIsAnsweredAtOnce(): void
    {
        $client = new RawClient(self::uriServer()->port());
        $client->send("POST /lf HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\nhello\n0\n\n");
        $response = $client->readResponse(timeout: 5.0);
        self::assertContains($response->status, [200, 400]);
    }

    /**
     * RFC 9112 §3.2.2: with an absolute-form target the server must use the target's authority
     * and ignore Host. Today the URI is built from Host.
     */
    public function testAbsoluteFormTargetDecidesTheHost(): void
    {
        $response = self::rawRequest(self::uriServer(), "GET http://example.com:81/abs?q=1 HTTP/1.1\r\nHost: other\r\n\r\n");
        self::assertSame(200, $response->status);
        $seen = $response->json();
        self::assertSame('example.com', $seen['host']);
        self::assertSame(81, $seen['port']);
        self::assertSame('/abs', $seen['path']);
    }

    /**
     * The PSR-7 bridge concatenates "http://" . Host . target, so a Host header carrying "/",
     * "?" or "#" changes the path or the query the application routes on: "GET /" with
     * "Host: a/admin" reaches the app as /admin/. The HttpFoundation bridge answers 400.
     *
     * @return iterable<string, array{string}>
     */
    public static function hostsThatAreNotHosts(): iterable
    {
        yield 'slash' => ['a/admin'];
        yield 'question mark' => ['a?debug=1'];
        yield 'hash' => ['a#x'];
        yield 'space' => ['a b'];
        yield 'user info' => ['user@a'];
    }

    /** @dataProvider hostsThatAreNotHosts */
    public function testAnInvalidHostHeaderIsRefused(string $host): void
    {
        $response = self::rawRequest(self::uriServer(), "GET /x?y=1 HTTP/1.1\r\nHost: {$host}\r\n\r\n");
        if ($response->status === 200) {
            $seen = $response->json();
            self::assertSame(['/x', 'y=1', '/x?y=1'], [$seen['path'], $seen['query'], $seen['target']], 'the Host header changed what the application routes on');
        }
        self::assertSame(400, $response->status);
    }

    /**
     * Without the ev, event or uv extension Revolt watches sockets with select(), which cannot
     * watch a descriptor numbered 1024 or above. HttpServer accepts without a limit, so one
     * client that opens ~1,020 connections to a worker makes its loop throw ("You have reached
     * the limits of stream_select()"): the worker exits with status 70 and every request in
     * flight on it is lost; doing it again keeps the workers crashing (with restart backoff).
     * A cap on open connections per worker (stop accepting at the cap, resume when one closes;
     * the rest wait in the listen queue) would avoid it.
     */
    public function testMoreConnectionsThanSelectCanWatchDoNotCrashTheWorker(): void
    {
        if (\extension_loaded('ev') || \extension_loaded('event') || \extension_loaded('uv')) {
            self::markTestSkipped('the loop does not use select() here');
        }
        // Idle connections are closed after --keepalive-timeout: with a cap, the worker gets
        // to the last connection once the idle ones before it are gone.
        $server = ServerProcess::start(\dirname(__DIR__, 2) . '/examples/hello.php', ['--workers=1', '--keepalive-timeout=1']);
        try {
            // Plain blocking sockets: the test's own select() would fail on these descriptors.
            $idle = [];
            for ($i = 0; $i < 1100; ++$i) {
                $socket = \stream_socket_client('tcp://127.0.0.1:' . $server->port(), $errno, $error, 5.0);
                self::assertIsResource($socket, $error);
                $idle[] = $socket;
            }
            // The worker accepts in arrival order: it answers this one after it has taken (or
            // refused to take more of) the 1,100 idle connections before it.
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

    /**
     * docs/options.md: "A directory serves its index.html." Every directory does except the
     * document root itself: "/" always goes to the app (realpath() of the root has no trailing
     * slash, so it fails the inside-the-root check).
     */
    public function testTheStaticDirectoryRootServesItsIndexHtml(): void
    {
        $root = \sys_get_temp_dir() . '/spindle-reported-static-' . \getmypid();
        @\mkdir($root);
        \file_put_contents($root . '/index.html', '<h1>root</h1>');
        try {
            $server = self::sharedServer(\dirname(__DIR__, 2) . '/examples/hello.php', ['--workers=1', '--static-dir=' . $root]);
            $response = self::rawRequest($server, "GET / HTTP/1.1\r\nHost: a\r\n\r\n");
            self::assertSame(200, $response->status);
            self::assertSame('<h1>root</h1>', $response->body);
        } finally {
            @\unlink($root . '/index.html');
            @\rmdir($root);
        }
    }
}
