<?php

declare(strict_types=1);

namespace Spindle\Bridge\Doctrine;

use Doctrine\DBAL\Driver as DriverInterface;
use Doctrine\DBAL\Driver\PDO\MySQL\Driver as PdoMysqlDriver;
use Doctrine\DBAL\Driver\PDO\PgSQL\Driver as PdoPgsqlDriver;
use Spindle\Bridge\WorkerEnvironment;

/**
 * Which of DBAL's own drivers Spindle replaces with its fiber-aware ones (DriverMiddleware), and
 * the environment variable that keeps the native one (`=native`). One row per DBAL driver class,
 * which is what both a `driver:` setting and a URL scheme resolve to: `pdo_mysql` and `mysql://`,
 * `mysql2://`; `pdo_pgsql` and `postgresql://`, `postgres://`, `pgsql://`. The replacement is
 * given the same connection parameters and gives them the same meaning (see Driver, PgsqlDriver).
 */
final class NativeDrivers
{
    /** @var array<class-string<DriverInterface>, array{class-string<DriverInterface>, string}> */
    public const REPLACEMENTS = [
        PdoMysqlDriver::class => [Driver::class, 'SPINDLE_MYSQL_DRIVER'],
        PdoPgsqlDriver::class => [PgsqlDriver::class, 'SPINDLE_PGSQL_DRIVER'],
    ];

    /** @param array<class-string<DriverInterface>, array{class-string<DriverInterface>, string}> $replacements */
    public function __construct(private readonly array $replacements = self::REPLACEMENTS)
    {
    }

    /**
     * Spindle's driver in place of $driver, or null to keep it: $driver is not one of the table,
     * or the environment says native.
     */
    public function replacementFor(DriverInterface $driver): ?DriverInterface
    {
        $row = $this->replacements[$driver::class] ?? null;
        if ($row === null || WorkerEnvironment::native($row[1])) {
            return null;
        }

        return new $row[0]();
    }
}
