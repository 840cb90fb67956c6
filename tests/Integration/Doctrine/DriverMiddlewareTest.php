<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\Doctrine;

use Doctrine\DBAL\Configuration;
use Doctrine\DBAL\DriverManager;
use Doctrine\DBAL\Tools\DsnParser;
use Spindle\Bridge\Doctrine\DriverMiddleware;
use Spindle\Database\Pdo;
use Spindle\Tests\Integration\Mysql\MysqlTestCase;

/**
 * A connection made as DoctrineBundle makes one from `url: mysql://…` (the URL's scheme selects
 * DBAL's pdo_mysql, and any driverClass goes), with Spindle's middleware in its configuration:
 * in a worker it runs on Spindle's Pdo, elsewhere on native PDO.
 */
final class DriverMiddlewareTest extends MysqlTestCase
{
    public function testAMysqlUrlConnectionRunsOnSpindlesPdoInAWorker(): void
    {
        $connection = DriverManager::getConnection(self::urlParams(), self::configuration(true)); // @phpstan-ignore argument.type

        self::assertSame('7', (string) $connection->fetchOne('SELECT 3 + 4'));
        self::assertInstanceOf(Pdo::class, $connection->getNativeConnection());
        $connection->close();
    }

    public function testOutsideAWorkerTheConnectionKeepsNativePdo(): void
    {
        $connection = DriverManager::getConnection(self::urlParams(), self::configuration(false)); // @phpstan-ignore argument.type

        self::assertSame('7', (string) $connection->fetchOne('SELECT 3 + 4'));
        $native = $connection->getNativeConnection();
        self::assertInstanceOf(\PDO::class, $native);
        self::assertNotInstanceOf(Pdo::class, $native);
        $connection->close();
    }

    /** @return array<string, mixed> */
    private static function urlParams(): array
    {
        $env = self::env();
        $url = \sprintf('mysql://%s:%s@%s:%s/%s?charset=utf8mb4', \rawurlencode($env['MYSQL_USER']), \rawurlencode($env['MYSQL_PASSWORD']), $env['MYSQL_HOST'], $env['MYSQL_PORT'], $env['MYSQL_DATABASE']);

        return (new DsnParser(['mysql' => 'pdo_mysql']))->parse($url);
    }

    private static function configuration(bool $inWorker): Configuration
    {
        return (new Configuration())->setMiddlewares([new DriverMiddleware(inWorker: static fn (): bool => $inWorker)]);
    }
}
