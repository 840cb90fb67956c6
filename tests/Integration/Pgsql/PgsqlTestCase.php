<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\Pgsql;

use PHPUnit\Framework\TestCase;
use Spindle\Database\Pgsql\Connection;
use Spindle\Database\Pgsql\ConnectionConfig;
use Spindle\Database\Pgsql\SslMode;

/**
 * Runs against the private PostgreSQL that scripts/postgres starts; its env file says where.
 * Without it the tests fail (they are not skipped).
 */
abstract class PgsqlTestCase extends TestCase
{
    /** @var list<Connection> */
    private array $opened = [];

    /** @return array<string, string> */
    public static function env(): array
    {
        $dir = getenv('SPINDLE_PGSQL_DIR');
        $file = ($dir === false || $dir === '' ? '/tmp/spindle-postgres' : $dir) . '/env';
        $lines = is_file($file) ? file($file, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) : false;
        if ($lines === false) {
            self::fail("No PostgreSQL for the integration tests: $file is missing. Run scripts/postgres first.");
        }
        $env = [];
        foreach ($lines as $line) {
            if (preg_match('/^(?:export\s+)?([A-Z_0-9]+)=(.*)$/', $line, $m) === 1) {
                $env[$m[1]] = $m[2];
            }
        }
        foreach (['PGSQL_HOST', 'PGSQL_PORT', 'PGSQL_SOCKET_DIR', 'PGSQL_USER', 'PGSQL_PASSWORD', 'PGSQL_DATABASE'] as $key) {
            if (!isset($env[$key])) {
                self::fail("$file lacks $key. Run scripts/postgres again.");
            }
        }

        return $env;
    }

    /** @param array<string, mixed> $overrides named ConnectionConfig arguments */
    protected static function config(array $overrides = []): ConnectionConfig
    {
        $env = self::env();
        $args = $overrides + [
            'host' => $env['PGSQL_HOST'],
            'port' => (int) $env['PGSQL_PORT'],
            'user' => $env['PGSQL_USER'],
            'password' => $env['PGSQL_PASSWORD'],
            'database' => $env['PGSQL_DATABASE'],
            'sslMode' => SslMode::Disable,
            'connectTimeout' => 5.0,
            'queryTimeout' => 20.0,
        ];

        return new ConnectionConfig(...$args);
    }

    /** @param array<string, mixed> $overrides */
    protected function connect(array $overrides = []): Connection
    {
        $connection = Connection::connect(self::config($overrides));
        $this->opened[] = $connection;

        return $connection;
    }

    /** The PDO DSN of the test database. */
    public static function dsn(string $extra = ''): string
    {
        $env = self::env();

        return sprintf('pgsql:host=%s;port=%s;dbname=%s', $env['PGSQL_HOST'], $env['PGSQL_PORT'], $env['PGSQL_DATABASE']) . $extra;
    }

    protected function tearDown(): void
    {
        foreach ($this->opened as $connection) {
            if (!$connection->isBusy()) {
                $connection->close();
            }
        }
        $this->opened = [];
    }
}
