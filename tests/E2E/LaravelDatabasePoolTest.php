<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\InstanceMetricsReading;
use Spindle\Tests\E2E\Support\LaravelFixture;
use Spindle\Tests\E2E\Support\RawClient;
use Spindle\Tests\E2E\Support\ServerProcess;

/**
 * A worker's Laravel connections share a bounded pool of MySQL sessions: a request takes one when
 * it first queries and gives it back, reset, when it ends. With one worker and a pool of one, two
 * requests run on the same session one after the other, and nothing the first left in it reaches
 * the second: an open transaction (rolled back, with a warning in the log), user variables,
 * session variables (sql_mode, time_zone, character set), a temporary table, a named lock,
 * LAST_INSERT_ID(), FOUND_ROWS() and ROW_COUNT() and the default database. Many requests at once wait their turn for the one
 * session instead of opening more.
 */
final class LaravelDatabasePoolTest extends E2ETestCase
{
    use InstanceMetricsReading;

    /** @var array<string, string|false> */
    private array $savedEnv = [];

    protected function setUp(): void
    {
        foreach (['SPINDLE_DB_POOL', 'DB_USERNAME', 'DB_PASSWORD'] as $name) {
            $this->savedEnv[$name] = \getenv($name);
        }
        LaravelFixture::useTestDatabase();
        \putenv('SPINDLE_DB_POOL=1');
    }

    protected function tearDown(): void
    {
        foreach ($this->savedEnv as $name => $value) {
            \putenv($value === false ? $name : $name . '=' . $value);
        }
    }

    public function testNothingOfOneRequestsSessionReachesTheNextOneOnTheSameSession(): void
    {
        [$server, $metricsPort] = self::startWithMetrics(LaravelFixture::path(LaravelFixture::LARAVEL_8));
        $fresh = self::json($server->port(), '/dbstate/read');
        $dirty = self::json($server->port(), '/dbstate/dirty');
        // The first request did change its session, on the one session of the pool.
        self::assertSame($fresh['id'], $dirty['id']);
        self::assertSame('42', (string) $dirty['leak']);
        self::assertSame('information_schema', $dirty['db']);
        self::assertSame(1, (int) $dirty['in_transaction']);

        $after = self::json($server->port(), '/dbstate/read');
        self::assertSame($fresh['id'], $after['id'], 'the same session served the next request');
        self::assertNull($after['leak'], 'user variables');
        self::assertSame($fresh['sql_mode'], $after['sql_mode'], 'session variables: sql_mode as Laravel set it');
        self::assertSame($fresh['time_zone'], $after['time_zone'], 'session variables: time_zone');
        self::assertSame($fresh['charset'], $after['charset'], 'the character set');
        self::assertSame('utf8mb4', $after['charset']);
        self::assertNull($after['lock_holder'], 'named locks');
        self::assertSame(0, (int) $after['last_insert_id'], 'LAST_INSERT_ID()');
        self::assertSame($fresh['db'], $after['db'], 'the default database');
        self::assertSame([0, 0], [(int) $fresh['found_rows'], (int) $fresh['row_count']]);
        self::assertSame([0, 0], [(int) $after['found_rows'], (int) $after['row_count']], 'FOUND_ROWS() and ROW_COUNT()');
        self::assertSame('absent', $after['temporary_table'], 'temporary tables');
        self::assertSame(0, (int) $after['in_transaction'], 'no transaction open');
        self::assertSame(1, (int) $after['autocommit']);
        self::assertSame(0, $after['uncommitted'], 'the open transaction was rolled back');

        // Ten requests at once on a pool of one: they wait their turn, none fails.
        $outputs = LaravelFixture::curlAll(\array_fill(0, 10, ['-s', $server->url('/dbstate/read')]));
        foreach ($outputs as $output) {
            $state = \json_decode($output, true);
            self::assertIsArray($state, $output);
            self::assertSame($fresh['id'], $state['id']);
        }
        // The worker reports its metrics once a second.
        $metrics = '';
        self::assertTrue(self::eventually(static function () use ($metricsPort, &$metrics): bool {
            $metrics = self::fetch($metricsPort, '/metrics');

            return \str_contains($metrics, 'spindle_db_pool_size');
        }, 10.0), $metrics);
        self::assertMatchesRegularExpression('/^spindle_db_pool_size\{pool="mysql"\} 1$/m', $metrics);
        self::assertMatchesRegularExpression('/^spindle_db_statement_cache_total\{result="hit"\} [1-9]/m', $metrics);
        $server->stop();
        self::assertStringContainsString('left a database transaction open on its pooled session: rolled back', $server->stderr());
    }

    /**
     * A request that only read leaves its session as a new one: the session goes back to the pool
     * without a reset and keeps its prepared statements (the next request on it prepares nothing
     * and is answered from the statement cache); after a request that changed its session, the
     * next one finds it reset.
     */
    public function testASessionOnlyReadFromGoesBackWithItsPreparedStatements(): void
    {
        $server = ServerProcess::start(LaravelFixture::path(LaravelFixture::LARAVEL_8));
        $first = self::json($server->port(), '/dbstate/clean');
        $second = self::json($server->port(), '/dbstate/clean');
        self::assertSame($first['id'], $second['id'], 'the same session');
        self::assertSame($first['com_stmt_prepare'], $second['com_stmt_prepare'], 'nothing prepared again');
        self::assertSame($first['com_stmt_execute'] + 2, $second['com_stmt_execute'], 'both statements executed');
        // The last request's last statement (2 rows) is not what FOUND_ROWS() tells the next one.
        self::assertSame([0, 0], [(int) $second['found_rows'], (int) $second['row_count']]);
        // The session's counters run on: MariaDB zeroes them on COM_RESET_CONNECTION.
        self::assertGreaterThanOrEqual(4, $second['com_stmt_execute'], 'no reset');

        self::json($server->port(), '/dbstate/dirty');
        $after = self::json($server->port(), '/dbstate/clean');
        self::assertSame($first['id'], $after['id']);
        self::assertSame($first['db'], $after['db']);
        self::assertLessThan($second['com_stmt_execute'], $after['com_stmt_execute'], 'reset after the request that changed it');
        self::assertSame(2, $after['com_stmt_prepare'], 'its statements prepared again');
        $server->stop();
    }

    /**
     * The server lets the account `spindle_limited` (scripts/mariadb) hold 6 connections at once;
     * two workers with pools of 3 answer 64 requests sent at once, every one of them, where more
     * sessions meet "User spindle_limited already has more than 'max_user_connections' active
     * connections" (with pools of 8, some of the 64 get 500).
     */
    public function testTwoWorkersStayWithinTheServersConnectionLimitUnderSixtyFourRequestsAtOnce(): void
    {
        $env = LaravelFixture::mariadbEnv();
        // The limit is real: a seventh connection of the account is refused.
        $held = [];
        try {
            for ($i = 0; $i < 7; ++$i) {
                $held[] = new \PDO('mysql:host=127.0.0.1;port=' . $env['MYSQL_PORT'] . ';dbname=' . $env['MYSQL_DATABASE'], 'spindle_limited', 'spindle');
            }
            self::fail('the server let spindle_limited open 7 connections');
        } catch (\PDOException $e) {
            self::assertCount(6, $held);
            self::assertStringContainsString('max_user_connections', $e->getMessage());
        }
        $held = [];

        \putenv('SPINDLE_DB_POOL=3');
        \putenv('DB_USERNAME=spindle_limited');
        \putenv('DB_PASSWORD=spindle');
        $server = ServerProcess::start(LaravelFixture::path(LaravelFixture::LARAVEL_8), ['--workers=2']);
        $clients = [];
        for ($i = 0; $i < 64; ++$i) {
            $clients[] = $client = new RawClient($server->port());
            $client->send("GET /dbstate/read HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
        }
        $answered = 0;
        foreach ($clients as $client) {
            $response = $client->readResponse();
            self::assertSame(200, $response->status, $response->body);
            self::assertIsArray(\json_decode($response->body, true), $response->body);
            ++$answered;
            $client->close();
        }
        self::assertSame(64, $answered);
        $server->stop();
        self::assertStringNotContainsString('max_user_connections', $server->stderr());
    }

    /** @return array<string, mixed> */
    private static function json(int $port, string $path): array
    {
        $body = self::fetch($port, $path);
        $decoded = \json_decode($body, true);
        self::assertIsArray($decoded, $body);

        return $decoded;
    }
}
