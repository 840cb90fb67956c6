<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\RawClient;
use Spindle\Tests\E2E\Support\ServerProcess;

/**
 * Raw requests whose line endings, target form or Host header are unusual: each gets an answer at
 * once, and the URI the application sees is the one RFC 9112 says it is.
 */
final class RequestTargetTest extends E2ETestCase
{
    private static function uriServer(): ServerProcess
    {
        return self::sharedServer(ServerProcess::fixture('uri.php'), ['--workers=1']);
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
}
