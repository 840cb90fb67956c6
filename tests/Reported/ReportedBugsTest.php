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
     * A FileBody whose file cannot be opened is found out only after "200 OK" and its
     * Content-Length went out: the client gets a 200 head and a cut connection instead of a 500
     * (the log says "response could not be sent: Cannot open …").
     */
    public function testAFileBodyThatCannotBeOpenedIsA500(): void
    {
        $server = self::sharedServer(__DIR__ . '/missing-file-app.php', ['--workers=1']);
        $client = new RawClient($server->port());
        $client->send("GET /missing HTTP/1.1\r\nHost: a\r\n\r\n");
        self::assertTrue($client->waitForClose(5.0) || $client->waitFor("\r\n\r\n", 5.0));
        self::assertStringStartsWith('HTTP/1.1 500', $client->buffered());
        self::assertServerAnswers($server, '/ok');
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
