<?php

declare(strict_types=1);

namespace Spindle\Bridge\Doctrine;

use Doctrine\DBAL\Tools\DsnParser;

/**
 * Connection parameters from a database URL, with the MySQL schemes bound to Spindle's driver and
 * the PostgreSQL ones to its PgsqlDriver:
 *
 *     DriverManager::getConnection(DatabaseUrl::parse('mysql://app:secret@127.0.0.1:3306/app?charset=utf8mb4'));
 *     DriverManager::getConnection(DatabaseUrl::parse('postgresql://app:secret@127.0.0.1:5432/app?charset=utf8'));
 *
 * Other schemes (sqlite:///…) are left to DBAL's own drivers. DBAL 4 has no registry of driver
 * names, so this is the way to select the driver from a URL.
 */
final class DatabaseUrl
{
    /** URL schemes that select Spindle's driver ("-" and "_" are the same to DBAL's parser). */
    public const SCHEMES = ['mysql', 'mysql2', 'mysqli', 'mariadb', 'pdo-mysql', 'spindle'];
    /** URL schemes that select Spindle's PgsqlDriver: DoctrineBundle's for pdo_pgsql, and DBAL's driver name. */
    public const PGSQL_SCHEMES = ['postgresql', 'postgres', 'pgsql', 'pdo-pgsql'];

    /**
     * @param array<string, string> $schemeMapping further schemes for DBAL's parser (e.g. 'sqlite3' => 'pdo_sqlite')
     *
     * @return array<string, mixed> parameters for DriverManager::getConnection()
     */
    public static function parse(#[\SensitiveParameter] string $url, array $schemeMapping = []): array
    {
        $mapping = $schemeMapping;
        foreach (self::SCHEMES as $scheme) {
            $mapping[str_replace('-', '_', $scheme)] = Driver::class;
        }
        foreach (self::PGSQL_SCHEMES as $scheme) {
            $mapping[str_replace('-', '_', $scheme)] = PgsqlDriver::class;
        }
        $params = (new DsnParser($mapping))->parse($url);
        // DBAL 3 leaves a class name in 'driver'; DBAL 4 already moves it to 'driverClass'.
        $driver = $params['driver'] ?? null;
        if ($driver === Driver::class || $driver === PgsqlDriver::class) {
            unset($params['driver']);
            $params['driverClass'] = $driver;
        }

        return $params;
    }
}
