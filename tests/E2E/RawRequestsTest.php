<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\RawClient;
use Spindle\Tests\E2E\Support\ServerProcess;

/**
 * The table "What clients get for bad requests" of docs/options.md, row by row, sent as raw
 * bytes: each gets its status and a closed connection, and the worker goes on serving.
 * (ErrorHandlingTest covers the rows about limits on the head and the body size.)
 */
final class RawRequestsTest extends E2ETestCase
{
    private static function server(): ServerProcess
    {
        return self::sharedServer(ServerProcess::fixture('echo.php'));
    }

    private static function form(string $contentType, string $body): string
    {
        return "POST /form HTTP/1.1\r\nHost: a\r\nContent-Type: {$contentType}\r\nContent-Length: " . \strlen($body) . "\r\n\r\n" . $body;
    }

    /** @param list<string> $parts */
    private static function multipart(array $parts): string
    {
        return '--b' . "\r\n" . \implode("\r\n--b\r\n", $parts) . "\r\n--b--\r\n";
    }

    /** @return iterable<string, array{string, int}> */
    public static function badRequests(): iterable
    {
        yield 'obsolete line folding' => ["GET / HTTP/1.1\r\nHost: a\r\nX-A: one\r\n two\r\n\r\n", 400];
        yield 'NUL in a header value' => ["GET / HTTP/1.1\r\nHost: a\r\nX-A: a\0b\r\n\r\n", 400];
        yield 'bare LF line endings' => ["GET / HTTP/1.1\nHost: a\n\n", 400];
        yield 'control character in a header value' => ["GET / HTTP/1.1\r\nHost: a\r\nX-A: a\x01b\r\n\r\n", 400];
        yield 'DEL in a header value' => ["GET / HTTP/1.1\r\nHost: a\r\nX-A: a\x7fb\r\n\r\n", 400];
        yield 'fragment in the target' => ["GET /a#frag HTTP/1.1\r\nHost: a\r\n\r\n", 400];
        yield 'Host with a path' => ["GET / HTTP/1.1\r\nHost: a/admin\r\n\r\n", 400];
        yield 'Host with a space' => ["GET / HTTP/1.1\r\nHost: a b\r\n\r\n", 400];
        yield 'whitespace after a chunk size' => ["POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5 \r\nhello\r\n0\r\n\r\n", 400];
        yield 'NUL in a chunk extension' => ["POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5;a\0b\r\nhello\r\n0\r\n\r\n", 400];
        yield 'bare CR in a chunk extension' => ["POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5;a\rb\r\nhello\r\n0\r\n\r\n", 400];
        yield 'bare LF in a quoted chunk extension' => ["POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5;a=\"x\ny\"\r\nhello\r\n0\r\n\r\n", 400];
        yield 'unterminated quoted chunk extension' => ["POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5;a=\"x\r\nhello\r\n0\r\n\r\n", 400];
        yield 'control character in a trailer field' => ["POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX-T: a\x01b\r\n\r\n", 400];
        yield 'bare CR in a trailer field' => ["POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX-T: a\rb\r\n\r\n", 400];
        yield 'obsolete line folding in the trailer section' => ["POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX-T: a\r\n b\r\n\r\n", 400];
        yield 'trailer line without a colon' => ["POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX-T\r\n\r\n", 400];
        yield 'chunk size line ending in a bare LF' => ["POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\nhello\r\n0\r\n\r\n", 400];
        yield 'header line without a colon' => ["GET / HTTP/1.1\r\nHost: a\r\nno colon\r\n\r\n", 400];
        yield 'tab between method and target' => ["GET\t/ HTTP/1.1\r\nHost: a\r\n\r\n", 400];
        yield 'lower-case HTTP' => ["GET / http/1.1\r\nHost: a\r\n\r\n", 400];
        yield 'asterisk for GET' => ["GET * HTTP/1.1\r\nHost: a\r\n\r\n", 400];
        yield 'target without a slash' => ["GET x HTTP/1.1\r\nHost: a\r\n\r\n", 400];
        yield 'more than 100 header fields' => ["GET / HTTP/1.1\r\nHost: a\r\n" . \str_repeat("X-A: 1\r\n", 100) . "\r\n", 431];
        yield 'CONNECT' => ["CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n", 501];
        yield 'Transfer-Encoding in HTTP/1.0' => ["POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400];
        yield 'chunked twice' => ["POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, chunked\r\n\r\n0\r\n\r\n", 400];
        yield 'gzip before chunked' => ["POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n", 501];
        yield 'Content-Length with a sign' => ["POST / HTTP/1.1\r\nHost: a\r\nContent-Length: +5\r\n\r\nhello", 400];
        yield 'Content-Length past PHP_INT_MAX' => ["POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999999999999999999\r\n\r\n", 400];
        yield 'chunk data longer than its size' => ["POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nhello\r\n0\r\n\r\n", 400];
        yield 'chunk size in hex with 0x' => ["POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0x5\r\nhello\r\n0\r\n\r\n", 400];
        yield 'huge chunk size' => ["POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFFFFFF\r\n", 400];
        yield 'more than 1,000 form variables' => [self::form('application/x-www-form-urlencoded', \implode('&', \array_map(static fn (int $i): string => "v{$i}=1", \range(0, 1000)))), 413];
        yield 'more than 1,000 multipart parts' => [self::form('multipart/form-data; boundary=b', self::multipart(\array_map(static fn (int $i): string => "Content-Disposition: form-data; name=\"v{$i}\"\r\n\r\n1", \range(0, 1000)))), 413];
        yield 'multipart field over 1 MiB' => [self::form('multipart/form-data; boundary=b', self::multipart(["Content-Disposition: form-data; name=\"v\"\r\n\r\n" . \str_repeat('v', 1048577)])), 413];
        yield 'multipart part headers over 8 KiB' => [self::form('multipart/form-data; boundary=b', self::multipart(["Content-Disposition: form-data; name=\"v\"\r\nX-Pad: " . \str_repeat('p', 9000) . "\r\n\r\n1"])), 400];
        yield 'multipart without a boundary' => [self::form('multipart/form-data', self::multipart(["Content-Disposition: form-data; name=\"v\"\r\n\r\n1"])), 400];
        yield 'multipart without its closing boundary' => [self::form('multipart/form-data; boundary=b', "--b\r\nContent-Disposition: form-data; name=\"v\"\r\n\r\n1\r\n"), 400];
        yield 'multipart part without Content-Disposition' => [self::form('multipart/form-data; boundary=b', self::multipart(["Content-Type: text/plain\r\n\r\n1"])), 400];
    }

    /** @dataProvider badRequests */
    public function testBadRequestIsAnsweredAndTheConnectionClosed(string $request, int $status): void
    {
        $server = self::server();
        self::assertRefusedAndClosed($server, $request, $status);
        self::assertServerAnswers($server, '/still-alive');
    }

    public function testAcceptedEdgeCases(): void
    {
        $client = new RawClient(self::server()->port());
        // Empty lines before a request line are ignored; identical Content-Length values are one.
        $client->send("\r\n\r\nPOST /a HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\nabc");
        $a = $client->readResponse()->json();
        self::assertSame(['/a', 'abc'], [$a['path'], $a['body']]);
        // Chunk extensions and trailers are read and dropped; Chunked in any case.
        $client->send("POST /b HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: Chunked\r\n\r\n3;ext=1\r\nabc\r\n2\r\nde\r\n0\r\nX-Trailer: 1\r\n\r\n");
        $b = $client->readResponse()->json();
        self::assertSame(['/b', 'abcde'], [$b['path'], $b['body']]);
        // OPTIONS *.
        $client->send("OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n");
        self::assertSame('*', $client->readResponse()->json()['target']);
        // A tab in a header value is fine; an absolute-form target's authority is the host.
        $client->send("GET http://example.com:81/c?d=1 HTTP/1.1\r\nHost: other\r\nX-A: a\tb\r\n\r\n");
        $c = $client->readResponse()->json();
        self::assertSame(['/c', 'd=1', ['example.com:81'], ['a' . "\t" . 'b']], [$c['path'], $c['query'], $c['headers']['host'] ?? $c['headers']['Host'] ?? null, $c['headers']['x-a'] ?? $c['headers']['X-A'] ?? null]);
        self::assertFalse($client->isClosedByServer());
    }

    /**
     * RFC 9110 §5.5: a response header value or reason phrase with a control character (other
     * than tab) is not sent: the client gets a 500, the log says why, and the worker goes on.
     */
    public function testAResponseWithAControlCharacterBecomesA500(): void
    {
        $server = self::sharedServer(ServerProcess::fixture('control-characters.php'), ['--workers=1']);
        $client = new RawClient($server->port());
        foreach ([0, 1, 8, 10, 11, 13, 27, 31, 127] as $byte) {
            foreach (['/value', '/reason', '/name', '/streamed'] as $path) {
                $client->send("GET {$path}?byte={$byte} HTTP/1.1\r\nHost: a\r\n\r\n");
                $response = $client->readResponse();
                self::assertSame(500, $response->status, $path . ' byte ' . $byte . ': ' . $response->raw);
                self::assertSame("Internal Server Error\n", $response->body);
                // The head that was refused did not reach the client in any form.
                self::assertStringNotContainsString('X-Value', $response->raw);
                self::assertStringNotContainsString('Name', $response->raw);
            }
            self::assertTrue($server->waitForLog('GET /reason: invalid response: Invalid response reason phrase'), $server->stderr());
        }
        self::assertTrue($server->waitForLog('GET /value: invalid response: Invalid value for response header "X-Value"'), $server->stderr());
        self::assertTrue($server->waitForLog('GET /name: invalid response: Invalid response header name'), $server->stderr());
        // A tab is fine, and the same connection goes on serving.
        $client->send("GET /value?byte=9 HTTP/1.1\r\nHost: a\r\n\r\n");
        $response = $client->readResponse();
        self::assertSame([200, "a\tb"], [$response->status, $response->header('x-value')]);
        self::assertFalse($client->isClosedByServer());
    }

    public function testHttp10(): void
    {
        // Without Host, closed after the response unless it asks for keep-alive.
        $client = new RawClient(self::server()->port());
        $client->send("GET /one HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
        $one = $client->readResponse();
        self::assertSame(['1.0', 200, 'keep-alive'], [$one->protocol, $one->status, $one->header('connection')]);
        $client->send("GET /two HTTP/1.0\r\n\r\n");
        $two = $client->readResponse();
        self::assertSame(['1.0', 200, 'close'], [$two->protocol, $two->status, $two->header('connection')]);
        self::assertSame('/two', $two->json()['path']);
        self::assertTrue($client->waitForClose(2.0));
    }

    public function testExpectContinueThenTheBody(): void
    {
        $client = new RawClient(self::server()->port());
        $client->send("POST /upload HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n");
        self::assertSame(100, $client->readResponse()->status);
        $client->send('hello');
        $response = $client->readResponse();
        self::assertSame(200, $response->status);
        self::assertSame('hello', $response->json()['body']);
    }

    public function testASlowHeadGets408AndOthersAreServedMeanwhile(): void
    {
        $server = self::sharedServer(ServerProcess::fixture('echo.php'), ['--header-timeout=1']);
        $slow = new RawClient($server->port());
        $slow->send("GET / HTTP/1.1\r\nHost: a\r\n");
        self::assertServerAnswers($server, '/meanwhile');
        $response = $slow->readResponse(timeout: 10.0);
        self::assertSame(408, $response->status);
        self::assertTrue($slow->waitForClose(2.0));
        self::assertServerAnswers($server, '/after');
    }

    public function testAMultipartUploadThroughARawSocket(): void
    {
        $file = \random_bytes(300000);
        $body = self::multipart([
            "Content-Disposition: form-data; name=\"title\"\r\n\r\nhello",
            "Content-Disposition: form-data; name=\"files[]\"; filename=\"../../a.bin\"\r\nContent-Type: application/octet-stream\r\n\r\n" . $file,
        ]);
        $response = self::rawRequest(self::server(), self::form('multipart/form-data; boundary=b', $body));
        self::assertSame(200, $response->status, \substr($response->raw, 0, 500));
        $seen = $response->json();
        self::assertSame(['title' => 'hello'], $seen['parsedBody']);
        self::assertSame('a.bin', $seen['files']['files'][0]['name'], 'the client file name has no directory part');
        self::assertSame(\sha1($file), $seen['files']['files'][0]['sha1']);
        self::assertSame(\UPLOAD_ERR_OK, $seen['files']['files'][0]['error']);
        self::assertServerAnswers(self::server(), '/after-upload');
    }

    public function testConnectionCloseFromTheApplicationClosesTheConnection(): void
    {
        $server = self::sharedServer(ServerProcess::fixture('closing.php'), ['--workers=1']);
        $client = new RawClient($server->port());
        // Pipelined behind it: dropped, as the response said the connection ends.
        $client->send("GET /close HTTP/1.1\r\nHost: a\r\n\r\nGET /after HTTP/1.1\r\nHost: a\r\n\r\n");
        $response = $client->readResponse();
        self::assertSame('bye', $response->body);
        self::assertSame('close', $response->header('connection'));
        self::assertSame('', $client->readUntilClosed());
        self::assertSame('ok', self::assertServerAnswers($server, '/ok')->body);
    }
}
