<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Http\WebSocket\FrameEncoder;
use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\RawClient;
use Spindle\Tests\E2E\Support\RawResponse;
use Spindle\Tests\E2E\Support\ServerProcess;
use Spindle\Tests\Support\WebSocket\SocketTransport;

/**
 * A worker's WebSocket limits on `spindle serve` (tests/fixtures/apps/websocket-echo.php): a
 * client that never reads is dropped once its write buffer passes the bound while another goes
 * on; --ws-max-connections and --ws-max-per-ip refuse handshakes past them (503, 429, with
 * Retry-After) and admit again once a connection closes, counting a client behind a trusted proxy
 * by its X-Forwarded-For; --ws-open-timeout pings a client silent
 * since its 101 and drops it when it does not answer; --header-timeout closes an upgrade request
 * that never completes.
 */
final class WebSocketLimitsTest extends E2ETestCase
{
    private const HANDSHAKE = "GET /echo HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";

    public function testAClientThatNeverReadsIsDroppedAtItsBoundAndOthersGoOn(): void
    {
        $server = ServerProcess::start(__DIR__ . '/../fixtures/apps/websocket-echo.php', ['--workers=1']);
        $slow = new RawClient($server->port());
        $slow->send(self::HANDSHAKE);
        self::assertSame(101, $slow->readResponse(forHead: true)->status);
        $socket = $slow->socket();
        \stream_set_blocking($socket, false);
        // 64 KiB messages echoed back to a client that reads nothing: past 1 MiB unsent (and the
        // socket buffers) the server drops it. Writes stop when the server stops reading or is gone.
        $message = FrameEncoder::frame(2, \str_repeat('x', 65536), maskKey: 'abcd');
        $sent = 0;
        $deadline = \microtime(true) + 20.0;
        while (!$server->waitForLog('bytes behind; dropped', 0.0) && \microtime(true) < $deadline) {
            $written = @\fwrite($socket, $message);
            if ($written === false) {
                break;
            }
            $sent += $written;
            if ($written === 0) {
                \usleep(10_000);
            }
        }
        self::assertTrue($server->waitForLog('WebSocket /echo: the client is', 5.0), 'the slow reader was dropped: ' . $server->stderr());
        self::assertGreaterThan(1 << 20, $sent);
        // The connection is closed: reading what was buffered ends at EOF, not at a timeout.
        \stream_set_blocking($socket, true);
        self::assertTrue($slow->waitForClose(10.0), 'the dropped connection is closed');

        $echo = SocketTransport::connect('127.0.0.1', $server->port(), '/echo');
        $echo->send(FrameEncoder::frame(1, 'still here', maskKey: 'abcd'));
        self::assertStringContainsString('still here', self::read($echo, 'still here'));
        $echo->close();
        $server->stop();
    }

    public function testTheWorkersCapRefusesWith503UntilAConnectionCloses(): void
    {
        $server = ServerProcess::start(__DIR__ . '/../fixtures/apps/websocket-echo.php', ['--workers=1', '--ws-max-connections=2']);
        $a = SocketTransport::connect('127.0.0.1', $server->port(), '/echo');
        $b = SocketTransport::connect('127.0.0.1', $server->port(), '/echo');
        $refused = self::handshake($server->port());
        self::assertSame(503, $refused->status);
        self::assertSame(['5'], $refused->headers['retry-after'] ?? null);
        self::assertStringContainsString('maximum of 2 WebSocket connections', $refused->body);
        // Plain HTTP is not a WebSocket: it is served at the cap.
        $plain = new RawClient($server->port());
        $plain->send("GET / HTTP/1.1\r\nHost: a\r\n\r\n");
        self::assertSame(200, $plain->readResponse()->status);

        $a->send(FrameEncoder::close(1000, '', 'abcd'));
        self::read($a, "\x88");
        $a->close();
        $deadline = \microtime(true) + 5.0;
        // The server learns of the close when it reads the close frame: until then it may refuse.
        while (($status = self::handshake($server->port())->status) !== 101 && \microtime(true) < $deadline) {
            \usleep(50_000);
        }
        self::assertSame(101, $status, 'admitted once a connection closed');
        $b->close();
        $server->stop();
    }

    public function testTheAddressCapRefusesWith429AndLeavesOtherAddressesAlone(): void
    {
        $server = ServerProcess::start(__DIR__ . '/../fixtures/apps/websocket-echo.php', ['--workers=1', '--ws-max-per-ip=1']);
        $a = SocketTransport::connect('127.0.0.1', $server->port(), '/echo');
        $refused = self::handshake($server->port());
        self::assertSame(429, $refused->status);
        self::assertStringContainsString('127.0.0.1 holds its maximum of 1 WebSocket connections', $refused->body);
        // Another client address (a source bound to 127.0.0.2; the traffic still goes to 127.0.0.1).
        self::assertSame(101, self::handshake($server->port(), '127.0.0.2')->status);
        $a->close();
        $server->stop();
    }

    public function testBehindATrustedProxyTheAddressIsTheForwardedOne(): void
    {
        $server = ServerProcess::start(__DIR__ . '/../fixtures/apps/websocket-echo.php', ['--workers=1', '--ws-max-per-ip=1', '--trusted-proxies=127.0.0.1']);
        $open = [];
        $through = static function (string $client) use ($server, &$open): RawResponse {
            $proxy = new RawClient($server->port());
            $proxy->send(\str_replace("\r\n\r\n", "\r\nX-Forwarded-For: {$client}\r\n\r\n", self::HANDSHAKE));
            $response = $proxy->readResponse(forHead: true);
            $open[] = $proxy;

            return $response;
        };
        self::assertSame(101, $through('203.0.113.7')->status);
        $refused = $through('203.0.113.7');
        self::assertSame(429, $refused->status);
        self::assertSame(101, $through('203.0.113.8')->status, 'another client behind the same proxy');
        self::assertCount(3, $open);
        $server->stop();
    }

    public function testAClientSilentSinceThe101IsPingedThenDroppedAndOneThatSpeaksStays(): void
    {
        $server = ServerProcess::start(__DIR__ . '/../fixtures/apps/websocket-echo.php', ['--workers=1', '--ws-open-timeout=0.5']);
        $silent = SocketTransport::connect('127.0.0.1', $server->port(), '/echo');
        $talker = SocketTransport::connect('127.0.0.1', $server->port(), '/echo');
        $talker->send(FrameEncoder::frame(1, 'hi', maskKey: 'abcd'));
        $started = \microtime(true);
        $ping = self::read($silent, "\x89");
        self::assertStringStartsWith("\x89", $ping, 'a ping once the open timeout passed');
        $deadline = \microtime(true) + 5.0;
        while (!$silent->isClosed() && \microtime(true) < $deadline) {
            $silent->receive(0.1);
        }
        self::assertTrue($silent->isClosed(), 'dropped once the ping went unanswered');
        self::assertGreaterThanOrEqual(0.9, \microtime(true) - $started);
        // The one that spoke is on the idle timeout (60 s): still served.
        $talker->send(FrameEncoder::frame(1, 'still', maskKey: 'abcd'));
        self::assertStringContainsString('still', self::read($talker, 'still'));
        $talker->close();
        $server->stop();
    }

    public function testAnUpgradeRequestThatNeverCompletesIsClosedAtTheHeaderTimeout(): void
    {
        $server = ServerProcess::start(__DIR__ . '/../fixtures/apps/websocket-echo.php', ['--workers=1', '--header-timeout=1']);
        $client = new RawClient($server->port());
        $client->send("GET /echo HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\n");
        $started = \microtime(true);
        $rest = $client->readUntilClosed(10.0);
        self::assertLessThan(8.0, \microtime(true) - $started, 'closed by the header timeout');
        self::assertTrue($rest === '' || \str_starts_with($rest, 'HTTP/1.1 408'), 'nothing or a 408: ' . $rest);
        $server->stop();
    }

    private static function handshake(int $port, ?string $from = null): RawResponse
    {
        if ($from === null) {
            $client = new RawClient($port);
            $client->send(self::HANDSHAKE);

            return $client->readResponse();
        }
        $context = \stream_context_create(['socket' => ['bindto' => $from . ':0']]);
        $socket = \stream_socket_client("tcp://127.0.0.1:$port", $errno, $error, 5.0, \STREAM_CLIENT_CONNECT, $context);
        self::assertNotFalse($socket, (string) $error);
        \fwrite($socket, self::HANDSHAKE);
        \stream_set_timeout($socket, 5);
        $head = '';
        while (!\str_contains($head, "\r\n\r\n") && !\feof($socket)) {
            $head .= (string) \fread($socket, 8192);
        }
        \fclose($socket);

        return new RawResponse('HTTP/1.1', (int) \substr($head, 9, 3), '', [], '', $head);
    }

    /** What $client receives until it holds $needle (or 5 s pass). */
    private static function read(SocketTransport $client, string $needle): string
    {
        $bytes = '';
        $deadline = \microtime(true) + 5.0;
        while (!\str_contains($bytes, $needle) && \microtime(true) < $deadline) {
            $bytes .= $client->receive(0.1);
        }

        return $bytes;
    }
}
