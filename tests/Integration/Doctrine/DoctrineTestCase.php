<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\Doctrine;

use Doctrine\DBAL\Connection;
use Doctrine\DBAL\DriverManager;
use Spindle\Bridge\Doctrine\Driver;
use Spindle\Tests\Integration\Mysql\MysqlTestCase;

/**
 * DBAL connections through Spindle's driver to the private MariaDB (scripts/mariadb). Tables are
 * named doctrine_*; the ones a test lists in $tables are dropped before and after it.
 */
abstract class DoctrineTestCase extends MysqlTestCase
{
    /** @var list<string> tables the test creates */
    protected array $tables = [];

    /** @var list<Connection> */
    private array $connections = [];

    protected function setUp(): void
    {
        $this->dropTables();
    }

    protected function tearDown(): void
    {
        $this->dropTables();
        foreach ($this->connections as $connection) {
            $connection->close();
        }
        $this->connections = [];
        parent::tearDown();
    }

    /** @return array<string, mixed> */
    protected static function params(): array
    {
        $env = self::env();

        return [
            'driverClass' => Driver::class,
            'host' => $env['MYSQL_HOST'],
            'port' => (int) $env['MYSQL_PORT'],
            'dbname' => $env['MYSQL_DATABASE'],
            'user' => $env['MYSQL_USER'],
            'password' => $env['MYSQL_PASSWORD'],
            'charset' => 'utf8mb4',
        ];
    }

    /** @param array<string, mixed> $overrides connection parameters */
    protected function dbal(array $overrides = []): Connection
    {
        $connection = DriverManager::getConnection($overrides + self::params()); // @phpstan-ignore argument.type
        $this->connections[] = $connection;

        return $connection;
    }

    private function dropTables(): void
    {
        if ($this->tables === []) {
            return;
        }
        $db = DriverManager::getConnection(self::params());
        $db->executeStatement('SET FOREIGN_KEY_CHECKS = 0');
        foreach ($this->tables as $table) {
            $db->executeStatement('DROP TABLE IF EXISTS ' . $table);
        }
        $db->close();
    }
}
