<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\InstanceMetricsReading;
use Spindle\Tests\E2E\Support\LaravelFixture;
use Spindle\Tests\E2E\Support\RawClient;
use Spindle\Tests\E2E\Support\ServerProcess;
use Spindle\Tests\Integration\Pgsql\PgsqlTestCase;

/**
 * A worker's Laravel `pgsql` connections share a bounded pool of PostgreSQL sessions, as the
 * `mysql` ones do (LaravelDatabasePoolTest): a request takes one when it first queries and gives
 * it back, reset, when it ends. With one worker and a pool of one, two requests run on the same
 * session one after the other, and nothing the first left in it reaches the second: an open
 * transaction (rolled back, with a warning in the log), session variables (a custom one,
 * statement_timeout, TimeZone, application_name, client_encoding, search_path: back as
 * Laravel's connector set them), a temporary table, an SQL-level prepared statement, a cursor
 * WITH HOLD, an advisory lock, a LISTEN registration and a notification received and not read.
 * Many requests at once wait their turn instead of opening more sessions than the server allows.
 */
final class LaravelPgsqlPoolTest extends E2ETestCase
{
    use InstanceMetricsReading;

    private const VARIABLES = ['SPINDLE_DB_POOL', 'PG_HOST', 'PG_PORT', 'PG_DATABASE', 'PG_USERNAME', 'PG_PASSWORD'];

    /** @var array<string, string|false> */
    private array $savedEnv = [];

    protected function setUp(): void
    {
        foreach (self::VARIABLES as $name) {
            $this->savedEnv[$name] = \getenv($name);
        }
        $env = PgsqlTestCase::env();
        LaravelFixture::useTestDatabase();
        \putenv('PG_HOST=' . $env['PGSQL_HOST']);
        \putenv('PG_PORT=' . $env['PGSQL_PORT']);
        \putenv('PG_DATABASE=' . $env['PGSQL_DATABASE']);
        \putenv('PG_USERNAME=' . $env['PGSQL_USER']);
        \putenv('PG_PASSWORD=' . $env['PGSQL_PASSWORD']);
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
        $fresh = self::json($server->port(), '/pgstate/read');
        // A fresh session as Laravel's connector set it up.
        self::assertSame('public', $fresh['search_path'], \json_encode($fresh, \JSON_THROW_ON_ERROR));
        self::assertSame('UTC', $fresh['time_zone']);
        self::assertSame('UTF8', $fresh['encoding']);
        self::assertSame('spindle-fixture', $fresh['application_name']);
        self::assertNull($fresh['leak']);
        self::assertFalse($fresh['in_transaction']);

        $dirty = self::json($server->port(), '/pgstate/dirty');
        // The first request did change its session, on the one session of the pool.
        self::assertSame($fresh['id'], $dirty['id']);
        self::assertSame('42', $dirty['leak']);
        self::assertSame('pg_catalog', $dirty['search_path']);
        self::assertSame(1, $dirty['listening']);
        self::assertSame(1, $dirty['sql_prepared']);
        self::assertSame(1, $dirty['advisory_locks']);
        self::assertSame(1, $dirty['cursors']);
        self::assertSame('pool_leak_tmp', $dirty['temporary_table']);
        self::assertTrue($dirty['in_transaction']);

        $after = self::json($server->port(), '/pgstate/read');
        self::assertSame($fresh['id'], $after['id'], 'the same session served the next request');
        // The value is gone; the name stays known to the session as an empty placeholder: what
        // PostgreSQL's RESET ALL does with a custom variable once set (a new session has none).
        self::assertSame('', $after['leak'], 'a custom session variable');
        self::assertSame('0', $after['statement_timeout'], 'statement_timeout');
        self::assertSame($fresh['time_zone'], $after['time_zone'], 'TimeZone as Laravel set it');
        self::assertSame($fresh['encoding'], $after['encoding'], 'client_encoding as Laravel set it');
        self::assertSame($fresh['application_name'], $after['application_name'], 'application_name as Laravel set it');
        self::assertSame($fresh['search_path'], $after['search_path'], 'search_path as Laravel set it');
        self::assertNull($after['temporary_table'], 'temporary tables');
        self::assertSame(0, $after['sql_prepared'], 'prepared statements');
        self::assertSame(0, $after['advisory_locks'], 'advisory locks');
        self::assertSame(0, $after['listening'], 'LISTEN');
        self::assertSame(0, $after['cursors'], 'cursors');
        self::assertFalse($after['notification'], 'a notification received for the first request');
        self::assertFalse($after['in_transaction'], 'no transaction open');
        self::assertSame(0, $after['uncommitted'], 'the open transaction was rolled back');

        // Ten requests at once on a pool of one: they wait their turn, none fails.
        $outputs = LaravelFixture::curlAll(\array_fill(0, 10, ['-s', $server->url('/pgstate/read')]));
        foreach ($outputs as $output) {
            $state = \json_decode($output, true);
            self::assertIsArray($state, $output);
            self::assertSame($fresh['id'], $state['id']);
        }
        $metrics = '';
        self::assertTrue(self::eventually(static function () use ($metricsPort, &$metrics): bool {
            $metrics = self::fetch($metricsPort, '/metrics');

            return \str_contains($metrics, 'spindle_db_pool_size{pool="pgsql"}');
        }, 10.0), $metrics);
        self::assertMatchesRegularExpression('/^spindle_db_pool_size\{pool="pgsql"\} 1$/m', $metrics);
        // The reads' statements were prepared again by later requests: kept, not parsed again.
        self::assertMatchesRegularExpression('/^spindle_db_statement_cache_total\{result="hit"\} [1-9]/m', $metrics);
        $server->stop();
        self::assertStringContainsString('left a database transaction open on its pooled session: rolled back', $server->stderr());
    }

    /**
     * The role `spindle_limited` (scripts/postgres) may hold 6 sessions at once; two workers with
     * pools of 3 answer 64 requests sent at once, every one of them, where more sessions meet
     * "too many connections for role".
     */
    public function testTwoWorkersStayWithinTheRolesConnectionLimitUnderSixtyFourRequestsAtOnce(): void
    {
        $env = PgsqlTestCase::env();
        $dsn = 'pgsql:host=' . $env['PGSQL_HOST'] . ';port=' . $env['PGSQL_PORT'] . ';dbname=' . $env['PGSQL_DATABASE'];
        // The limit is real: a seventh session of the role is refused.
        $held = [];
        try {
            for ($i = 0; $i < 7; ++$i) {
                $held[] = new \PDO($dsn, 'spindle_limited', 'spindle');
            }
            self::fail('the server let spindle_limited open 7 sessions');
        } catch (\PDOException $e) {
            self::assertCount(6, $held);
            self::assertStringContainsString('too many connections for role', $e->getMessage());
        }
        $held = [];

        \putenv('SPINDLE_DB_POOL=3');
        \putenv('PG_USERNAME=spindle_limited');
        \putenv('PG_PASSWORD=spindle');
        $server = ServerProcess::start(LaravelFixture::path(LaravelFixture::LARAVEL_8), ['--workers=2']);
        $clients = [];
        for ($i = 0; $i < 64; ++$i) {
            $clients[] = $client = new RawClient($server->port());
            $client->send("GET /pgstate/busy HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
        }
        $answered = 0;
        $sessions = [];
        foreach ($clients as $client) {
            $response = $client->readResponse();
            self::assertSame(200, $response->status, $response->body);
            $state = \json_decode($response->body, true);
            self::assertIsArray($state, $response->body);
            $sessions[$state['id']] = true;
            ++$answered;
            $client->close();
        }
        self::assertSame(64, $answered);
        self::assertLessThanOrEqual(6, \count($sessions));
        $server->stop();
        self::assertStringNotContainsString('too many connections', $server->stderr());
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
