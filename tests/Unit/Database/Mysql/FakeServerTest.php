<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Database\Mysql;

use PHPUnit\Framework\TestCase;
use Revolt\EventLoop;
use Spindle\Database\Mysql\ConnectionBusy;
use Spindle\Database\Mysql\ConnectionConfig;
use Spindle\Database\Mysql\MysqlException;
use Spindle\Database\Mysql\Protocol\Auth;
use Spindle\Database\Mysql\Protocol\ColumnType as T;
use Spindle\Database\Mysql\SocketConnection;

/** SocketConnection against a scripted in-process server: failures must be quick and final. */
final class FakeServerTest extends TestCase
{
    private const NONCE = 'abcdefghijklmnopqrst';

    private FakeServer $server;

    protected function setUp(): void
    {
        $this->server = new FakeServer();
    }

    protected function tearDown(): void
    {
        $this->server->stop();
        self::assertSame([], array_map(static fn (\Throwable $e) => $e->getMessage(), $this->server->errors), 'the fake server script failed');
    }

    private function config(float $queryTimeout = 2.0, float $connectTimeout = 2.0, string $password = 'pw'): ConnectionConfig
    {
        return new ConnectionConfig(
            port: $this->server->port,
            user: 'u',
            password: $password,
            connectTimeout: $connectTimeout,
            queryTimeout: $queryTimeout,
            killQueryOnTimeout: false,
        );
    }

    /** Handshake as MariaDB and accept the client; then run $then. */
    private function serveMariaDb(\Closure $then): void
    {
        $this->server->serve(static function (FakePeer $peer) use ($then): void {
            $peer->send((string) hex2bin(Wire::MARIADB_HANDSHAKE_HEX));
            if ($peer->readPacket() === null) {
                return;
            }
            $peer->send(Wire::packet(Wire::ok(), 2));
            $then($peer);
        });
    }

    /** @param \Closure(): mixed $call */
    private static function assertFailsQuickly(\Closure $call, int $code, float $within): MysqlException
    {
        $start = hrtime(true);
        try {
            $call();
            self::fail('expected MysqlException');
        } catch (MysqlException $e) {
            self::assertSame($code, $e->errorCode, $e->getMessage());
        }
        self::assertLessThan($within, (hrtime(true) - $start) / 1e9);

        return $e;
    }

    public function testMalformedPacketBreaksTheConnection(): void
    {
        $this->serveMariaDb(static function (FakePeer $peer): void {
            $peer->readPacket();
            $peer->send(Wire::packets(1, "\x01", "\x03ab"));
            $peer->readPacket();
        });
        $connection = SocketConnection::connect($this->config());
        self::assertSame(15, $connection->connectionId());
        self::assertSame('10.11.19-MariaDB-0+deb12u1', $connection->serverVersion());
        self::assertFalse($connection->isBroken());
        self::assertFailsQuickly(fn () => $connection->query('SELECT 1'), 2027, 1.0);
        self::assertTrue($connection->isBroken());
        self::assertFailsQuickly(fn () => $connection->query('SELECT 1'), 2006, 0.1);
        self::assertFailsQuickly(fn () => $connection->ping(), 2006, 0.1);
    }

    public function testConnectionClosedMidResult(): void
    {
        $this->serveMariaDb(static function (FakePeer $peer): void {
            $peer->readPacket();
            $peer->send(Wire::packets(1, "\x02", Wire::column('a', T::Long->value)));
            $peer->close();
        });
        $connection = SocketConnection::connect($this->config());
        self::assertFailsQuickly(fn () => $connection->query('SELECT a, b FROM t'), 2013, 1.0);
        self::assertTrue($connection->isBroken());
    }

    public function testServerThatNeverAnswersTimesOut(): void
    {
        $this->serveMariaDb(static function (FakePeer $peer): void {
            $peer->readPacket();
            $peer->readPacket(); // returns once the client gives up and closes
        });
        $connection = SocketConnection::connect($this->config(queryTimeout: 0.3));
        $e = self::assertFailsQuickly(fn () => $connection->query('SELECT SLEEP(100)'), 2013, 1.0);
        self::assertStringContainsString('timed out', $e->getMessage());
        self::assertTrue($connection->isBroken());
    }

    public function testServerThatNeverSendsTheHandshakeTimesOut(): void
    {
        $this->server->serve(static function (FakePeer $peer): void {
            $peer->readPacket();
        });
        self::assertFailsQuickly(fn () => SocketConnection::connect($this->config(connectTimeout: 0.3)), 2002, 1.0);
    }

    public function testServerClosingDuringTheHandshake(): void
    {
        $this->server->serve(static function (FakePeer $peer): void {
            $peer->send(substr((string) hex2bin(Wire::MARIADB_HANDSHAKE_HEX), 0, 20));
            $peer->close();
        });
        self::assertFailsQuickly(fn () => SocketConnection::connect($this->config()), 2013, 1.0);
    }

    public function testConnectionRefused(): void
    {
        $port = $this->server->port;
        $this->server->stop();
        self::assertFailsQuickly(fn () => SocketConnection::connect(new ConnectionConfig(port: $port, connectTimeout: 2.0)), 2002, 1.0);
    }

    public function testWrongPasswordIsTheServersError(): void
    {
        $this->server->serve(static function (FakePeer $peer): void {
            $peer->send((string) hex2bin(Wire::MARIADB_HANDSHAKE_HEX));
            $peer->readPacket();
            $peer->send(Wire::packet(Wire::err(1045, '28000', "Access denied for user 'u'@'localhost' (using password: YES)"), 2));
            $peer->close();
        });
        $e = self::assertFailsQuickly(fn () => SocketConnection::connect($this->config()), 1045, 1.0);
        self::assertSame('28000', $e->sqlState);
    }

    public function testServerGoneWhileIdle(): void
    {
        $this->serveMariaDb(static function (FakePeer $peer): void {
            $peer->send(Wire::packet(Wire::err(1927, '70100', 'Connection was killed'), 0));
            $peer->close();
        });
        $connection = SocketConnection::connect($this->config());
        FakeServer::pause(0.05);
        $e = self::assertFailsQuickly(fn () => $connection->query('SELECT 1'), 2006, 1.0);
        self::assertStringContainsString('Connection was killed', $e->getMessage());
        self::assertTrue($connection->isBroken());
    }

    public function testServerGoneRightAfterAnAnswerIsGoneAwayOnTheNextCommand(): void
    {
        $this->serveMariaDb(static function (FakePeer $peer): void {
            $peer->readPacket();
            $peer->send(Wire::packet(Wire::ok(), 1));
            $peer->close();
        });
        $connection = SocketConnection::connect($this->config());
        $connection->query('DO 1');
        // At once: the idle check is skipped for a connection that just answered, and the
        // closed connection must still read as "gone away" (what DBAL reconnects on).
        $e = self::assertFailsQuickly(fn () => $connection->query('SELECT 1'), 2006, 1.0);
        self::assertStringContainsString('gone away', $e->getMessage());
        self::assertTrue($connection->isBroken());
        self::assertFailsQuickly(fn () => $connection->query('SELECT 1'), 2006, 0.1);
    }

    public function testFatalServerErrorBreaksTheConnection(): void
    {
        $this->serveMariaDb(static function (FakePeer $peer): void {
            $peer->readPacket();
            $peer->send(Wire::packet(Wire::err(1927, '70100', 'Connection was killed'), 1));
            $peer->close();
        });
        $connection = SocketConnection::connect($this->config());
        self::assertFailsQuickly(fn () => $connection->query('SELECT 1'), 1927, 1.0);
        self::assertTrue($connection->isBroken());
    }

    public function testUnaskedLocalInfileRequestIsRefused(): void
    {
        $this->serveMariaDb(static function (FakePeer $peer): void {
            $peer->readPacket();
            $peer->send(Wire::packet("\xFB/etc/passwd", 1));
            if ($peer->readPacket() !== '') {
                $peer->send(Wire::packet(Wire::err(1105, 'HY000', 'expected an empty packet'), 3));

                return;
            }
            $peer->send(Wire::packet(Wire::ok(), 3));
            if ($peer->readPacket() === "\x03SELECT 2") {
                $peer->send(Wire::packets(1, "\x01", Wire::column('2', T::LongLong->value), Wire::lstr('2'), Wire::ok(0, 0, 2, 0, '', "\xFE")));
            }
            $peer->readPacket();
        });
        $connection = SocketConnection::connect($this->config());
        self::assertFailsQuickly(fn () => $connection->query("LOAD DATA LOCAL INFILE '/etc/passwd' INTO TABLE t"), 2068, 1.0);
        self::assertFalse($connection->isBroken());
        self::assertSame([[2]], $connection->query('SELECT 2')[0]->rows);
    }

    public function testCachingSha2FastAuth(): void
    {
        $this->server->serve(static function (FakePeer $peer): void {
            $peer->send(Wire::packet(Wire::mysql8Handshake(self::NONCE, 77), 0));
            $response = (string) $peer->readPacket();
            $auth = ClientProtocolConnectTest::parseResponse($response)['auth'];
            if ($auth !== Wire::expectedSha2('secret', self::NONCE)) {
                $peer->send(Wire::packet(Wire::err(1045, '28000', 'Access denied'), 2));

                return;
            }
            $peer->send(Wire::packets(2, "\x01\x03", Wire::ok()));
            $query = $peer->readPacket();
            if ($query === "\x03SELECT 1") {
                $peer->send(Wire::packets(1, "\x01", Wire::column('1', T::LongLong->value), Wire::lstr('1'), Wire::ok(0, 0, 2, 0, '', "\xFE")));
            }
            $peer->readPacket();
        });
        $connection = SocketConnection::connect($this->config(password: 'secret'));
        self::assertSame(77, $connection->connectionId());
        self::assertSame('8.0.36', $connection->serverVersion());
        self::assertSame([[1]], $connection->query('SELECT 1')[0]->rows);
        $connection->close();
        self::assertTrue($connection->isBroken());
    }

    public function testCachingSha2FullAuthOverRsa(): void
    {
        $key = openssl_pkey_new(['private_key_bits' => 1024, 'private_key_type' => OPENSSL_KEYTYPE_RSA]);
        self::assertNotFalse($key);
        $details = openssl_pkey_get_details($key);
        self::assertIsArray($details);
        $publicPem = $details['key'];
        $this->server->serve(static function (FakePeer $peer) use ($key, $publicPem): void {
            $peer->send(Wire::packet(Wire::mysql8Handshake(self::NONCE), 0));
            $peer->readPacket();
            $peer->send(Wire::packet("\x01\x04", 2));
            if ($peer->readPacket() !== Auth::REQUEST_PUBLIC_KEY) {
                $peer->send(Wire::packet(Wire::err(1045, '28000', 'expected a public key request'), 4));

                return;
            }
            $peer->send(Wire::packet("\x01" . $publicPem, 4));
            $encrypted = (string) $peer->readPacket();
            $plain = '';
            openssl_private_decrypt($encrypted, $plain, $key, OPENSSL_PKCS1_OAEP_PADDING);
            $password = '';
            for ($i = 0; $i < \strlen((string) $plain); ++$i) {
                $password .= \chr(\ord($plain[$i]) ^ \ord(self::NONCE[$i % 20]));
            }
            if ($password !== "secret\0") {
                $peer->send(Wire::packet(Wire::err(1045, '28000', 'Access denied'), 6));

                return;
            }
            $peer->send(Wire::packet(Wire::ok(), 6));
            if ($peer->readPacket() === "\x0E") {
                $peer->send(Wire::packet(Wire::ok(), 1));
            }
            $peer->readPacket();
        });
        $connection = SocketConnection::connect($this->config(password: 'secret'));
        $connection->ping();
        self::assertFalse($connection->isBroken());
    }

    public function testConcurrentUseFromTwoFibersIsRefused(): void
    {
        $this->serveMariaDb(static function (FakePeer $peer): void {
            $peer->readPacket();
            FakeServer::pause(0.1);
            $peer->send(Wire::packet(Wire::ok(1), 1));
            $peer->readPacket();
        });
        $connection = SocketConnection::connect($this->config());
        $first = null;
        $fiber = new \Fiber(static function () use ($connection, &$first): void {
            $first = $connection->query('UPDATE t SET a = 1');
        });
        $fiber->start();
        self::assertTrue($fiber->isSuspended());
        try {
            $connection->query('SELECT 2');
            self::fail('expected ConnectionBusy');
        } catch (ConnectionBusy $e) {
            self::assertInstanceOf(\LogicException::class, $e);
        }
        EventLoop::run();
        self::assertTrue($fiber->isTerminated());
        self::assertIsArray($first);
        self::assertSame(1, $first[0]->affectedRows);
        self::assertFalse($connection->isBroken());
    }
}
