<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\Pgsql;

use PHPUnit\Framework\TestCase;
use Revolt\EventLoop;
use Spindle\Database\Pgsql\Connection;
use Spindle\Database\Pgsql\ConnectionConfig;
use Spindle\Database\Pgsql\PgsqlException;
use Spindle\Database\Pgsql\SslMode;

/**
 * A server on 127.0.0.1 (port 0, in this process, on the event loop) that answers the startup
 * with bytes that are no protocol, or with nothing: the client fails with a clear error, within
 * its timeouts, and leaves no descriptor behind.
 */
final class MisbehavingServerTest extends TestCase
{
    /** @var resource|null */
    private $server = null;
    private ?string $watcher = null;
    /** @var list<resource> */
    private array $accepted = [];

    private function serve(string $answer): int
    {
        $server = stream_socket_server('tcp://127.0.0.1:0', $errno, $errstr);
        self::assertIsResource($server, $errstr);
        stream_set_blocking($server, false);
        $this->server = $server;
        $this->watcher = EventLoop::onReadable($server, function (string $id, $server) use ($answer): void {
            $client = @stream_socket_accept($server, 0);
            if ($client === false) {
                return;
            }
            $this->accepted[] = $client;
            if ($answer !== '') {
                fwrite($client, $answer);
            }
        });
        $name = (string) stream_socket_get_name($server, false);

        return (int) substr($name, strrpos($name, ':') + 1);
    }

    protected function tearDown(): void
    {
        if ($this->watcher !== null) {
            EventLoop::cancel($this->watcher);
        }
        foreach ($this->accepted as $client) {
            fclose($client);
        }
        if ($this->server !== null) {
            fclose($this->server);
        }
    }

    /** @return iterable<string, array{string, string}> */
    public static function answers(): iterable
    {
        yield 'HTTP instead of PostgreSQL' => ["HTTP/1.1 400 Bad Request\r\n\r\n", 'Malformed message from the server'];
        yield 'unknown message type' => ['?' . pack('N', 4), 'Unknown message type'];
        yield 'absurd length' => ['R' . pack('N', 0x7FFFFFF0), 'length'];
        yield 'unknown authentication' => ['R' . pack('NN', 8, 99), 'authentication method requested by the server (99) is not supported'];
        yield 'SASL without SCRAM-SHA-256' => ['R' . pack('NN', 4 + 4 + 9, 10) . "PLAIN-X\0\0", 'SASL authentication mechanisms'];
        yield 'closed after a partial message' => ["R\0\0", 'server closed the connection unexpectedly'];
    }

    /** @dataProvider answers */
    public function testClearErrorNoHang(string $answer, string $expected): void
    {
        $port = $this->serve($answer);
        if (str_starts_with($expected, 'server closed')) {
            // Close right after the partial message.
            EventLoop::delay(0.2, function (): void {
                foreach ($this->accepted as $client) {
                    fclose($client);
                }
                $this->accepted = [];
            });
        }
        $before = \count(get_resources('stream'));
        $started = hrtime(true);
        try {
            Connection::connect(new ConnectionConfig(host: '127.0.0.1', port: $port, user: 'u', sslMode: SslMode::Disable, connectTimeout: 5.0));
            self::fail('connected to a server that speaks no PostgreSQL');
        } catch (PgsqlException $e) {
            self::assertStringContainsString($expected, $e->getMessage());
            self::assertStringStartsWith('08', $e->sqlState);
        }
        self::assertLessThan(4.0, (hrtime(true) - $started) / 1e9);
        gc_collect_cycles();
        self::assertLessThanOrEqual($before + \count($this->accepted), \count(get_resources('stream')), 'no socket left open by the client');
    }

    public function testSilentServerTimesOut(): void
    {
        $port = $this->serve('');
        $started = hrtime(true);
        try {
            Connection::connect(new ConnectionConfig(host: '127.0.0.1', port: $port, user: 'u', sslMode: SslMode::Disable, connectTimeout: 0.3));
            self::fail('connected to a silent server');
        } catch (PgsqlException $e) {
            self::assertStringContainsString('timeout expired', $e->getMessage());
        }
        self::assertLessThan(5.0, (hrtime(true) - $started) / 1e9);
    }

    public function testTlsRequiredButRefused(): void
    {
        $port = $this->serve('N');
        $this->expectException(PgsqlException::class);
        $this->expectExceptionMessage('server does not support SSL, but SSL was required');
        Connection::connect(new ConnectionConfig(host: '127.0.0.1', port: $port, user: 'u', sslMode: SslMode::Require, connectTimeout: 5.0));
    }

    public function testPlaintextAfterTheSslAnswerIsRefused(): void
    {
        $port = $this->serve('S' . 'R' . pack('NN', 8, 0));
        $this->expectException(PgsqlException::class);
        $this->expectExceptionMessage('received unencrypted data after SSL response');
        Connection::connect(new ConnectionConfig(host: '127.0.0.1', port: $port, user: 'u', sslMode: SslMode::Require, connectTimeout: 5.0));
    }
}
