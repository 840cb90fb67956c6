<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\Pgsql;

use Spindle\Database\Pdo;
use Spindle\Tests\Integration\Pdo\Trace;

/**
 * Runs one scenario through native pdo_pgsql and through Spindle\Database\Pdo (same DSN, same
 * options, the private PostgreSQL of scripts/postgres) and asserts that both observed the same.
 * Scenarios use temporary tables: each side's session has its own. Without that server, or
 * without pdo_pgsql, the tests fail (they are not skipped).
 */
abstract class PdoDifferentialTestCase extends PgsqlTestCase
{
    public const NATIVE = 'native';
    public const SPINDLE = 'spindle';

    private int $errorReporting = 0;

    public static function setUpBeforeClass(): void
    {
        if (!\extension_loaded('pdo_pgsql')) {
            self::fail('The differential tests compare with native pdo_pgsql: install php8.2-pgsql (scripts/test does).');
        }
    }

    protected function setUp(): void
    {
        $this->errorReporting = error_reporting(E_ALL);
    }

    protected function tearDown(): void
    {
        error_reporting($this->errorReporting);
        parent::tearDown();
    }

    /**
     * @param array<int|string, mixed>|null $options
     */
    protected static function open(string $side, ?array $options = [], ?string $dsn = null, ?string $user = null, ?string $password = null): \PDO
    {
        $env = self::env();
        $dsn ??= self::dsn();
        $user ??= $env['PGSQL_USER'];
        $password ??= $env['PGSQL_PASSWORD'];

        // One line: both exceptions must point at the same line.
        return $side === self::NATIVE ? new \PDO($dsn, $user, $password, $options) : new Pdo($dsn, $user, $password, $options);
    }

    /**
     * Runs $scenario on a fresh connection of each side and asserts that both traces are the same.
     *
     * @param \Closure(\PDO, Trace): void $scenario
     * @param array<int|string, mixed>|null $options
     *
     * @return array{Trace, Trace}
     */
    protected function differential(\Closure $scenario, ?array $options = [], ?string $dsn = null): array
    {
        $traces = [];
        foreach ([self::NATIVE, self::SPINDLE] as $side) {
            $trace = new Trace($side);
            $db = self::open($side, $options, $dsn);
            $scenario($db, $trace);
            unset($db);
            $traces[] = $trace;
        }
        self::assertSameTrace($traces[0], $traces[1]);

        return [$traces[0], $traces[1]];
    }

    /**
     * @param \Closure(string, Trace): void $scenario gets the side
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
        self::assertTrue($differences === [], \count($differences) . " step(s) differ between native pdo_pgsql and Spindle\\Database\\Pdo:\n" . implode("\n", $differences));
        self::assertSame($native->entries, $spindle->entries);
    }
}
