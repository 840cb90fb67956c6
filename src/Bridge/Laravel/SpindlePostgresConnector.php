<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel;

use Illuminate\Database\Connectors\PostgresConnector;
use Spindle\Bridge\BridgeServices;
use Spindle\Database\Pdo;
use Spindle\Database\Pdo\PgsqlSession;
use Spindle\Database\Pgsql\Connection;
use Spindle\Database\Pgsql\ConnectionConfig;
use Spindle\Database\Pool\PgsqlRequestConnection;
use Spindle\Database\Pool\PgsqlSessionSetup;

/**
 * Laravel's PostgreSQL connector, opening `Spindle\Database\Pdo` instead of native PDO: a query
 * waits in its own request's fiber while the worker serves other requests. Everything else (DSN,
 * search path, encoding, time zone, isolation level, reconnecting) is Laravel's.
 *
 * In a worker of `spindle serve`, the Pdo's sessions come from the worker's pool for the
 * connection's configuration (SessionPools), as for MySQL: a request takes one when it first
 * queries and gives it back, reset (ROLLBACK of what it left open, DISCARD ALL), when it ends.
 * Each session is set up by this connector (Laravel's `set names`, `set time zone`,
 * `set search_path to`, `set application_name`, the isolation level) when it opens, and again
 * after every reset. `'pool' => N` in the connection's config sets its pool's size;
 * `'pool' => false` gives each app instance a session of its own, as before pools.
 *
 * A connection with `'spindle' => false` in config/database.php gets native PDO, and so do all
 * of them with `SPINDLE_PGSQL_DRIVER=native` in the environment (or the app's .env).
 */
final class SpindlePostgresConnector extends PostgresConnector
{
    private bool $useSpindle = true;
    /** @var (\Closure(ConnectionConfig): PgsqlSessionSetup)|null while a pooled session is being set up */
    private ?\Closure $setup = null;

    /**
     * @param array<string, mixed> $config
     *
     * @return \PDO
     */
    public function connect(array $config)
    {
        $this->useSpindle = ($config['spindle'] ?? true) !== false && PgsqlDriver::enabled();
        if ($this->useSpindle && ($config['pool'] ?? true) !== false) {
            return $this->pooled($config);
        }

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
        if ($this->setup !== null) {
            $options[Pdo::ATTR_CONNECTOR] = $this->setup;
        }

        return new Pdo($dsn, $username, $password, $options);
    }

    /**
     * A Pdo over the worker's pool for $config: nothing is opened now.
     *
     * @param array<string, mixed> $config
     */
    private function pooled(array $config): Pdo
    {
        $size = $config['pool'] ?? null;
        if ($size !== null && (\filter_var($size, \FILTER_VALIDATE_INT) === false || (int) $size < 1)) {
            throw new \InvalidArgumentException(\sprintf('The "pool" of database connection "%s" must be a whole number of at least 1 (or false), got %s', (string) ($config['name'] ?? 'pgsql'), \var_export($size, true)));
        }
        $identity = $config;
        unset($identity['name'], $identity['pool']);
        $connection = BridgeServices::current()->sessionPools()->pgsqlConnection(
            \hash('sha256', \serialize($identity)),
            \is_string($config['name'] ?? null) ? $config['name'] : 'pgsql',
            $size === null ? null : (int) $size,
            fn (): PgsqlSession => $this->openSession($config),
        );
        $options = $this->getOptions($config);
        $options[Pdo::ATTR_CONNECTOR] = static fn (): PgsqlRequestConnection => $connection;
        $username = $config['username'] ?? null;
        $password = $config['password'] ?? null;

        return new Pdo($this->getDsn($config), \is_string($username) ? $username : null, \is_string($password) ? $password : null, $options);
    }

    /**
     * A new session for the pool, set up by Laravel's own connect() (through a Pdo that is
     * dropped afterwards), its setup remembered for the resets.
     *
     * @param array<string, mixed> $config
     */
    private function openSession(array $config): PgsqlSession
    {
        $setup = null;
        $this->useSpindle = true;
        $this->setup = static function (ConnectionConfig $connectionConfig) use (&$setup): PgsqlSessionSetup {
            return $setup = new PgsqlSessionSetup(new PgsqlSession(Connection::connect($connectionConfig)));
        };
        try {
            $pdo = parent::connect($config);
        } finally {
            $this->setup = null;
        }
        \assert($setup instanceof PgsqlSessionSetup);
        $session = $setup->handOver();
        unset($pdo);

        return $session;
    }
}
