<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\RawClient;
use Spindle\Tests\E2E\Support\ServerProcess;

/** examples/hello.php served by `bin/spindle serve`, fetched with curl. */
final class HelloExampleTest extends E2ETestCase
{
    private static function server(): ServerProcess
    {
        return self::sharedServer(\dirname(__DIR__, 2) . '/examples/hello.php');
    }

    public function testGetWithCurl(): void
    {
        $result = self::curl(['-s', '-i', self::server()->url('/')]);
        self::assertSame(0, $result['code'], $result['err']);
        $response = self::parseCurlResponse($result['out']);

        self::assertSame(200, $response['status']);
        self::assertSame('1.1', $response['protocol']);
        self::assertSame('Hello World', $response['body']);
        self::assertCount(1, $response['headers']['content-type'] ?? []);
        self::assertStringStartsWith('text/plain', $response['headers']['content-type'][0]);
        self::assertSame(['11'], $response['headers']['content-length'] ?? null);
        self::assertMatchesRegularExpression('/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/', $response['headers']['date'][0] ?? '');
        self::assertArrayNotHasKey('transfer-encoding', $response['headers']);
    }

    public function testHeadHasHeadersButNoBody(): void
    {
        $result = self::curl(['-s', '-I', self::server()->url('/')]);
        self::assertSame(0, $result['code'], $result['err']);
        $response = self::parseCurlResponse($result['out']);
        self::assertSame(200, $response['status']);
        self::assertSame(['11'], $response['headers']['content-length'] ?? null);
        self::assertSame('', $response['body']);

        // On the wire: no body bytes follow the head, so the next response on the connection
        // starts right after it.
        $client = new RawClient(self::server()->port());
        $client->send("HEAD / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
        $head = $client->readResponse(forHead: true);
        self::assertSame(200, $head->status);
        self::assertSame('11', $head->header('content-length'));
        $client->send(self::get('/', "Connection: close\r\n"));
        $get = $client->readResponse();
        self::assertSame('Hello World', $get->body);
        self::assertSame('', $client->readUntilClosed(2.0));
    }

    public function testHttp10WithCurl(): void
    {
        $result = self::curl(['-s', '-i', '--http1.0', self::server()->url('/')]);
        self::assertSame(0, $result['code'], $result['err']);
        $response = self::parseCurlResponse($result['out']);
        self::assertSame('1.0', $response['protocol']);
        self::assertSame(200, $response['status']);
        self::assertSame('Hello World', $response['body']);
        self::assertSame(['11'], $response['headers']['content-length'] ?? null);
        self::assertSame(['close'], $response['headers']['connection'] ?? null);
    }
}
