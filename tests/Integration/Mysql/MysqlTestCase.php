<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\Mysql;

use PHPUnit\Framework\TestCase;
use Spindle\Database\Mysql\ConnectionConfig;
use Spindle\Database\Mysql\MysqlException;
use Spindle\Database\Mysql\SocketConnection;

/**
 * Runs against the private MariaDB that scripts/mariadb starts; its env file says where.
 * Without it the tests fail (they are not skipped).
 */
abstract class MysqlTestCase extends TestCase
{
    /** @var list<SocketConnection> */
    private array $opened = [];

    /** @return array<string, string> */
    protected static function env(): array
    {
        $dir = getenv('SPINDLE_MYSQL_DIR');
        $file = ($dir === false || $dir === '' ? '/tmp/spindle-mariadb' : $dir) . '/env';
        $lines = is_file($file) ? file($file, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) : false;
        if ($lines === false) {
            self::fail("No MariaDB for the integration tests: $file is missing. Run scripts/mariadb first.");
        }
        $env = [];
        foreach ($lines as $line) {
            if (preg_match('/^(?:export\s+)?([A-Z_]+)=(.*)$/', $line, $m) === 1) {
                $env[$m[1]] = $m[2];
            }
        }
        foreach (['MYSQL_HOST', 'MYSQL_PORT', 'MYSQL_SOCKET', 'MYSQL_USER', 'MYSQL_PASSWORD', 'MYSQL_DATABASE'] as $key) {
            if (!isset($env[$key])) {
                self::fail("$file lacks $key. Run scripts/mariadb again.");
            }
        }

        return $env;
    }

    /** @param array<string, mixed> $overrides named ConnectionConfig arguments */
    protected static function config(array $overrides = []): ConnectionConfig
    {
        $env = self::env();
        $args = $overrides + [
            'host' => $env['MYSQL_HOST'],
            'port' => (int) $env['MYSQL_PORT'],
            'user' => $env['MYSQL_USER'],
            'password' => $env['MYSQL_PASSWORD'],
            'database' => $env['MYSQL_DATABASE'],
            'connectTimeout' => 5.0,
            'queryTimeout' => 20.0,
        ];

        return new ConnectionConfig(...$args);
    }

    /** @param array<string, mixed> $overrides */
    protected function connect(array $overrides = []): SocketConnection
    {
        try {
            $connection = SocketConnection::connect(self::config($overrides));
        } catch (MysqlException $e) {
            if (\in_array($e->errorCode, [2002, 2003], true)) {
                self::fail('Cannot reach the test MariaDB (' . $e->getMessage() . '). Run scripts/mariadb first.');
            }
            throw $e;
        }
        $this->opened[] = $connection;

        return $connection;
    }

    protected function tearDown(): void
    {
        foreach ($this->opened as $connection) {
            if (!$connection->isBroken()) {
                $connection->close();
            }
        }
        $this->opened = [];
    }

    /** @param \Closure(): mixed $call */
    protected static function assertMysqlError(int $code, string $sqlState, \Closure $call): MysqlException
    {
        try {
            $call();
        } catch (MysqlException $e) {
            self::assertSame($code, $e->errorCode, $e->getMessage());
            self::assertSame($sqlState, $e->sqlState, $e->getMessage());

            return $e;
        }
        self::fail("expected MySQL error $code");
    }
}
