<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\RawClient;
use Spindle\Tests\E2E\Support\ServerProcess;

/** A Symfony HttpFoundation application behind Spindle's request and response converters. */
final class HttpFoundationTest extends E2ETestCase
{
    private ?string $dir = null;

    protected function tearDown(): void
    {
        if ($this->dir !== null) {
            foreach (\glob($this->dir . '/*') ?: [] as $file) {
                \unlink($file);
            }
            @\rmdir($this->dir);
        }
    }

    private static function server(): ServerProcess
    {
        return self::sharedServer(ServerProcess::fixture('httpfoundation.php'));
    }

    private static function fixtureFile(): string
    {
        return (string) \file_get_contents(ServerProcess::fixture('httpfoundation.php'));
    }

    public function testUploadsAreMovedWithUploadedFileMove(): void
    {
        $this->dir = \sys_get_temp_dir() . '/spindle-hf-e2e-' . \bin2hex(\random_bytes(4));
        \mkdir($this->dir);
        $one = $this->dir . '/../spindle-hf-one-' . \bin2hex(\random_bytes(4)) . '.txt';
        \file_put_contents($one, \str_repeat('first file ', 1000));
        try {
            $result = self::curl([
                '-s', '-F', 'title=Report', '-F', 'docs[a][b]=@' . $one . ';filename=deep.txt',
                '-F', 'docs[]=@' . $one . ';filename=one.txt', '-F', 'docs[]=@' . $one . ';filename=two.txt',
                self::server()->url('/upload?dir=' . \rawurlencode($this->dir)),
            ]);
        } finally {
            \unlink($one);
        }
        self::assertSame(0, $result['code'], $result['err']);
        $json = \json_decode($result['out'], true);
        self::assertIsArray($json, $result['out']);

        self::assertSame(['title' => 'Report'], $json['fields']);
        $files = $json['files']['docs'];
        self::assertSame(['a', 0, 1], \array_keys($files));
        self::assertSame('deep.txt', $files['a']['b']['name']);
        self::assertSame(['one.txt', 'two.txt'], [$files[0]['name'], $files[1]['name']]);
        foreach ([$files['a']['b'], $files[0], $files[1]] as $file) {
            self::assertTrue($file['valid']);
            self::assertFalse($file['tmpLeft'], 'moved, not copied');
            self::assertSame(\str_repeat('first file ', 1000), \file_get_contents($file['movedTo']));
        }
        self::assertCount(3, \glob($this->dir . '/*') ?: []);
        self::assertStringNotContainsString('ERROR', self::server()->stderr());
    }

    public function testEveryCookieIsItsOwnSetCookieHeader(): void
    {
        $result = self::curl(['-s', '-i', self::server()->url('/cookies')]);
        $response = self::parseCurlResponse($result['out']);

        self::assertSame(200, $response['status']);
        $cookies = $response['headers']['set-cookie'] ?? [];
        self::assertCount(3, $cookies);
        self::assertStringStartsWith('session=abc123; path=/; httponly', $cookies[0]);
        self::assertStringStartsWith('theme=dark; path=/', $cookies[1]);
        self::assertStringStartsWith('lang=en; path=/', $cookies[2]);
        self::assertCount(1, $response['headers']['date'] ?? []);
        self::assertSame("cookies set\n", $response['body']);
    }

    public function testStreamedResponseChunksArriveBeforeTheCallbackEnds(): void
    {
        $client = new RawClient(self::server()->port());
        $client->send(self::get('/events'));

        // The callback prints the first event, then waits a second before the second one.
        self::assertTrue($client->waitFor('data: first', 0.9), 'the first event did not arrive before the callback ended');
        self::assertStringNotContainsString('data: second', $client->buffered());
        self::assertStringContainsString("Transfer-Encoding: chunked\r\n", $client->buffered());

        $response = $client->readResponse(timeout: 3.0);
        self::assertSame(200, $response->status);
        self::assertStringStartsWith('text/event-stream', (string) $response->header('content-type'));
        self::assertSame("data: first\n\ndata: second\n\n", $response->body);

        // The connection is fine afterwards.
        $client->send(self::get('/cookies'));
        self::assertSame(200, $client->readResponse()->status);
    }

    public function testStreamDoesNotHoldUpOtherRequests(): void
    {
        $stream = new RawClient(self::server()->port());
        $stream->send(self::get('/events'));
        self::assertTrue($stream->waitFor('data: first', 0.9));

        // While the stream's callback waits, the single worker answers others.
        $cookies = self::curl(['-s', self::server()->url('/cookies')]);
        self::assertSame("cookies set\n", $cookies['out']);
        self::assertStringNotContainsString('data: second', $stream->buffered());
        self::assertSame("data: first\n\ndata: second\n\n", $stream->readResponse(timeout: 3.0)->body);
    }

    public function testFileResponseHonoursRange(): void
    {
        $whole = self::curl(['-s', '-i', self::server()->url('/file')]);
        $response = self::parseCurlResponse($whole['out']);
        self::assertSame(200, $response['status']);
        self::assertSame(self::fixtureFile(), $response['body']);
        self::assertSame([(string) \strlen(self::fixtureFile())], $response['headers']['content-length']);
        self::assertSame(['bytes'], $response['headers']['accept-ranges']);

        $part = self::parseCurlResponse(self::curl(['-s', '-i', '-r', '10-29', self::server()->url('/file')])['out']);
        self::assertSame(206, $part['status']);
        self::assertSame(\substr(self::fixtureFile(), 10, 20), $part['body']);
        self::assertSame(['bytes 10-29/' . \strlen(self::fixtureFile())], $part['headers']['content-range']);
        self::assertSame(['20'], $part['headers']['content-length']);

        $none = self::parseCurlResponse(self::curl(['-s', '-i', '-r', '999999-1000000', self::server()->url('/file')])['out']);
        self::assertSame(416, $none['status']);
        self::assertSame('', $none['body']);
    }

    public function testHeadResponsesHaveHeadersAndNoBody(): void
    {
        $file = self::rawRequest(self::server(), "HEAD /file HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n", true);
        self::assertSame(200, $file->status);
        self::assertSame((string) \strlen(self::fixtureFile()), $file->header('content-length'));
        self::assertSame('', $file->body);

        $client = new RawClient(self::server()->port());
        $client->send("HEAD /cookies HTTP/1.1\r\nHost: a\r\n\r\n");
        $page = $client->readResponse(forHead: true);
        self::assertSame(200, $page->status);
        self::assertNotNull($page->header('set-cookie'));
        self::assertSame('12', $page->header('content-length'));
        // Nothing but the head was sent: the next response follows right after it.
        $client->send(self::get('/cookies', "Connection: close\r\n"));
        self::assertSame("cookies set\n", $client->readResponse()->body);

        $stream = self::rawRequest(self::server(), "HEAD /events HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n", true);
        self::assertSame(200, $stream->status);
        self::assertSame('', $stream->body);
    }

    public function testTrustedProxyForwardedForIsTheClient(): void
    {
        $json = \json_decode(self::curl(['-s', '-H', 'X-Forwarded-For: 203.0.113.9', '-H', 'X-Forwarded-Proto: https', self::server()->url('/whoami')])['out'], true);

        self::assertSame(['clientIp' => '203.0.113.9', 'remoteAddr' => '127.0.0.1', 'secure' => true], $json);
    }

    public function testServerVariables(): void
    {
        $server = \json_decode(self::curl(['-s', self::server()->url('/server?q=1')])['out'], true);
        self::assertIsArray($server);

        self::assertSame('/server?q=1', $server['REQUEST_URI']);
        self::assertSame('q=1', $server['QUERY_STRING']);
        self::assertSame('127.0.0.1', $server['REMOTE_ADDR']);
        self::assertSame((string) self::server()->port(), $server['SERVER_PORT']);
        self::assertSame('/index.php', $server['SCRIPT_NAME']);
        self::assertSame('e2e', $server['APP_ENV']);
        self::assertStringStartsWith('curl/', $server['HTTP_USER_AGENT']);
    }
}
