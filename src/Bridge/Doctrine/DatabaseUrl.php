<?php

declare(strict_types=1);

namespace Spindle\Bridge\Doctrine;

use Doctrine\DBAL\Tools\DsnParser;

/**
 * Connection parameters from a database URL, with the MySQL schemes bound to Spindle's driver:
 *
 *     DriverManager::getConnection(DatabaseUrl::parse('mysql://app:secret@127.0.0.1:3306/app?charset=utf8mb4'));
 *
 * Other schemes (pgsql://, sqlite:///…) are left to DBAL's own drivers. DBAL 4 has no registry of
 * driver names, so this is the way to select the driver from a URL.
 */
final class DatabaseUrl
{
    /** URL schemes that select Spindle's driver ("-" and "_" are the same to DBAL's parser). */
    public const SCHEMES = ['mysql', 'mysql2', 'mysqli', 'mariadb', 'pdo-mysql', 'spindle'];

    /**
     * @param array<string, string> $schemeMapping further schemes for DBAL's parser (e.g. 'postgres' => 'pdo_pgsql')
     *
     * @return array<string, mixed> parameters for DriverManager::getConnection()
     */
    public static function parse(#[\SensitiveParameter] string $url, array $schemeMapping = []): array
    {
        $mapping = $schemeMapping;
        foreach (self::SCHEMES as $scheme) {
            $mapping[str_replace('-', '_', $scheme)] = Driver::class;
        }
        $params = (new DsnParser($mapping))->parse($url);
        // DBAL 3 leaves a class name in 'driver'; DBAL 4 already moves it to 'driverClass'.
        if (($params['driver'] ?? null) === Driver::class) {
            unset($params['driver']);
            $params['driverClass'] = Driver::class;
        }

        return $params;
    }
}
