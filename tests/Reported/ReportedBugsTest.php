<?php

declare(strict_types=1);

namespace Spindle\Tests\Reported;

use Spindle\Tests\E2E\E2ETestCase;
use Spindle\Tests\E2E\LaravelFixture;
use Spindle\Tests\E2E\RawClient;
use Spindle\Tests\E2E\ServerProcess;

/**
 * Known bugs, each pinned by a test that fails until it is fixed.
 *
 * This directory belongs to no test suite, so the default run stays green; run it with
 * `vendor/bin/phpunit tests/Reported`. Move a test into its suite once it passes.
 */
final class ReportedBugsTest extends E2ETestCase
{
    private static function echoServer(): ServerProcess
    {
        return self::sharedServer(ServerProcess::fixture('echo.php'), ['--workers=1']);
    }

    /**
     * RFC 9110 §5.5: control characters other than HTAB are invalid in a field value. The parser
     * lets \x01 through; the PSR-7 bridge then fails to build the request and answers "400 Invalid
     * Host header or request target" (about a header that is neither) on a connection it keeps
     * open, while the HttpFoundation bridges hand the value to the app. Refusing it in the parser
     * (400 and close, as for NUL) would make every bridge agree.
     */
    public function testAControlCharacterInAHeaderValueIsRefusedByTheParser(): void
    {
        $client = new RawClient(self::echoServer()->port());
        $client->send("GET / HTTP/1.1\r\nHost: a\r\nX-A: a\x01b\r\n\r\n");
        $response = $client->readResponse();
        self::assertSame(400, $response->status);
        self::assertStringNotContainsString('Host', $response->body);
        self::assertSame('close', $response->header('connection'));
    }

    /**
     * RFC 9112 §3.2.1: an origin-form target has no fragment. "GET /a#frag" is accepted and the
     * PSR-7 URI the app gets carries the fragment (http://a/a#frag).
     */
    public function testARequestTargetWithAFragmentIsRefused(): void
    {
        $response = self::rawRequest(self::echoServer(), "GET /a#frag HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
        self::assertSame(400, $response->status, $response->body);
    }

    /**
     * RFC 9112 §7.1: chunk = chunk-size [ chunk-ext ] CRLF, and whitespace may only come before
     * the ";" of an extension. "5 \r\n" is accepted as 5; a proxy in front that reads the line
     * differently would frame the body differently (request smuggling).
     */
    public function testWhitespaceAfterAChunkSizeIsRefused(): void
    {
        $response = self::rawRequest(self::echoServer(), "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5 \r\nhello\r\n0\r\n\r\n");
        self::assertSame(400, $response->status, $response->body);
    }

    /**
     * At --max-connections a worker stops accepting until a connection closes, and idle
     * keep-alive connections count: a client that opens the cap's worth of connections, makes one
     * request on each and leaves them open makes every new client wait up to --keepalive-timeout
     * (30 s by default) for an idle one to time out. Closing idle keep-alive connections (oldest
     * first) to make room, as nginx does when it runs out of worker connections, would keep the
     * wait for requests that are really running.
     */
    public function testIdleKeepAliveConnectionsMakeRoomForNewOnesAtTheCap(): void
    {
        $server = self::sharedServer(ServerProcess::fixture('echo.php'), ['--workers=1', '--max-connections=4', '--keepalive-timeout=30']);
        $idle = [];
        for ($i = 0; $i < 4; ++$i) {
            $client = new RawClient($server->port());
            $client->send("GET /idle HTTP/1.1\r\nHost: a\r\n\r\n");
            self::assertSame(200, $client->readResponse()->status);
            $idle[] = $client;
        }
        $new = new RawClient($server->port(), 10.0);
        $new->send("GET /new HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
        self::assertSame(200, $new->readResponse()->status, 'answered before the idle connections time out');
    }

    /**
     * "a!b" is a valid uri-host (a reg-name may hold sub-delims), so the parser lets it through;
     * HttpFoundation's stricter host check then refuses it. The Laravel bridge answers 400, as it
     * should, but the converter's HttpException goes through the app's exception handler's
     * report(): each such request writes a production.ERROR with a whole stack trace to the log.
     * Under PHP-FPM Laravel does not report it (Symfony's SuspiciousOperationException is in the
     * handler's internal don't-report list).
     */
    public function testAHostHttpFoundationRefusesIsNotReportedAsALaravelError(): void
    {
        LaravelFixture::useTestDatabase();
        $server = self::sharedServer(LaravelFixture::path(), ['--workers=1']);
        $response = self::rawRequest($server, "GET /hello HTTP/1.1\r\nHost: a!b\r\nConnection: close\r\n\r\n");
        self::assertSame(400, $response->status, $response->raw);
        self::assertServerAnswers($server, '/hello');
        self::assertStringNotContainsString('Invalid Host header', $server->stderr());
    }
}
