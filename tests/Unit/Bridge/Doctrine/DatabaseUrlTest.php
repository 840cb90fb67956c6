<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Bridge\Doctrine;

use PHPUnit\Framework\TestCase;
use Spindle\Bridge\Doctrine\DatabaseUrl;
use Spindle\Bridge\Doctrine\Driver;
use Spindle\Bridge\Doctrine\PgsqlDriver;

final class DatabaseUrlTest extends TestCase
{
    public function testMysqlUrlsSelectSpindlesDriver(): void
    {
        $params = DatabaseUrl::parse('mysql://app:s%3Acret@db.internal:3307/shop?charset=utf8mb4');

        ksort($params);
        self::assertSame([
            'charset' => 'utf8mb4',
            'dbname' => 'shop',
            'driverClass' => Driver::class,
            'host' => 'db.internal',
            'password' => 's:cret',
            'port' => 3307,
            'user' => 'app',
        ], $params);
    }

    /** @return iterable<array{string}> */
    public static function schemes(): iterable
    {
        foreach (DatabaseUrl::SCHEMES as $scheme) {
            yield $scheme => [$scheme];
        }
    }

    /** @dataProvider schemes */
    public function testEveryMysqlSchemeSelectsIt(string $scheme): void
    {
        $params = DatabaseUrl::parse($scheme . '://u:p@localhost/app');

        self::assertSame(Driver::class, $params['driverClass'] ?? null);
        self::assertArrayNotHasKey('driver', $params);
    }

    /** @return iterable<array{string}> */
    public static function pgsqlSchemes(): iterable
    {
        foreach (DatabaseUrl::PGSQL_SCHEMES as $scheme) {
            yield $scheme => [$scheme];
        }
    }

    /** @dataProvider pgsqlSchemes */
    public function testEveryPostgresqlSchemeSelectsThePgsqlDriver(string $scheme): void
    {
        $params = DatabaseUrl::parse($scheme . '://app:s%40cret@db.internal:5433/shop?sslmode=verify-full&sslrootcert=/etc/ca.pem&application_name=shop&charset=utf8&serverVersion=16.4');

        ksort($params);
        self::assertSame([
            'application_name' => 'shop',
            'charset' => 'utf8',
            'dbname' => 'shop',
            'driverClass' => PgsqlDriver::class,
            'host' => 'db.internal',
            'password' => 's@cret',
            'port' => 5433,
            'serverVersion' => '16.4',
            'sslmode' => 'verify-full',
            'sslrootcert' => '/etc/ca.pem',
            'user' => 'app',
        ], $params);
    }

    public function testOtherSchemesAreLeftToDbal(): void
    {
        $params = DatabaseUrl::parse('sqlite3:///var/app.db', ['sqlite3' => 'pdo_sqlite']);

        self::assertSame('pdo_sqlite', $params['driver'] ?? null);
        self::assertArrayNotHasKey('driverClass', $params);
    }

    public function testQueryParametersComeThrough(): void
    {
        $params = DatabaseUrl::parse('mysql://u@localhost/app?unix_socket=/run/mysqld/mysqld.sock&serverVersion=10.11.6-MariaDB');

        self::assertSame('/run/mysqld/mysqld.sock', $params['unix_socket'] ?? null);
        self::assertSame('10.11.6-MariaDB', $params['serverVersion'] ?? null);
    }
}
