<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel;

use Illuminate\Database\Connectors\PostgresConnector;
use Spindle\Database\Pdo;

/**
 * Laravel's PostgreSQL connector, opening `Spindle\Database\Pdo` instead of native PDO: a query
 * waits in its own request's fiber while the worker serves other requests. Everything else (DSN,
 * search path, encoding, time zone, isolation level, reconnecting) is Laravel's.
 *
 * A connection with `'spindle' => false` in config/database.php gets native PDO, and so do all
 * of them with `SPINDLE_PGSQL_DRIVER=native` in the environment (or the app's .env).
 */
final class SpindlePostgresConnector extends PostgresConnector
{
    private bool $useSpindle = true;

    /**
     * @param array<string, mixed> $config
     *
     * @return \PDO
     */
    public function connect(array $config)
    {
        $this->useSpindle = ($config['spindle'] ?? true) !== false && PgsqlDriver::enabled();

        return parent::connect($config);
    }

    /**
     * @param string $dsn
     * @param string $username
     * @param string $password
     * @param array<int|string, mixed> $options
     *
     * @return \PDO
     */
    protected function createPdoConnection($dsn, $username, $password, $options)
    {
        if (!$this->useSpindle) {
            return parent::createPdoConnection($dsn, $username, $password, $options);
        }

        return new Pdo($dsn, $username, $password, $options);
    }
}
