<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\ServerProcess;

/**
 * HTTP/2 by prior knowledge (h2c) on the plain listener, beside HTTP/1.1 on the same port: the
 * same requests over both give the app the same requests (a differential run with curl), h2load
 * drives many streams over few connections, interim responses go out as HEADERS, and the attacks
 * HTTP/2 invites (run with Debian's python3-h2 as the client: Rapid Reset, MadeYouReset, the
 * CONTINUATION, PING, SETTINGS and empty-frame floods) end the attacking connection while a
 * request on another connection is answered within a second. (The HPACK bomb, bounded per stream
 * with a 431, and the stream that never reads are run against the session in
 * tests/Unit/Http/Http2/Http2AttackTest.php.)
 */
final class Http2Test extends E2ETestCase
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
        return self::$server ??= ServerProcess::start(__DIR__ . '/../fixtures/apps/echo.php', ['--workers=1']);
    }

    public function testTheSameRequestsOverHttp11AndHttp2ReachTheAppAlike(): void
    {
        $upload = \tempnam(\sys_get_temp_dir(), 'spindle-h2-upload-');
        \file_put_contents($upload, \random_bytes(300_000));
        $large = $upload . '.large';
        \file_put_contents($large, \str_repeat('0123456789abcdef', 200_000));
        $requests = [
            'GET with a query' => ['/search?q=spindle&page=2'],
            'cookies' => ['-b', 'a=1; b=2', '/cookies'],
            'form POST' => ['-d', 'name=spindle&tags[]=a&tags[]=b', '/form'],
            'JSON PUT' => ['-X', 'PUT', '-H', 'Content-Type: application/json', '--data-binary', '{"a":[1,2,3]}', '/json'],
            'multipart upload' => ['-F', 'title=report', '-F', 'file=@' . $upload, '/upload'],
            'large body' => ['--data-binary', '@' . $large, '-H', 'Content-Type: application/octet-stream', '/large'],
            'custom headers' => ['-H', 'X-Trace: abc', '-H', 'Accept-Language: en', '/headers'],
            'DELETE' => ['-X', 'DELETE', '/items/7'],
        ];
        try {
            foreach ($requests as $name => $arguments) {
                $path = \array_pop($arguments);
                $h1 = self::parseCurlResponse(self::curl(['-s', '-i', '--http1.1', ...$arguments, self::server()->url($path)])['out']);
                $h2 = self::parseCurlResponse(self::curl(['-s', '-i', '--http2-prior-knowledge', ...$arguments, self::server()->url($path)])['out']);
                self::assertSame('1.1', $h1['protocol'], $name);
                self::assertSame('2', $h2['protocol'], $name);
                self::assertSame($h1['status'], $h2['status'], $name);
                self::assertSame(self::seen($h1['body'], '1.1'), self::seen($h2['body'], '2.0'), $name);
            }
        } finally {
            @\unlink($upload);
            @\unlink($large);
        }
    }

    public function testH2loadRunsManyStreamsOverFewConnections(): void
    {
        $output = (string) \shell_exec('timeout 60 h2load -n 5000 -c 10 -m 10 ' . \escapeshellarg(self::server()->url('/h2load')) . ' 2>&1');
        self::assertMatchesRegularExpression('/requests: 5000 total, 5000 started, 5000 done, 5000 succeeded, 0 failed, 0 errored, 0 timeout/', $output);
        self::assertStringContainsString('status codes: 5000 2xx', $output);
        if (\preg_match('/finished in ([\d.]+)(m?s), ([\d.]+) req\/s/', $output, $m) === 1) {
            self::reportFigures('h2load', \sprintf('h2c, 10 clients x 10 streams, 5000 requests: %s req/s (one worker, the echo app)', $m[3]));
        }
    }

    public function testEarlyHintsGoOutAsInterimResponses(): void
    {
        $server = ServerProcess::start(__DIR__ . '/../fixtures/apps/early-hints.php', ['--workers=1', '--early-hints-http1']);
        try {
            foreach (['--http2-prior-knowledge' => 'HTTP/2 103', '--http1.1' => 'HTTP/1.1 103 Early Hints'] as $flag => $line) {
                $output = self::curl(['-s', '-i', $flag, $server->url('/')])['out'];
                self::assertStringStartsWith($line, $output, $flag);
                self::assertMatchesRegularExpression('~^link: </app\.css>; rel=preload; as=style\r$~mi', $output);
                $final = self::parseCurlResponse($output);
                self::assertSame(200, $final['status']);
                self::assertSame("hinted\n", $final['body']);
            }
            $output = self::curl(['-s', '-i', '--http1.0', $server->url('/')])['out'];
            self::assertStringStartsWith('HTTP/1.0 200', $output, 'no interim response to an HTTP/1.0 client');
        } finally {
            $server->stop();
        }
    }

    /** @return array<string, array{string, string}> attack name → its script body, the GOAWAY code expected */
    public static function attacks(): array
    {
        return [
            'Rapid Reset (CVE-2023-44487)' => [<<<'PY'
for i in range(5000):
    sid = conn.get_next_available_stream_id()
    conn.send_headers(sid, REQUEST, end_stream=False)
    conn.reset_stream(sid, error_code=8)
    if i % 50 == 0:
        flush()
PY, 'ENHANCE_YOUR_CALM'],
            'PING flood (CVE-2019-9512)' => [<<<'PY'
conn.update_settings({})
for i in range(20000):
    conn.ping(i.to_bytes(8, 'big'))
    if i % 200 == 0:
        flush(read=False)
PY, 'ENHANCE_YOUR_CALM'],
            'CONTINUATION flood (CVE-2024-27316)' => [<<<'PY'
import struct
sid = conn.get_next_available_stream_id()
block = conn.encoder.encode(REQUEST)
raw(struct.pack('>I', len(block))[1:] + bytes([1, 0]) + struct.pack('>I', sid) + block)
for i in range(100000):
    piece = b'\x40\x03abc\x03def' * 100
    raw(struct.pack('>I', len(piece))[1:] + bytes([9, 0]) + struct.pack('>I', sid) + piece)
PY, 'any'],
            'SETTINGS flood (CVE-2019-9515)' => [<<<'PY'
import struct
for i in range(20000):
    raw(struct.pack('>I', 6)[1:] + bytes([4, 0]) + struct.pack('>I', 0) + struct.pack('>HI', 3, 100))
PY, 'ENHANCE_YOUR_CALM'],
            'empty frames flood (CVE-2019-9518)' => [<<<'PY'
import struct
sid = conn.get_next_available_stream_id()
conn.send_headers(sid, [(':method', 'POST'), (':path', '/attack'), (':scheme', 'http'), (':authority', '127.0.0.1')], end_stream=False)
flush()
for i in range(20000):
    raw(struct.pack('>I', 0)[1:] + bytes([0, 0]) + struct.pack('>I', sid))
PY, 'ENHANCE_YOUR_CALM'],
            'MadeYouReset (CVE-2025-8671): invalid WINDOW_UPDATEs' => [<<<'PY'
import struct
for i in range(5000):
    sid = conn.get_next_available_stream_id()
    conn.send_headers(sid, REQUEST, end_stream=False)
    flush()
    # A zero increment is a stream error the server answers with RST_STREAM.
    raw(struct.pack('>I', 4)[1:] + bytes([8, 0]) + struct.pack('>I', sid) + struct.pack('>I', 0))
PY, 'ENHANCE_YOUR_CALM'],
        ];
    }

    /** @dataProvider attacks */
    public function testAnAttackEndsItsConnectionAndOthersAreServed(string $attack, string $expected): void
    {
        $script = <<<'PY'
import socket, sys, struct, time
import h2.connection, h2.config, h2.events
port = int(sys.argv[1])
sock = socket.create_connection(("127.0.0.1", port), timeout=10)
conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True, validate_outbound_headers=False, normalize_outbound_headers=False))
conn.initiate_connection()
REQUEST = [(':method', 'GET'), (':path', '/attack'), (':scheme', 'http'), (':authority', '127.0.0.1')]
goaway = None
def handle(data):
    global goaway
    try:
        for event in conn.receive_data(data):
            if isinstance(event, h2.events.ConnectionTerminated):
                goaway = event.error_code
    except Exception:
        pass
def flush(read=True):
    data = conn.data_to_send()
    if data:
        sock.sendall(data)
def raw(data):
    flush()
    sock.sendall(data)
flush()
try:
    ATTACK
    flush()
except (BrokenPipeError, ConnectionResetError):
    pass
deadline = time.time() + 10
try:
    while time.time() < deadline and goaway is None:
        data = sock.recv(65536)
        if not data:
            break
        handle(data)
        if goaway is None:
            # The frames before GOAWAY, read with h2 when it can, and by hand for GOAWAY itself.
            at = 0
            while at + 9 <= len(data):
                length = int.from_bytes(data[at:at+3], 'big')
                if data[at+3] == 7 and at + 9 + 8 <= len(data):
                    goaway = int.from_bytes(data[at+13:at+17], 'big')
                at += 9 + length
except (ConnectionResetError, socket.timeout):
    pass
print('GOAWAY', goaway if goaway is not None else 'none')
PY;
        $script = \str_replace('    ATTACK', \preg_replace('/^/m', '    ', $attack), $script);
        $file = \tempnam(\sys_get_temp_dir(), 'spindle-h2-attack-');
        \file_put_contents($file, $script);
        $port = self::server()->port();
        try {
            $process = \proc_open(['timeout', '30', '/usr/bin/python3', $file, (string) $port], [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
            self::assertIsResource($process);
            // While it runs, a request on another connection is answered within a second.
            $slowest = 0.0;
            for ($i = 0; $i < 5; ++$i) {
                $result = self::curl(['-s', '-o', '/dev/null', '-w', '%{http_code}', '--http2-prior-knowledge', self::server()->url('/during')], 5.0);
                self::assertSame('200', $result['out']);
                $slowest = \max($slowest, $result['seconds']);
            }
            $output = (string) \stream_get_contents($pipes[1]);
            $errors = (string) \stream_get_contents($pipes[2]);
            \proc_close($process);
        } finally {
            @\unlink($file);
        }
        self::assertLessThan(1.0, $slowest, 'a request beside the attack');
        self::assertMatchesRegularExpression('/^GOAWAY (\d+)$/m', $output, $output . $errors);
        if ($expected === 'ENHANCE_YOUR_CALM') {
            self::assertStringContainsString('GOAWAY 11', $output, $errors);
        }
        self::assertSame('200', self::curl(['-s', '-o', '/dev/null', '-w', '%{http_code}', '--http2-prior-knowledge', self::server()->url('/after')])['out'], 'the worker serves on');
        self::reportFigures('h2 attack', \sprintf('%s: %s; slowest request beside it %.0f ms', $this->dataName(), \strtok($output, "\n"), $slowest * 1000));
    }

    /** @return array<string, mixed> what the echo app saw, without what differs by connection or protocol */
    private static function seen(string $json, string $protocol): array
    {
        $seen = \json_decode($json, true);
        self::assertIsArray($seen, $json);
        self::assertSame($protocol, $seen['protocol']);
        self::assertSame('HTTP/' . $protocol, $seen['server']['SERVER_PROTOCOL']);
        unset($seen['protocol'], $seen['pid'], $seen['server']['SERVER_PROTOCOL'], $seen['server']['REMOTE_PORT'], $seen['server']['REQUEST_TIME'], $seen['server']['REQUEST_TIME_FLOAT']);
        // curl asks an HTTP/1.1 server for "100 Continue" before a large body (not over HTTP/2).
        unset($seen['headers']['expect'], $seen['server']['HTTP_EXPECT']);
        // curl makes a new multipart boundary each time, and each upload gets a file of its own.
        $json = \json_encode($seen, \JSON_THROW_ON_ERROR);
        $json = (string) \preg_replace(['/boundary=-+[0-9a-f]+/', '#spindle-upload-[A-Za-z0-9]+#'], ['boundary=B', 'spindle-upload-X'], $json);
        $seen = \json_decode($json, true, 512, \JSON_THROW_ON_ERROR);
        \assert(\is_array($seen));

        return $seen;
    }
}
