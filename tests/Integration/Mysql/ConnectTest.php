<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\Mysql;

use Spindle\Database\Mysql\Protocol\ServerStatus;

final class ConnectTest extends MysqlTestCase
{
    public function testTcpWithNativePassword(): void
    {
        $c = $this->connect();
        self::assertStringContainsString('MariaDB', $c->serverVersion());
        self::assertStringStartsNotWith('5.5.5-', $c->serverVersion());
        $rows = $c->query('SELECT CONNECTION_ID(), CURRENT_USER(), DATABASE(), @@character_set_client, @@collation_connection')[0]->rows;
        self::assertSame([[$c->connectionId(), 'spindle@127.0.0.1', 'spindle_test', 'utf8mb4', 'utf8mb4_general_ci']], $rows);
        $c->ping();
        self::assertNotSame(0, $c->statusFlags() & ServerStatus::AUTOCOMMIT);
    }

    public function testUnixSocket(): void
    {
        $c = $this->connect(['unixSocket' => self::env()['MYSQL_SOCKET']]);
        self::assertSame([['spindle@localhost']], $c->query('SELECT CURRENT_USER()')[0]->rows);
    }

    public function testWrongPassword(): void
    {
        $e = self::assertMysqlError(1045, '28000', fn () => $this->connect(['password' => 'wrong']));
        self::assertStringContainsString("Access denied for user 'spindle'", $e->getMessage());
    }

    public function testDatabaseWithoutGrants(): void
    {
        self::assertMysqlError(1044, '42000', fn () => $this->connect(['database' => 'no_such_db']));
    }

    public function testCollationInTheHandshakeAndBySetNames(): void
    {
        $c = $this->connect(['collation' => 'utf8mb4_unicode_ci']);
        self::assertSame([['utf8mb4_unicode_ci']], $c->query('SELECT @@collation_connection')[0]->rows);
        $c = $this->connect(['collation' => 'utf8mb4_croatian_ci']);
        self::assertSame([['utf8mb4_croatian_ci']], $c->query('SELECT @@collation_connection')[0]->rows);
        $c = $this->connect(['charset' => 'latin1']);
        self::assertSame([['latin1', "caf\xE9"]], $c->query("SELECT @@character_set_results, CONVERT('caf\xE9' USING latin1)")[0]->rows);
    }

    public function testInitCommands(): void
    {
        $c = $this->connect(['initCommands' => ["SET time_zone = '+02:00'", 'SET @spindle = 42']]);
        self::assertSame([['+02:00', 42]], $c->query('SELECT @@time_zone, @spindle')[0]->rows);
    }

    public function testTls(): void
    {
        $cert = self::env()['MYSQL_TLS_CERT'] ?? '';
        self::assertNotSame('', $cert, 'scripts/mariadb configures TLS with a self-signed certificate');
        $c = $this->connect(['tls' => ['cafile' => $cert, 'verify_peer' => true, 'verify_peer_name' => true]]);
        $rows = $c->query("SHOW SESSION STATUS LIKE 'Ssl_cipher'")[0]->rows;
        self::assertNotSame('', $rows[0][1]);
        $big = str_repeat('t', 300000);
        self::assertSame([[300000]], $c->query("SELECT LENGTH('$big')")[0]->rows);
    }

    public function testTlsWithAnUntrustedCertificateFails(): void
    {
        self::assertMysqlError(2026, 'HY000', fn () => $this->connect(['tls' => ['verify_peer' => true]]));
    }

    public function testTransactionStatus(): void
    {
        $c = $this->connect();
        $c->query('BEGIN');
        self::assertNotSame(0, $c->statusFlags() & ServerStatus::IN_TRANS);
        $c->query('ROLLBACK');
        self::assertSame(0, $c->statusFlags() & ServerStatus::IN_TRANS);
    }
}
