<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Http\WebSocket\FrameEncoder;
use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\LaravelFixture;
use Spindle\Tests\E2E\Support\RawClient;
use Spindle\Tests\E2E\Support\ServerProcess;
use Spindle\Tests\Support\WebSocket\SocketTransport;

/**
 * A WebSocket accepted by a Laravel route (Spindle\Bridge\HttpFoundation\WebSocketResponse) on
 * the app's own port: the handshake goes through Laravel's router and middleware, the connection
 * then holds no app instance, and ordinary requests go on beside it.
 */
final class LaravelWebSocketTest extends E2ETestCase
{
    public function testALaravelRouteAcceptsAWebSocket(): void
    {
        LaravelFixture::useTestDatabase();
        $server = ServerProcess::start(LaravelFixture::path(LaravelFixture::LARAVEL_8), ['--workers=1']);
        try {
            $sockets = [];
            foreach (['ann', 'bob'] as $user) {
                $sockets[$user] = SocketTransport::connect('127.0.0.1', $server->port(), '/ws/echo?user=' . $user);
            }
            foreach (['ann', 'bob'] as $user) {
                foreach (['one', 'two'] as $message) {
                    $sockets[$user]->send(FrameEncoder::frame(1, $message, maskKey: 'wxyz'));
                }
            }
            self::assertSame(['ann #1: one', 'ann #2: two'], self::texts($sockets['ann'], 2));
            self::assertSame(['bob #1: one', 'bob #2: two'], self::texts($sockets['bob'], 2));

            // Plain requests beside the open connections, and a handshake the route refuses.
            $client = new RawClient($server->port());
            $client->send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n");
            self::assertSame('Hello from Laravel', $client->readResponse()->body);
            $client->send("GET /ws/echo HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: " . \base64_encode(\random_bytes(16)) . "\r\nSec-WebSocket-Version: 7\r\n\r\n");
            $refused = $client->readResponse();
            self::assertSame(426, $refused->status);
            self::assertSame(['13'], $refused->headers['sec-websocket-version'] ?? null);
            foreach ($sockets as $socket) {
                $socket->close();
            }
        } finally {
            $server->stop();
        }
    }

    /** @return list<string> */
    private static function texts(SocketTransport $socket, int $count): array
    {
        $texts = [];
        $buffer = '';
        $deadline = \microtime(true) + 5.0;
        while (\count($texts) < $count && \microtime(true) < $deadline) {
            $buffer .= $socket->receive(0.1);
            while (\strlen($buffer) >= 2 && \strlen($buffer) >= 2 + (\ord($buffer[1]) & 0x7F)) {
                $length = \ord($buffer[1]) & 0x7F;
                $texts[] = \substr($buffer, 2, $length);
                $buffer = (string) \substr($buffer, 2 + $length);
            }
        }

        return $texts;
    }
}
