<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Bridge\Doctrine;

use Doctrine\DBAL\Driver\AbstractMySQLDriver;
use Doctrine\DBAL\Driver\Connection;
use Doctrine\DBAL\Driver\PDO\MySQL\Driver as PdoMysqlDriver;
use Doctrine\DBAL\Driver\PDO\PgSQL\Driver as PdoPgsqlDriver;
use Doctrine\DBAL\Driver\PDO\SQLite\Driver as PdoSqliteDriver;
use PHPUnit\Framework\TestCase;
use Spindle\Bridge\Doctrine\Driver;
use Spindle\Bridge\Doctrine\DriverMiddleware;
use Spindle\Bridge\Doctrine\NativeDrivers;
use Spindle\Bridge\Doctrine\PgsqlDriver;

final class DriverMiddlewareTest extends TestCase
{
    protected function tearDown(): void
    {
        \putenv('SPINDLE_MYSQL_DRIVER');
        \putenv('SPINDLE_PGSQL_DRIVER');
        \putenv('SPINDLE_TEST_DRIVER');
    }

    public function testInAWorkerPdoMysqlBecomesSpindlesDriver(): void
    {
        $middleware = new DriverMiddleware(inWorker: static fn (): bool => true);

        self::assertInstanceOf(Driver::class, $middleware->wrap(new PdoMysqlDriver()));
    }

    public function testInAWorkerPdoPgsqlBecomesSpindlesPgsqlDriver(): void
    {
        $middleware = new DriverMiddleware(inWorker: static fn (): bool => true);

        self::assertInstanceOf(PgsqlDriver::class, $middleware->wrap(new PdoPgsqlDriver()));
    }

    /** Each database has its own variable: one kept native leaves the other on Spindle's driver. */
    public function testSpindlePgsqlDriverNativeKeepsPdoPgsqlOnly(): void
    {
        $middleware = new DriverMiddleware(inWorker: static fn (): bool => true);
        $pgsql = new PdoPgsqlDriver();

        \putenv('SPINDLE_PGSQL_DRIVER=native');
        self::assertSame($pgsql, $middleware->wrap($pgsql));
        self::assertInstanceOf(Driver::class, $middleware->wrap(new PdoMysqlDriver()));
        \putenv('SPINDLE_PGSQL_DRIVER');
        \putenv('SPINDLE_MYSQL_DRIVER=native');
        self::assertInstanceOf(PgsqlDriver::class, $middleware->wrap($pgsql));
        // Outside a worker neither changes.
        self::assertSame($pgsql, (new DriverMiddleware(inWorker: static fn (): bool => false))->wrap($pgsql));
    }

    public function testOtherDriversAreKept(): void
    {
        $middleware = new DriverMiddleware(inWorker: static fn (): bool => true);
        $sqlite = new PdoSqliteDriver();

        self::assertSame($sqlite, $middleware->wrap($sqlite));
    }

    public function testOutsideAWorkerNothingChanges(): void
    {
        $middleware = new DriverMiddleware(inWorker: static fn (): bool => false);
        $mysql = new PdoMysqlDriver();

        self::assertSame($mysql, $middleware->wrap($mysql));
        // The default check: this test process runs no Spindle loop.
        self::assertSame($mysql, (new DriverMiddleware())->wrap($mysql));
    }

    public function testTheEnvironmentKeepsTheNativeDriver(): void
    {
        \putenv('SPINDLE_MYSQL_DRIVER=native');
        $middleware = new DriverMiddleware(inWorker: static fn (): bool => true);
        $mysql = new PdoMysqlDriver();

        self::assertSame($mysql, $middleware->wrap($mysql));
        \putenv('SPINDLE_MYSQL_DRIVER=spindle');
        self::assertInstanceOf(Driver::class, $middleware->wrap($mysql));
    }

    /** The extension point another Spindle driver plugs into: one row keyed by DBAL's driver class. */
    public function testATableRowReplacesAnotherDriverWithItsOwnVariable(): void
    {
        $drivers = new NativeDrivers([PdoPgsqlDriver::class => [ReplacementDriver::class, 'SPINDLE_TEST_DRIVER']]);
        $middleware = new DriverMiddleware($drivers, static fn (): bool => true);
        $mysql = new PdoMysqlDriver();

        self::assertInstanceOf(ReplacementDriver::class, $middleware->wrap(new PdoPgsqlDriver()));
        self::assertSame($mysql, $middleware->wrap($mysql));
        \putenv('SPINDLE_TEST_DRIVER=NATIVE');
        self::assertInstanceOf(PdoPgsqlDriver::class, $middleware->wrap(new PdoPgsqlDriver()));
    }

    public function testTheDefaultTableMapsPdoMysqlAndPdoPgsql(): void
    {
        self::assertSame([
            PdoMysqlDriver::class => [Driver::class, 'SPINDLE_MYSQL_DRIVER'],
            PdoPgsqlDriver::class => [PgsqlDriver::class, 'SPINDLE_PGSQL_DRIVER'],
        ], NativeDrivers::REPLACEMENTS);
    }
}

/** A driver standing for another database's Spindle driver. */
final class ReplacementDriver extends AbstractMySQLDriver
{
    public function connect(array $params): Connection
    {
        throw new \LogicException('not connected in this test');
    }
}
