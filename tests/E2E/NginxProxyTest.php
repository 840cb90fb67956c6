<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Http\WebSocket\FrameEncoder;
use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\RawClient;
use Spindle\Tests\E2E\Support\ServerProcess;
use Spindle\Tests\Support\WebSocket\SocketTransport;

/**
 * The nginx configuration of docs/nginx.md, as printed there, in front of a Spindle server:
 * static files from nginx, everything else proxied over kept-alive connections, the client's
 * address and scheme in X-Forwarded-*, and request bodies up to Spindle's --max-body-size.
 *
 * Only the addresses and the document root are replaced. Skipped where nginx is not installed.
 */
final class NginxProxyTest extends E2ETestCase
{
    private const MAX_BODY = 16 * 1024 * 1024;

    /** @var resource|null */
    private static $nginx = null;
    private static string $prefix = '';
    private static int $port = 0;

    public static function tearDownAfterClass(): void
    {
        if (self::$nginx !== null) {
            $pid = \proc_get_status(self::$nginx)['pid'];
            \posix_kill($pid, \SIGTERM);
            \proc_close(self::$nginx);
            self::$nginx = null;
        }
        if (self::$prefix !== '') {
            \exec('rm -rf ' . \escapeshellarg(self::$prefix));
            self::$prefix = '';
        }
        parent::tearDownAfterClass();
    }

    private static function staticRoot(): string
    {
        return \dirname(__DIR__) . '/fixtures/static';
    }

    private static function spindle(): ServerProcess
    {
        return self::sharedServer(ServerProcess::fixture('nginx-front.php'), ['--workers=1']);
    }

    /** The port of an nginx running the documented configuration, started on first use. */
    private static function nginx(): int
    {
        if (self::$nginx !== null) {
            return self::$port;
        }
        $binary = null;
        foreach (['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/bin/nginx'] as $candidate) {
            if (\is_executable($candidate)) {
                $binary = $candidate;
                break;
            }
        }
        if ($binary === null) {
            self::markTestSkipped('nginx is not installed');
        }

        $docs = (string) \file_get_contents(\dirname(__DIR__, 2) . '/docs/nginx.md');
        self::assertSame(1, \preg_match('/```nginx\n(.*?)```/s', $docs, $m), 'docs/nginx.md has an nginx block');
        $port = self::freePort();
        $site = \strtr($m[1], [
            'server 127.0.0.1:8080;' => 'server 127.0.0.1:' . self::spindle()->port() . ';',
            'listen 80;' => 'listen 127.0.0.1:' . $port . ';',
            'root /srv/app/public;' => 'root ' . self::staticRoot() . ';',
        ]);
        self::assertStringContainsString('listen 127.0.0.1:' . $port . ';', $site, 'the documented listen line');
        self::assertStringContainsString('server 127.0.0.1:' . self::spindle()->port() . ';', $site, 'the documented upstream');

        $prefix = \sys_get_temp_dir() . '/spindle-e2e-nginx-' . \getmypid();
        @\mkdir($prefix . '/logs', 0777, true);
        self::$prefix = $prefix;
        $paths = '';
        foreach (['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'] as $kind) {
            $paths .= "    {$kind}_temp_path {$prefix}/{$kind};\n";
        }
        $user = \posix_geteuid() === 0 ? "user root;\n" : '';
        \file_put_contents($prefix . '/nginx.conf', <<<CONF
            {$user}worker_processes 1;
            daemon off;
            pid {$prefix}/nginx.pid;
            error_log {$prefix}/logs/error.log;
            events { worker_connections 64; }
            http {
                access_log off;
            {$paths}
            {$site}
            }
            CONF);

        $process = \proc_open(
            [$binary, '-e', $prefix . '/logs/error.log', '-p', $prefix, '-c', $prefix . '/nginx.conf'],
            [0 => ['file', '/dev/null', 'r'], 1 => ['file', $prefix . '/logs/stdout', 'w'], 2 => ['file', $prefix . '/logs/stderr', 'w']],
            $pipes,
        );
        self::assertIsResource($process, 'nginx could not be started');
        self::$nginx = $process;
        self::$port = $port;
        // nginx prints no readiness line: it is ready once its listening socket takes connections.
        $deadline = \microtime(true) + 10.0;
        while (($client = RawClient::tryConnect($port, 0.5)) === null) {
            if (!\proc_get_status($process)['running'] || \microtime(true) > $deadline) {
                self::fail('nginx did not start: ' . \file_get_contents($prefix . '/logs/stderr') . \file_get_contents($prefix . '/logs/error.log'));
            }
            \usleep(20000);
        }
        $client->close();

        return $port;
    }

    private static function freePort(): int
    {
        $socket = \stream_socket_server('tcp://127.0.0.1:0');
        self::assertIsResource($socket);
        $name = (string) \stream_socket_get_name($socket, false);
        \fclose($socket);

        return (int) \substr($name, (int) \strrpos($name, ':') + 1);
    }

    public function testStaticFilesComeFromNginxAndTheRestFromSpindle(): void
    {
        $port = self::nginx();
        $client = new RawClient($port);
        $client->send("GET /hello.txt HTTP/1.1\r\nHost: example.com\r\n\r\n");
        $file = $client->readResponse();
        self::assertSame(200, $file->status);
        self::assertSame(\file_get_contents(self::staticRoot() . '/hello.txt'), $file->body);
        self::assertStringStartsWith('nginx', (string) $file->header('server'));

        $client->send("GET /app/path?q=1 HTTP/1.1\r\nHost: example.com\r\nX-Forwarded-For: 203.0.113.7\r\n\r\n");
        $app = $client->readResponse();
        self::assertSame(200, $app->status, $app->raw);
        $seen = $app->json();
        self::assertSame('/app/path?q=1', $seen['target']);
        self::assertSame(['example.com'], $seen['headers']['Host'] ?? $seen['headers']['host'] ?? null);
        self::assertSame('203.0.113.7, 127.0.0.1', \implode(', ', $seen['headers']['X-Forwarded-For'] ?? $seen['headers']['x-forwarded-for'] ?? []));
        self::assertSame('http', \implode(', ', $seen['headers']['X-Forwarded-Proto'] ?? $seen['headers']['x-forwarded-proto'] ?? []));
        self::assertSame('127.0.0.1', $seen['server']['REMOTE_ADDR']);
        $client->close();
    }

    public function testPhpFilesGoToSpindleAndDotfilesAreRefused(): void
    {
        $port = self::nginx();
        $client = new RawClient($port);
        $client->send("GET /script.php?q=1 HTTP/1.1\r\nHost: example.com\r\n\r\n");
        $script = $client->readResponse();
        self::assertSame(200, $script->status, $script->raw);
        self::assertStringNotContainsString('<?php', $script->body);
        $seen = $script->json();
        self::assertSame('/script.php?q=1', $seen['target']);
        self::assertSame('http', \implode(', ', $seen['headers']['X-Forwarded-Proto'] ?? $seen['headers']['x-forwarded-proto'] ?? []), 'the server-level proxy settings apply');

        $client->send("GET /SCRIPT.PHP HTTP/1.1\r\nHost: example.com\r\n\r\n");
        self::assertSame('/SCRIPT.PHP', $client->readResponse()->json()['target']);

        $client->send("GET /.hidden HTTP/1.1\r\nHost: example.com\r\n\r\n");
        $hidden = $client->readResponse();
        self::assertSame(403, $hidden->status);
        self::assertStringNotContainsString((string) \file_get_contents(self::staticRoot() . '/.hidden'), $hidden->body);
        $client->close();
    }

    public function testBodiesUpToSpindlesLimitGetThrough(): void
    {
        $port = self::nginx();
        // Larger than nginx's own default limit of 1 MiB, within Spindle's default of 16 MiB.
        $body = \str_repeat('spindle!', 256 * 1024);
        $client = new RawClient($port, 30.0);
        $client->send("POST /upload HTTP/1.1\r\nHost: example.com\r\nContent-Type: application/octet-stream\r\nContent-Length: " . \strlen($body) . "\r\n\r\n" . $body);
        $response = $client->readResponse();
        self::assertSame(200, $response->status, \substr($response->raw, 0, 500));
        $seen = $response->json();
        self::assertSame(\strlen($body), $seen['bodyLength']);
        self::assertSame(\sha1($body), $seen['bodySha1']);

        $client->send("POST /upload HTTP/1.1\r\nHost: example.com\r\nContent-Length: " . (self::MAX_BODY + 1) . "\r\n\r\n");
        self::assertSame(413, $client->readResponse()->status);
    }

    public function testWebSocketsGetThroughTheDocumentedConfiguration(): void
    {
        $client = SocketTransport::connect('127.0.0.1', self::nginx(), '/echo');
        $client->send(FrameEncoder::frame(1, 'through nginx', maskKey: 'abcd'));
        $frame = '';
        $deadline = \microtime(true) + 5.0;
        while (\strlen($frame) < 15 && \microtime(true) < $deadline) {
            $frame .= $client->receive(0.5);
        }
        // An unmasked text frame of 13 bytes: 0x81 0x0d, then the message as it was sent.
        self::assertSame("\x81\x0dthrough nginx", $frame);
        $client->close();
    }

    public function testSpindleConnectionsAreKeptAlive(): void
    {
        $port = self::nginx();
        $ports = [];
        for ($i = 0; $i < 5; ++$i) {
            $client = new RawClient($port);
            $client->send("GET /probe HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n");
            $ports[] = $client->readResponse()->json()['server']['REMOTE_PORT'];
            $client->close();
        }
        // One after the other, nginx sends all five requests over the same upstream connection.
        self::assertCount(1, \array_unique($ports), \implode(', ', $ports));
    }
}
