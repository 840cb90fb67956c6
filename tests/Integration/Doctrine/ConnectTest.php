<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\Doctrine;

use Doctrine\DBAL\DriverManager;
use Doctrine\DBAL\Exception\ConnectionException;
use Doctrine\DBAL\Platforms\MariaDBPlatform;
use Spindle\Bridge\Doctrine\DatabaseUrl;
use Spindle\Database\Pdo;

final class ConnectTest extends DoctrineTestCase
{
    public function testConnectsOverTcp(): void
    {
        $db = $this->dbal();

        self::assertSame(1, $db->fetchOne('SELECT 1'));
        self::assertInstanceOf(Pdo::class, $db->getNativeConnection());
        self::assertSame(self::env()['MYSQL_DATABASE'], $db->getDatabase());
        self::assertSame('utf8mb4', $db->fetchOne('SELECT @@character_set_client'));
    }

    public function testConnectsOverTheUnixSocket(): void
    {
        $db = $this->dbal(['host' => null, 'port' => null, 'unix_socket' => self::env()['MYSQL_SOCKET']]);

        self::assertSame('Localhost via UNIX socket', $db->getNativeConnection()->getAttribute(\PDO::ATTR_CONNECTION_STATUS));
        self::assertSame(1, $db->fetchOne('SELECT 1'));
    }

    public function testTheServerVersionChoosesTheMariaDbPlatform(): void
    {
        $db = $this->dbal();
        $version = $db->fetchOne('SELECT VERSION()');

        self::assertIsString($version);
        self::assertSame($version, $db->getNativeConnection()->getAttribute(\PDO::ATTR_SERVER_VERSION));
        self::assertInstanceOf(MariaDBPlatform::class, $db->getDatabasePlatform());
    }

    public function testDriverOptionsAreApplied(): void
    {
        $db = $this->dbal(['driverOptions' => [Pdo::MYSQL_ATTR_INIT_COMMAND => "SET time_zone = '+03:00'"]]);

        self::assertSame('+03:00', $db->fetchOne('SELECT @@session.time_zone'));
    }

    public function testConnectsFromADatabaseUrl(): void
    {
        $env = self::env();
        $url = sprintf('mysql://%s:%s@%s:%d/%s?charset=utf8mb4', rawurlencode($env['MYSQL_USER']), rawurlencode($env['MYSQL_PASSWORD']), $env['MYSQL_HOST'], $env['MYSQL_PORT'], $env['MYSQL_DATABASE']);
        $db = DriverManager::getConnection(DatabaseUrl::parse($url)); // @phpstan-ignore argument.type

        self::assertInstanceOf(Pdo::class, $db->getNativeConnection());
        self::assertSame($env['MYSQL_DATABASE'], $db->fetchOne('SELECT DATABASE()'));
        $db->close();
    }

    public function testAWrongPasswordIsAConnectionException(): void
    {
        $db = DriverManager::getConnection(['password' => 'not the password'] + self::params()); // @phpstan-ignore argument.type

        try {
            $db->fetchOne('SELECT 1');
            self::fail('connected with a wrong password');
        } catch (ConnectionException $e) {
            self::assertSame(1045, $e->getCode());
            self::assertStringContainsString('Access denied', $e->getMessage());
        }
    }
}
