<?php

declare(strict_types=1);

namespace Spindle\Bridge\Doctrine;

use Doctrine\DBAL\Driver\AbstractPostgreSQLDriver;
use Doctrine\DBAL\Driver\PDO\Connection;
use Spindle\Database\Pdo;

/**
 * Doctrine DBAL driver for PostgreSQL over Spindle\Database\Pdo: DBAL's own pdo_pgsql driver,
 * except that the PDO it wraps is Spindle's, so a query suspends only the fiber that runs it.
 * Select it with the driverClass parameter:
 *
 *     DriverManager::getConnection([
 *         'driverClass' => Spindle\Bridge\Doctrine\PgsqlDriver::class,
 *         'host' => '127.0.0.1', 'port' => 5432, 'dbname' => 'app',
 *         'user' => 'app', 'password' => '…',
 *     ]);
 *
 * Parameters are those of DBAL's pdo_pgsql driver: host, port, dbname, sslmode, sslrootcert,
 * sslcert, sslkey, sslcrl, gssencmode, application_name, charset (sent as SET NAMES), user,
 * password, persistent (accepted, without effect), driverOptions (PDO attributes) and, on DBAL 3,
 * default_dbname. As DBAL's driver does, it turns
 * PDO::PGSQL_ATTR_DISABLE_PREPARES on unless driverOptions set it to false. Errors carry
 * PostgreSQL's SQLSTATEs, so DBAL's exception converter and platform detection work unchanged.
 */
final class PgsqlDriver extends AbstractPostgreSQLDriver
{
    /**
     * {@inheritDoc}
     */
    public function connect(#[\SensitiveParameter] array $params): Connection
    {
        $options = PdoParameters::attributes($params);
        $pdo = PdoParameters::open(self::dsn($params), $params, $options);
        if (!isset($options[Pdo::PGSQL_ATTR_DISABLE_PREPARES]) || $options[Pdo::PGSQL_ATTR_DISABLE_PREPARES] === true) {
            $pdo->setAttribute(Pdo::PGSQL_ATTR_DISABLE_PREPARES, true);
        }
        $connection = new Connection($pdo);
        if (isset($params['charset']) && \is_string($params['charset'])) {
            $connection->exec("SET NAMES '" . str_replace("'", "''", $params['charset']) . "'");
        }

        return $connection;
    }

    /**
     * The PDO DSN for the connection parameters, built as DBAL's pdo_pgsql driver builds it.
     *
     * @param array<string, mixed> $params
     */
    public static function dsn(array $params): string
    {
        // DBAL 3's driver connects to `postgres` (or `default_dbname`) when no dbname is given;
        // DBAL 4's leaves the database to the server (the user's name).
        if (!isset($params['dbname']) && \interface_exists('Doctrine\DBAL\Driver\ServerInfoAwareConnection')) {
            $params['dbname'] = $params['default_dbname'] ?? 'postgres';
        }

        return PdoParameters::dsn(
            'pgsql:',
            $params,
            ['host', 'port', 'dbname', 'sslmode', 'sslrootcert', 'sslcert', 'sslkey', 'sslcrl', 'application_name', 'gssencmode'],
            ['host', 'port'],
        );
    }
}
