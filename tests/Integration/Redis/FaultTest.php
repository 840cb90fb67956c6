<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\Redis;

use PHPUnit\Framework\TestCase;
use Revolt\EventLoop;
use Spindle\Redis\ConnectionException;
use Spindle\Redis\PhpRedisCompat;
use Spindle\Redis\Protocol\ProtocolException;
use Spindle\Redis\RedisClient;
use Spindle\Redis\RedisException;

/**
 * A server that closes mid-reply, stalls, sends garbage or announces a 512 MiB bulk string:
 * each gives the waiting command a clear exception naming the server and the command, never a
 * hang, and the client recovers on a new connection afterwards.
 */
final class FaultTest extends TestCase
{
    private ?FakeServer $server = null;

    protected function tearDown(): void
    {
        $this->server?->stop();
        $this->server = null;
    }

    public function testConnectionClosedMidReply(): void
    {
        $this->server = new FakeServer(static function (string $request, $client): void {
            fwrite($client, "\$10\r\nabc");
            stream_socket_shutdown($client, STREAM_SHUT_RDWR);
        });
        $client = RedisClient::fromUrl($this->server->url());
        try {
            $client->execute('GET', 'key');
            self::fail('no exception');
        } catch (ConnectionException $e) {
            self::assertStringContainsString('127.0.0.1:' . $this->server->port, $e->getMessage());
            self::assertStringContainsString('GET', $e->getMessage());
            self::assertStringContainsString('went away', $e->getMessage());
        }
    }

    public function testStalledServerGivesReadTimeout(): void
    {
        $this->server = new FakeServer(static function (): void {
            // never answers
        });
        $client = RedisClient::fromUrl($this->server->url('read_timeout=0.3'));
        $started = hrtime(true);
        try {
            $client->execute('HGETALL', 'key');
            self::fail('no exception');
        } catch (ConnectionException $e) {
            self::assertStringContainsString('Read timeout', $e->getMessage());
            self::assertStringContainsString('HGETALL', $e->getMessage());
            self::assertStringContainsString('127.0.0.1:' . $this->server->port, $e->getMessage());
        }
        self::assertGreaterThanOrEqual(0.29, (hrtime(true) - $started) / 1e9);
    }

    public function testStalledServerFailsEveryPipelinedFiber(): void
    {
        $this->server = new FakeServer(static function (): void {
        });
        $client = RedisClient::fromUrl($this->server->url('read_timeout=0.3'));
        $errors = [];
        for ($i = 0; $i < 5; ++$i) {
            EventLoop::queue(static function () use ($client, $i, &$errors): void {
                try {
                    $client->execute('GET', 'k' . $i);
                } catch (RedisException $e) {
                    $errors[] = $e::class;
                }
            });
        }
        EventLoop::run();
        self::assertSame(array_fill(0, 5, ConnectionException::class), $errors);
    }

    public function testGarbageReply(): void
    {
        $this->server = new FakeServer(static function (string $request, $client): void {
            fwrite($client, "?this is not RESP\r\n");
        });
        $client = RedisClient::fromUrl($this->server->url());
        try {
            $client->execute('GET', 'key');
            self::fail('no exception');
        } catch (ProtocolException $e) {
            self::assertStringContainsString('Invalid Redis reply type byte', $e->getMessage());
            self::assertStringContainsString('GET', $e->getMessage());
        }
    }

    public function testAnnounced512MiBBulkString(): void
    {
        $this->server = new FakeServer(static function (string $request, $client): void {
            fwrite($client, '$' . (512 << 20) . "\r\nxxxxxxxx");
        });
        $client = RedisClient::fromUrl($this->server->url());
        $before = memory_get_peak_usage();
        try {
            $client->execute('GET', 'key');
            self::fail('no exception');
        } catch (ProtocolException $e) {
            self::assertStringContainsString('536870912-byte bulk reply', $e->getMessage());
        }
        self::assertLessThan(16 << 20, memory_get_peak_usage() - $before);
    }

    public function testRecoversOnANewConnection(): void
    {
        $this->server = new FakeServer(static function (string $request, $client, FakeServer $server): void {
            if ($server->commands === 1) {
                stream_socket_shutdown($client, STREAM_SHUT_RDWR);

                return;
            }
            fwrite($client, "+PONG\r\n");
        });
        $client = RedisClient::fromUrl($this->server->url());
        try {
            $client->execute('PING');
            self::fail('no exception');
        } catch (ConnectionException) {
        }
        self::assertSame('PONG', $client->execute('PING')->value);
    }

    public function testPhpRedisFacadeThrowsRedisExceptionSayingWentAway(): void
    {
        $this->server = new FakeServer(static function (string $request, $client): void {
            stream_socket_shutdown($client, STREAM_SHUT_RDWR);
        });
        $redis = new PhpRedisCompat($this->server->url());
        $this->expectException(\RedisException::class);
        $this->expectExceptionMessageMatches('/went away.*GET/');
        $redis->get('key');
    }

    public function testStalledTlsHandshakeAndAuthHitTheConnectTimeout(): void
    {
        $this->server = new FakeServer(static function (): void {
            // reads the ClientHello (or AUTH) and never answers
        });
        $tls = RedisClient::fromUrl('rediss://127.0.0.1:' . $this->server->port . '?timeout=0.3');
        try {
            $tls->execute('PING');
            self::fail('no exception');
        } catch (ConnectionException $e) {
            self::assertStringContainsString('TLS handshake with Redis server 127.0.0.1:' . $this->server->port . ' timed out', $e->getMessage());
        }
        $auth = RedisClient::fromUrl('redis://:secret@127.0.0.1:' . $this->server->port . '?timeout=0.3');
        $this->expectException(ConnectionException::class);
        $this->expectExceptionMessage('did not answer AUTH in time (0.3 s)');
        $auth->execute('PING');
    }

    public function testConnectionRefused(): void
    {
        $probe = stream_socket_server('tcp://127.0.0.1:0');
        self::assertNotFalse($probe);
        $name = (string) stream_socket_get_name($probe, false);
        fclose($probe);
        $client = RedisClient::fromUrl('redis://' . $name);
        $this->expectException(ConnectionException::class);
        $this->expectExceptionMessage('Could not connect to Redis server ' . $name);
        $client->execute('PING');
    }
}
