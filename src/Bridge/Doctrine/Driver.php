<?php

declare(strict_types=1);

namespace Spindle\Bridge\Doctrine;

use Doctrine\DBAL\Driver\AbstractMySQLDriver;
use Doctrine\DBAL\Driver\PDO\Connection;

/**
 * Doctrine DBAL driver for MySQL and MariaDB over Spindle\Database\Pdo: DBAL's own pdo_mysql
 * driver, except that the PDO it wraps is Spindle's, so a query suspends only the fiber that runs
 * it. Select it with the driverClass parameter:
 *
 *     DriverManager::getConnection([
 *         'driverClass' => Spindle\Bridge\Doctrine\Driver::class,
 *         'host' => '127.0.0.1', 'port' => 3306, 'dbname' => 'app',
 *         'user' => 'app', 'password' => '…', 'charset' => 'utf8mb4',
 *     ]);
 *
 * Parameters are those of DBAL's pdo_mysql driver: host, port, dbname, unix_socket, charset,
 * user, password, persistent (accepted, without effect) and driverOptions (PDO attributes,
 * Pdo::MYSQL_ATTR_* and Pdo::ATTR_CONNECTOR). Errors carry MySQL's own error numbers and
 * SQLSTATEs, so DBAL's exception converter and platform detection work unchanged.
 */
final class Driver extends AbstractMySQLDriver
{
    /**
     * {@inheritDoc}
     */
    public function connect(#[\SensitiveParameter] array $params): Connection
    {
        $attributes = PdoParameters::attributes($params);

        return new Connection(PdoParameters::open(self::dsn($params), $params, $attributes));
    }

    /**
     * The PDO DSN for the connection parameters, built as DBAL's pdo_mysql driver builds it.
     *
     * @param array<string, mixed> $params
     */
    public static function dsn(array $params): string
    {
        return PdoParameters::dsn('mysql:', $params, ['host', 'port', 'dbname', 'unix_socket', 'charset'], ['host']);
    }
}
