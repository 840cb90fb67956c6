<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\RawClient;
use Spindle\Tests\E2E\Support\ServerProcess;

/** --static-dir: files served ahead of the app, with validators and ranges, never outside the root. */
final class StaticFilesTest extends E2ETestCase
{
    private static function root(): string
    {
        return \dirname(__DIR__) . '/fixtures/static';
    }

    private static function server(): ServerProcess
    {
        return self::sharedServer(ServerProcess::fixture('echo.php'), ['--static-dir=' . self::root()]);
    }

    public function testServesAFileWithTypeAndValidators(): void
    {
        $result = self::curl(['-s', '-i', self::server()->url('/hello.txt')]);
        self::assertSame(0, $result['code'], $result['err']);
        $response = self::parseCurlResponse($result['out']);
        $content = (string) \file_get_contents(self::root() . '/hello.txt');

        self::assertSame(200, $response['status']);
        self::assertSame($content, $response['body']);
        self::assertStringStartsWith('text/plain', $response['headers']['content-type'][0] ?? '');
        self::assertSame([(string) \strlen($content)], $response['headers']['content-length'] ?? null);
        self::assertMatchesRegularExpression('/^"[0-9a-f]+-[0-9a-f]+"$/', $response['headers']['etag'][0] ?? '');
        self::assertArrayHasKey('last-modified', $response['headers']);

        $css = self::rawRequest(self::server(), self::get('/style.css', "Connection: close\r\n"));
        self::assertSame(200, $css->status);
        self::assertStringStartsWith('text/css', (string) $css->header('content-type'));
        self::assertSame(\file_get_contents(self::root() . '/style.css'), $css->body);

        $index = self::rawRequest(self::server(), self::get('/sub/', "Connection: close\r\n"));
        self::assertSame(200, $index->status);
        self::assertStringStartsWith('text/html', (string) $index->header('content-type'));
        self::assertSame(\file_get_contents(self::root() . '/sub/index.html'), $index->body);
    }

    public function testConditionalRangeAndHeadRequests(): void
    {
        $client = new RawClient(self::server()->port());
        $client->send(self::get('/hello.txt'));
        $full = $client->readResponse();
        $etag = (string) $full->header('etag');
        self::assertNotSame('', $etag);

        $client->send(self::get('/hello.txt', "If-None-Match: {$etag}\r\n"));
        $notModified = $client->readResponse();
        self::assertSame(304, $notModified->status);
        self::assertSame($etag, $notModified->header('etag'));
        self::assertSame('', $notModified->body);

        $client->send(self::get('/hello.txt', "Range: bytes=0-4\r\n"));
        $partial = $client->readResponse();
        self::assertSame(206, $partial->status);
        self::assertSame('Hello', $partial->body);
        self::assertSame('bytes 0-4/' . \strlen($full->body), $partial->header('content-range'));
        self::assertSame('5', $partial->header('content-length'));

        $client->send(self::get('/hello.txt', "Range: bytes=-5\r\n"));
        self::assertSame(\substr($full->body, -5), $client->readResponse()->body);

        $client->send(self::get('/hello.txt', "Range: bytes=1000-\r\n"));
        self::assertSame(416, $client->readResponse()->status);

        $client->send("HEAD /hello.txt HTTP/1.1\r\nHost: a\r\n\r\n");
        $head = $client->readResponse(forHead: true);
        self::assertSame(200, $head->status);
        self::assertSame((string) \strlen($full->body), $head->header('content-length'));

        // Nothing followed the HEAD response's head: the next response parses cleanly.
        $client->send(self::get('/hello.txt', "Connection: close\r\n"));
        self::assertSame($full->body, $client->readResponse()->body);
        self::assertSame('', $client->readUntilClosed(2.0));
    }

    /** @return iterable<string, array{string}> */
    public static function escapes(): iterable
    {
        yield 'dot-dot' => ['/../secret.txt'];
        yield 'dot-dot below a directory' => ['/sub/../../secret.txt'];
        yield 'encoded dots' => ['/%2e%2e/secret.txt'];
        yield 'encoded slash' => ['/..%2fsecret.txt'];
        yield 'backslash' => ['/..\\secret.txt'];
        yield 'encoded backslash' => ['/..%5csecret.txt'];
    }

    /** @dataProvider escapes */
    public function testPathsEscapingTheRootAreNotServed(string $path): void
    {
        self::assertFileExists(\dirname(self::root()) . '/secret.txt');
        $response = self::rawRequest(self::server(), self::get($path, "Connection: close\r\n"));
        self::assertStringNotContainsString('TOP SECRET', $response->raw);
        if ($response->status === 200) {
            // Not a file: the request went on to the app, which echoes it.
            self::assertSame('application/json', $response->header('content-type'));
        } else {
            self::assertSame(404, $response->status);
        }
    }

    public function testOtherRequestsReachTheApp(): void
    {
        $missing = self::rawRequest(self::server(), self::get('/no-such-file.txt', "Connection: close\r\n"));
        self::assertSame(200, $missing->status);
        self::assertSame('/no-such-file.txt', $missing->json()['path']);

        $post = self::rawRequest(self::server(), "POST /hello.txt HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi");
        self::assertSame('POST', $post->json()['method']);
        self::assertSame('hi', $post->json()['body']);

        $hidden = self::rawRequest(self::server(), self::get('/.hidden', "Connection: close\r\n"));
        self::assertSame('/.hidden', $hidden->json()['path']);

        // A PHP file is the app's to run, never sent as its source.
        $script = self::rawRequest(self::server(), self::get('/script.php', "Connection: close\r\n"));
        self::assertSame('/script.php', $script->json()['path']);
    }
}
