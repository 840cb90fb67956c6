<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\RawClient;
use Spindle\Tests\E2E\Support\ServerProcess;

/** Malformed requests get the right status and a closed connection; app errors become 500. */
final class ErrorHandlingTest extends E2ETestCase
{
    private const MAX_BODY = 1048576;

    private static function echoServer(): ServerProcess
    {
        return self::sharedServer(ServerProcess::fixture('echo.php'), ['--max-body-size=' . self::MAX_BODY]);
    }

    private static function throwingServer(bool $debug = false): ServerProcess
    {
        return self::sharedServer(ServerProcess::fixture('throwing.php'), $debug ? ['--debug'] : []);
    }

    /** @return iterable<string, array{string, int}> */
    public static function badRequests(): iterable
    {
        yield 'malformed request line' => ["GARBAGE\r\n\r\n", 400];
        yield 'too many request line parts' => ["GET / x HTTP/1.1\r\nHost: a\r\n\r\n", 400];
        yield 'missing Host' => ["GET / HTTP/1.1\r\n\r\n", 400];
        yield 'two Host headers' => ["GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400];
        yield 'space before colon' => ["GET / HTTP/1.1\r\nHost : a\r\n\r\n", 400];
        yield 'request line too long' => ['GET /' . \str_repeat('a', 9000) . " HTTP/1.1\r\nHost: a\r\n\r\n", 414];
        yield 'header section too large' => ["GET / HTTP/1.1\r\nHost: a\r\nX-Big: " . \str_repeat('b', 17000) . "\r\n\r\n", 431];
        yield 'Content-Length over --max-body-size' => ["POST / HTTP/1.1\r\nHost: a\r\nContent-Length: " . (self::MAX_BODY + 1) . "\r\n\r\n", 413];
        yield 'over the limit with Expect' => ["POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 2000000\r\n\r\n", 413];
        yield 'chunked body over the limit' => ["POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n100001\r\n", 413];
        yield 'Transfer-Encoding: gzip' => ["POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\n", 501];
        yield 'Content-Length and Transfer-Encoding' => ["POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400];
        yield 'conflicting Content-Lengths' => ["POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!", 400];
        yield 'negative Content-Length' => ["POST / HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n", 400];
        yield 'bad chunk size' => ["POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400];
        yield 'HTTP/1.2' => ["GET / HTTP/1.2\r\nHost: a\r\n\r\n", 505];
        yield 'HTTP/2.0' => ["GET / HTTP/2.0\r\nHost: a\r\n\r\n", 505];
        yield 'unsupported expectation' => ["POST / HTTP/1.1\r\nHost: a\r\nExpect: something\r\nContent-Length: 1\r\n\r\n", 417];
    }

    /** @dataProvider badRequests */
    public function testBadRequestIsRejectedAndTheConnectionClosed(string $request, int $status): void
    {
        $server = self::echoServer();
        $client = self::assertRefusedAndClosed($server, $request, $status);
        self::assertSame('', $client->buffered());

        // Nothing crashed: the same server answers a normal request.
        self::assertServerAnswers($server, '/still-alive');
        self::assertTrue($server->isRunning());
    }

    public function testErrorAfterPipelinedRequestsComesAfterTheirResponses(): void
    {
        $client = new RawClient(self::echoServer()->port());
        $client->send(self::get('/first') . self::get('/second') . "BROKEN\r\n\r\n" . self::get('/never'));
        self::assertSame('/first', $client->readResponse()->json()['path']);
        self::assertSame('/second', $client->readResponse()->json()['path']);
        self::assertSame(400, $client->readResponse()->status);
        self::assertTrue($client->waitForClose(2.0));
        self::assertSame('', $client->buffered());
    }

    public function testHandlerExceptionBecomes500WithoutDetails(): void
    {
        $server = self::throwingServer();
        $client = new RawClient($server->port());
        $client->send(self::get('/boom'));
        $response = $client->readResponse();
        self::assertSame(500, $response->status);
        self::assertStringNotContainsString('7f3a', $response->body);
        self::assertStringNotContainsString('hunter2', $response->body);
        self::assertStringNotContainsString('RuntimeException', $response->body);
        self::assertStringNotContainsString('.php', $response->body);
        self::assertStringNotContainsString('#0', $response->body);
        self::assertStringNotContainsString('7f3a', $response->raw);

        // The failure is in the log.
        self::assertTrue($server->waitForLog('Fixture failure 7f3a', 3.0), $server->stderr());

        // The connection and the worker go on serving.
        $client->send(self::get('/ok'));
        $next = $client->readResponse();
        self::assertSame(200, $next->status);
        self::assertSame('ok', $next->body);
        self::assertServerAnswers($server, '/ok');
    }

    public function testHandlerExceptionDetailsWithDebug(): void
    {
        $server = self::throwingServer(debug: true);
        $response = self::rawRequest($server, self::get('/boom', "Connection: close\r\n"));
        self::assertSame(500, $response->status);
        self::assertStringContainsString('Fixture failure 7f3a', $response->body);
        self::assertTrue($server->waitForLog('Fixture failure 7f3a', 3.0), $server->stderr());
        self::assertServerAnswers($server, '/ok');
    }
}
