<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Http\WebSocket\FrameEncoder;
use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\RawClient;
use Spindle\Tests\E2E\Support\ServerProcess;
use Spindle\Tests\Support\WebSocket\AutobahnCases;
use Spindle\Tests\Support\WebSocket\AutobahnRunner;
use Spindle\Tests\Support\WebSocket\SocketTransport;

/**
 * WebSockets end to end on `spindle serve` (tests/fixtures/apps/websocket-echo.php): Autobahn's
 * cases (sections 1–10, translated in tests/Support/WebSocket) over real sockets, an independent
 * codec (Debian's python3-wsproto) as the client, handlers that wait side by side, close codes,
 * a failing handler, bad handshakes, and a worker that stops.
 */
final class WebSocketTest extends E2ETestCase
{
    private static ?ServerProcess $server = null;

    public static function tearDownAfterClass(): void
    {
        self::$server?->stop();
        self::$server = null;
        parent::tearDownAfterClass();
    }

    private static function server(): ServerProcess
    {
        return self::$server ??= ServerProcess::start(__DIR__ . '/../fixtures/apps/websocket-echo.php', ['--workers=1']);
    }

    /** @return array<string, array{int, int}> section, case count */
    public static function sections(): array
    {
        return AutobahnCases::SECTIONS;
    }

    /** @dataProvider sections */
    public function testAutobahnCasesOverRealSockets(int $section, int $count): void
    {
        $port = self::server()->port();
        // Section 9's sizes divided by 16 here (messages up to 1 MiB).
        [$cases, $failures] = (new AutobahnRunner())->strictFailures($section, 16, static fn (): SocketTransport => SocketTransport::connect('127.0.0.1', $port, '/echo'));
        self::assertSame($count, $cases);
        self::assertSame([], $failures, "section $section: " . self::server()->stderr());
    }

    public function testAnIndependentClientTalksToIt(): void
    {
        $script = <<<'PY'
import socket, sys, json, hashlib
from wsproto import WSConnection, ConnectionType
from wsproto.events import Request, AcceptConnection, TextMessage, BytesMessage, Ping, Pong, CloseConnection, Message
port = int(sys.argv[1])
ws = WSConnection(ConnectionType.CLIENT)
sock = socket.create_connection(("127.0.0.1", port), timeout=5)
sock.sendall(ws.send(Request(host="127.0.0.1", target="/echo", subprotocols=["superchat"])))
seen = []
partial = []
def pump():
    data = sock.recv(1 << 20)
    ws.receive_data(data if data else None)
    for event in ws.events():
        if isinstance(event, AcceptConnection):
            seen.append(["accept", event.subprotocol])
        elif isinstance(event, Message):
            partial.append(event.data)
            if not event.message_finished:
                continue
            whole = ("" if isinstance(event, TextMessage) else b"").join(partial)
            partial.clear()
            if isinstance(event, TextMessage):
                seen.append(["text", whole])
            else:
                seen.append(["bytes", len(whole), hashlib.sha1(whole).hexdigest()])
        elif isinstance(event, Pong):
            seen.append(["pong", event.payload.decode()])
        elif isinstance(event, CloseConnection):
            seen.append(["close", event.code, event.reason])
            return False
    return True
pump()
sock.sendall(ws.send(TextMessage(data="héllo wörld ✓")))
sock.sendall(ws.send(BytesMessage(data=bytes(range(256)) * 300)))
sock.sendall(ws.send(TextMessage(data="part one, ", message_finished=False)) + ws.send(TextMessage(data="part two", message_finished=True)))
sock.sendall(ws.send(Ping(payload=b"are you there")))
while len(seen) < 5:
    pump()

sock.sendall(ws.send(CloseConnection(code=1000, reason="bye")))
while pump():
    pass
print(json.dumps(seen))
PY;
        $file = \tempnam(\sys_get_temp_dir(), 'spindle-wsproto-');
        \file_put_contents($file, $script);
        try {
            $output = \shell_exec('timeout 20 /usr/bin/python3 ' . \escapeshellarg($file) . ' ' . self::server()->port() . ' 2>&1');
        } finally {
            @\unlink($file);
        }
        $seen = \json_decode((string) $output, true);
        self::assertIsArray($seen, (string) $output);
        // A pong may come before the echoes of messages sent ahead of its ping (control frames go
        // out as they are answered, RFC 6455 §5.4): it is looked for on its own.
        $pongs = \array_values(\array_filter($seen, static fn (array $event): bool => $event[0] === 'pong'));
        self::assertSame([['pong', 'are you there']], $pongs);
        $seen = \array_values(\array_filter($seen, static fn (array $event): bool => $event[0] !== 'pong'));
        self::assertSame([
            ['accept', 'superchat'],
            ['text', 'héllo wörld ✓'],
            ['bytes', 76800, \sha1(\str_repeat(\implode('', \array_map('chr', \range(0, 255))), 300))],
            ['text', 'part one, part two'],
            // The server echoes the close code (RFC 6455 §5.5.1), not the reason.
            ['close', 1000, ''],
        ], $seen);
    }

    public function testHandlersThatWaitRunSideBySideAndEachConnectionInOrder(): void
    {
        $port = self::server()->port();
        $a = SocketTransport::connect('127.0.0.1', $port, '/wait', 5.0, ['chat']);
        $b = SocketTransport::connect('127.0.0.1', $port, '/wait');
        self::assertSame('chat', $a->subprotocol);
        self::assertSame(['hello chat'], self::messages($a, 1));
        self::assertSame(['hello none'], self::messages($b, 1));
        $started = \microtime(true);
        $a->send(FrameEncoder::frame(1, '0.5', maskKey: 'abcd') . FrameEncoder::frame(1, '0.1', maskKey: 'abcd'));
        $b->send(FrameEncoder::frame(1, '0.5', maskKey: 'abcd'));
        self::assertSame(['waited 0.5', 'waited 0.1'], self::messages($a, 2), 'one connection: in order, the second after the first');
        self::assertSame(['waited 0.5'], self::messages($b, 1));
        $elapsed = \microtime(true) - $started;
        self::assertLessThan(1.05, $elapsed, 'the two connections waited at the same time');
        $a->close();
        $b->close();
    }

    public function testTheAppsCloseCodeAndReasonReachTheClient(): void
    {
        $client = SocketTransport::connect('127.0.0.1', self::server()->port(), '/close');
        $client->send(FrameEncoder::frame(1, '4001 because', maskKey: 'abcd'));
        $frames = self::frames($client);
        self::assertSame([[8, "\x0f\xa1because"]], $frames);
        $client->close();
    }

    public function testAHandlerThatThrowsClosesItsConnectionWith1011AndOthersGoOn(): void
    {
        $client = SocketTransport::connect('127.0.0.1', self::server()->port(), '/boom');
        $client->send(FrameEncoder::frame(1, 'x', maskKey: 'abcd'));
        $frames = self::frames($client);
        self::assertSame(8, $frames[0][0]);
        self::assertSame(1011, \unpack('n', $frames[0][1])[1]);
        self::assertStringNotContainsString('handler failed', $frames[0][1], 'no error detail outside debug mode');
        self::assertStringContainsString('the handler failed: handler failed', self::server()->stderr());
        $echo = SocketTransport::connect('127.0.0.1', self::server()->port(), '/echo');
        $echo->send(FrameEncoder::frame(1, 'still here', maskKey: 'abcd'));
        self::assertSame(['still here'], self::messages($echo, 1));
        $echo->close();
        $client->close();
    }

    public function testBadHandshakesAreRefusedWithTheirStatus(): void
    {
        $port = self::server()->port();
        $key = \base64_encode(\random_bytes(16));
        $cases = [
            'version 8' => ["GET /echo HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: $key\r\nSec-WebSocket-Version: 8\r\n\r\n", 426],
            'no key' => ["GET /echo HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n\r\n", 400],
            'short key' => ["GET /echo HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: " . \base64_encode('short') . "\r\nSec-WebSocket-Version: 13\r\n\r\n", 400],
            'POST' => ["POST /echo HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: $key\r\nSec-WebSocket-Version: 13\r\nContent-Length: 0\r\n\r\n", 400],
            'HTTP/1.0' => ["GET /echo HTTP/1.0\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: $key\r\nSec-WebSocket-Version: 13\r\n\r\n", 400],
        ];
        foreach ($cases as $name => [$request, $status]) {
            $client = new RawClient($port);
            $client->send($request);
            $response = $client->readResponse();
            self::assertSame($status, $response->status, $name);
            if ($status === 426) {
                self::assertSame(['13'], $response->headers['sec-websocket-version'] ?? null);
            }
            $client->close();
        }
        // Plain HTTP on the same port is unaffected.
        $client = new RawClient($port);
        $client->send("GET / HTTP/1.1\r\nHost: a\r\n\r\n");
        self::assertSame("plain http\n", $client->readResponse()->body);
    }

    public function testAStoppingWorkerClosesItsWebSocketsWith1001(): void
    {
        $server = ServerProcess::start(__DIR__ . '/../fixtures/apps/websocket-echo.php', ['--workers=1']);
        $client = SocketTransport::connect('127.0.0.1', $server->port(), '/echo');
        $client->send(FrameEncoder::frame(1, 'ping', maskKey: 'abcd'));
        self::assertSame(['ping'], self::messages($client, 1));
        $server->signal(\SIGTERM);
        $frames = self::frames($client);
        self::assertSame(8, $frames[0][0] ?? null, 'a close frame');
        self::assertSame(1001, \unpack('n', $frames[0][1])[1]);
        $client->send(FrameEncoder::frame(8, "\x03\xe9", maskKey: 'abcd'));
        self::assertSame(0, $server->waitForExit(10.0));
        $client->close();
    }

    public function testAnIdleClientIsPingedAndDroppedWhenItDoesNotAnswer(): void
    {
        \putenv('WS_IDLE=0.3');
        try {
            $server = ServerProcess::start(__DIR__ . '/../fixtures/apps/websocket-echo.php', ['--workers=1']);
        } finally {
            \putenv('WS_IDLE');
        }
        $client = SocketTransport::connect('127.0.0.1', $server->port(), '/echo');
        $frames = self::frames($client, 2.0, stopAtClose: false);
        self::assertSame(9, $frames[0][0] ?? null, 'a ping after the idle time');
        $deadline = \microtime(true) + 3.0;
        while (!$client->isClosed() && \microtime(true) < $deadline) {
            $client->receive(0.1);
        }
        self::assertTrue($client->isClosed(), 'dropped once the ping went unanswered');
        $server->stop();
    }

    /** @return list<string> the payloads of the next $count text or binary messages */
    private static function messages(SocketTransport $client, int $count): array
    {
        $messages = [];
        foreach (self::frames($client, 5.0, $count) as [$opcode, $payload]) {
            if ($opcode === 1 || $opcode === 2) {
                $messages[] = $payload;
            }
        }

        return $messages;
    }

    /**
     * Unmasked server frames (opcode, payload) until a close, $count frames, or $timeout.
     *
     * @return list<array{int, string}>
     */
    private static function frames(SocketTransport $client, float $timeout = 5.0, int $count = \PHP_INT_MAX, bool $stopAtClose = true): array
    {
        $frames = [];
        $buffer = '';
        $deadline = \microtime(true) + $timeout;
        while (\count($frames) < $count && \microtime(true) < $deadline) {
            $buffer .= $client->receive(0.1);
            while (\strlen($buffer) >= 2) {
                $length = \ord($buffer[1]) & 0x7F;
                $offset = 2;
                if ($length === 126) {
                    if (\strlen($buffer) < 4) {
                        break;
                    }
                    $length = \unpack('n', \substr($buffer, 2, 2))[1];
                    $offset = 4;
                } elseif ($length === 127) {
                    if (\strlen($buffer) < 10) {
                        break;
                    }
                    $length = \unpack('J', \substr($buffer, 2, 8))[1];
                    $offset = 10;
                }
                if (\strlen($buffer) < $offset + $length) {
                    break;
                }
                $opcode = \ord($buffer[0]) & 0x0F;
                $frames[] = [$opcode, \substr($buffer, $offset, $length)];
                $buffer = (string) \substr($buffer, $offset + $length);
                if ($opcode === 8 && $stopAtClose) {
                    return $frames;
                }
                if (\count($frames) >= $count) {
                    return $frames;
                }
            }
            if ($client->isClosed() && $buffer === '') {
                break;
            }
        }

        return $frames;
    }
}
