<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\Pdo;

use Spindle\Database\Pdo;
use Spindle\Tests\Integration\Mysql\MysqlTestCase;

/**
 * Runs one scenario through native pdo_mysql and through Spindle\Database\Pdo (same DSN, same
 * options, the private MariaDB of scripts/mariadb) and asserts that both observed the same.
 * Without that server, or without pdo_mysql, the tests fail (they are not skipped).
 */
abstract class DifferentialTestCase extends MysqlTestCase
{
    public const NATIVE = 'native';
    public const SPINDLE = 'spindle';

    /** A stored procedure with several result sets, created once per process. */
    protected static string $procedure = '';

    public static function setUpBeforeClass(): void
    {
        if (!\extension_loaded('pdo_mysql')) {
            self::fail('The differential tests compare with native pdo_mysql: install php8.2-mysql (scripts/test does).');
        }
        self::$procedure = 'pdo_diff_rowsets_' . getmypid();
        $admin = self::nativeAdmin();
        $admin->exec('DROP PROCEDURE IF EXISTS ' . self::$procedure);
        $admin->exec('CREATE PROCEDURE ' . self::$procedure . "(IN n INT)
            BEGIN
                SELECT n AS a, 'x' AS b;
                SELECT n + 1 AS c UNION ALL SELECT n + 2;
                SELECT 1 AS nothing FROM DUAL WHERE 1 = 0;
            END");
    }

    private int $errorReporting = 0;

    protected function setUp(): void
    {
        // Deprecations too: php.ini often leaves E_DEPRECATED out.
        $this->errorReporting = error_reporting(E_ALL);
    }

    protected function tearDown(): void
    {
        error_reporting($this->errorReporting);
        parent::tearDown();
    }

    public static function tearDownAfterClass(): void
    {
        if (self::$procedure !== '') {
            self::nativeAdmin()->exec('DROP PROCEDURE IF EXISTS ' . self::$procedure);
        }
    }

    /** "mysql:host=127.0.0.1;port=…;dbname=…;charset=utf8mb4" or the unix socket equivalent. */
    protected static function dsn(string $transport = 'tcp', string $charset = 'utf8mb4'): string
    {
        $env = self::env();
        $where = $transport === 'socket'
            ? 'unix_socket=' . $env['MYSQL_SOCKET']
            : sprintf('host=%s;port=%s', $env['MYSQL_HOST'], $env['MYSQL_PORT']);

        return sprintf('mysql:%s;dbname=%s;charset=%s', $where, $env['MYSQL_DATABASE'], $charset);
    }

    /**
     * Opens a connection of one side.
     *
     * @param array<int|string, mixed>|null $options
     */
    protected static function open(string $side, ?array $options = [], ?string $dsn = null, ?string $user = null, ?string $password = null): \PDO
    {
        $env = self::env();
        $dsn ??= self::dsn();
        $user ??= $env['MYSQL_USER'];
        $password ??= $env['MYSQL_PASSWORD'];

        // One line: both exceptions must point at the same line.
        return $side === self::NATIVE ? new \PDO($dsn, $user, $password, $options) : new Pdo($dsn, $user, $password, $options);
    }

    /**
     * Runs $scenario on a fresh connection of each side (opened with $options over $transport)
     * and asserts that both traces are the same.
     *
     * @param \Closure(\PDO, Trace): void $scenario
     * @param array<int|string, mixed>|null $options
     *
     * @return array{Trace, Trace} native, spindle
     */
    protected function differential(\Closure $scenario, ?array $options = [], string $transport = 'tcp'): array
    {
        $traces = [];
        foreach ([self::NATIVE, self::SPINDLE] as $side) {
            $trace = new Trace($side);
            try {
                $db = self::open($side, $options, self::dsn($transport));
            } catch (\PDOException $e) {
                if (\in_array($e->getCode(), [2002, 2003], true)) {
                    self::fail("Cannot reach the test MariaDB ({$e->getMessage()}). Run scripts/mariadb first.");
                }
                throw $e;
            }
            $scenario($db, $trace);
            unset($db);
            $traces[] = $trace;
        }
        self::assertSameTrace($traces[0], $traces[1]);

        return [$traces[0], $traces[1]];
    }

    /**
     * Like differential(), for scenarios that open their connections themselves.
     *
     * @param \Closure(string, Trace): void $scenario gets the side (self::NATIVE or self::SPINDLE)
     *
     * @return array{Trace, Trace}
     */
    protected function differentialSides(\Closure $scenario): array
    {
        $traces = [];
        foreach ([self::NATIVE, self::SPINDLE] as $side) {
            $trace = new Trace($side);
            $scenario($side, $trace);
            $traces[] = $trace;
        }
        self::assertSameTrace($traces[0], $traces[1]);

        return [$traces[0], $traces[1]];
    }

    /**
     * Runs $scenario for each side without comparing: for the documented differences, whose
     * tests assert what each side does.
     *
     * @param \Closure(string, Trace): void $scenario
     *
     * @return array{Trace, Trace} native, spindle
     */
    protected function observe(\Closure $scenario): array
    {
        $traces = [];
        foreach ([self::NATIVE, self::SPINDLE] as $side) {
            $trace = new Trace($side);
            $scenario($side, $trace);
            $traces[] = $trace;
        }

        return [$traces[0], $traces[1]];
    }

    protected static function assertSameTrace(Trace $native, Trace $spindle): void
    {
        self::assertNotEmpty($native->entries, 'the scenario observed nothing');
        $differences = [];
        foreach (array_unique(array_merge(array_keys($native->entries), array_keys($spindle->entries))) as $label) {
            $expected = \array_key_exists($label, $native->entries) ? Trace::export($native->entries[$label]) : '(nothing)';
            $actual = \array_key_exists($label, $spindle->entries) ? Trace::export($spindle->entries[$label]) : '(nothing)';
            if ($expected !== $actual) {
                $differences[] = "$label\n    native:  $expected\n    spindle: $actual";
            }
        }
        self::assertTrue($differences === [], \count($differences) . " step(s) differ between native pdo_mysql and Spindle\\Database\\Pdo:\n" . implode("\n", $differences));
        self::assertSame($native->entries, $spindle->entries);
    }

    private static function nativeAdmin(): \PDO
    {
        try {
            return self::open(self::NATIVE, [\PDO::ATTR_ERRMODE => \PDO::ERRMODE_EXCEPTION]);
        } catch (\PDOException $e) {
            if (\in_array($e->getCode(), [2002, 2003], true)) {
                self::fail("Cannot reach the test MariaDB ({$e->getMessage()}). Run scripts/mariadb first.");
            }
            throw $e;
        }
    }
}
