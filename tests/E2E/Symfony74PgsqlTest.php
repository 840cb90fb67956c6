<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\LaravelFixture;
use Spindle\Tests\E2E\Support\ServerProcess;
use Spindle\Tests\E2E\Support\SymfonyFixtureTestCase;
use Spindle\Tests\Integration\Pgsql\PgsqlTestCase;

/**
 * The Symfony 7.4 fixture with its DoctrineBundle connection on the private PostgreSQL of
 * scripts/postgres, configured as Symfony's recipe configures it (`DATABASE_URL=postgresql://…
 * ?serverVersion=…&charset=utf8`) and nothing about Spindle: under `spindle serve` the connection
 * runs on Spindle's PDO, ten `SELECT pg_sleep(1)` in one worker finish together, and queries and
 * errors reach the app as native pdo_pgsql gives them; SPINDLE_PGSQL_DRIVER=native keeps native
 * pdo_pgsql.
 *
 * @group frameworks
 */
final class Symfony74PgsqlTest extends SymfonyFixtureTestCase
{
    private const CONCURRENT = 10;

    private static string|false $mysqlUrl = false;

    public static function setUpBeforeClass(): void
    {
        parent::setUpBeforeClass();
        if (!\extension_loaded('pdo_pgsql')) {
            self::fail('The native side of this test is pdo_pgsql: install php8.2-pgsql (scripts/test does).');
        }
        self::$mysqlUrl = \getenv('DATABASE_URL');
        \putenv('DATABASE_URL=' . self::databaseUrl());
    }

    public static function tearDownAfterClass(): void
    {
        parent::tearDownAfterClass();
        \putenv(self::$mysqlUrl === false ? 'DATABASE_URL' : 'DATABASE_URL=' . self::$mysqlUrl);
    }

    protected static function app(): string
    {
        return \dirname(__DIR__) . '/fixtures/symfony74-app';
    }

    /** The private PostgreSQL as Symfony's DoctrineBundle recipe writes DATABASE_URL. */
    public static function databaseUrl(): string
    {
        $pg = PgsqlTestCase::env();
        $version = (string) (new \PDO(PgsqlTestCase::dsn(), $pg['PGSQL_USER'], $pg['PGSQL_PASSWORD']))->getAttribute(\PDO::ATTR_SERVER_VERSION);

        return \sprintf(
            'postgresql://%s:%s@%s:%s/%s?serverVersion=%s&charset=utf8',
            \rawurlencode($pg['PGSQL_USER']),
            \rawurlencode($pg['PGSQL_PASSWORD']),
            $pg['PGSQL_HOST'],
            $pg['PGSQL_PORT'],
            \rawurlencode($pg['PGSQL_DATABASE']),
            \rawurlencode((string) \preg_replace('/ .*/', '', $version)),
        );
    }

    public function testTheConnectionRunsOnSpindlesPdo(): void
    {
        $server = self::sharedServer(self::app(), ['--workers=1', '--concurrency=16']);
        self::assertStringContainsString("Symfony: Spindle's clients for doctrine.dbal.default_connection (DBAL)", $server->stderr());
        $classes = self::json($server, '/clients/classes');
        self::assertSame('Spindle\Database\Pdo', $classes['pdo']);
        self::assertSame('Symfony\Bridge\Doctrine\Middleware\IdleConnection\Driver', $classes['driver']);
    }

    public function testTenPgSleepsOverlapInOneWorker(): void
    {
        $server = self::sharedServer(self::app(), ['--workers=1', '--concurrency=16']);
        // Ten app instances booted and connected first: what is measured is the waits.
        LaravelFixture::curlAll(\array_fill(0, self::CONCURRENT, ['-s', $server->url('/clients/sleep?seconds=0.2')]), 30.0);
        $logged = \strlen($server->stderr());
        $started = \microtime(true);
        $bodies = LaravelFixture::curlAll(\array_fill(0, self::CONCURRENT, ['-s', $server->url('/clients/sleep?seconds=1')]), 30.0);
        $elapsed = \microtime(true) - $started;
        foreach ($bodies as $body) {
            // pg_sleep() returns void, which PostgreSQL sends as an empty string.
            self::assertSame(['slept' => 1, 'result' => ''], \json_decode($body, true), $body . $server->stderr());
        }
        self::reportFigures('Symfony 7.4, DoctrineBundle on PostgreSQL', \sprintf('%d x SELECT pg_sleep(1) in one worker: %.2f s, %.1f req/s', self::CONCURRENT, $elapsed, self::CONCURRENT / $elapsed));
        // Ten one-second sleeps one after the other (a worker blocked by each) take ten seconds.
        self::assertLessThan(6.0, $elapsed, $server->stderr());
        self::assertNoRequestHeldTheLoop(\substr($server->stderr(), $logged), 0.9);
    }

    /**
     * The same rows, PHP types and DBAL exceptions (a unique violation is DBAL's
     * UniqueConstraintViolationException) through Spindle's driver as through native pdo_pgsql,
     * which SPINDLE_PGSQL_DRIVER=native brings back.
     */
    public function testResultsAndErrorsAreThoseOfNativePdoPgsql(): void
    {
        $server = self::sharedServer(self::app(), ['--workers=1', '--concurrency=16']);
        $spindle = self::json($server, '/clients/scenario');

        self::assertSame([['id' => 1, 'name' => 'a', 'price' => '1.50', 'active' => true, 'note' => null], ['id' => 2, 'name' => 'b', 'price' => null, 'active' => false, 'note' => "it's"]], $spindle['rows']);
        self::assertSame([['id' => 'int', 'name' => 'string', 'price' => 'string', 'active' => 'bool', 'note' => 'null'], ['id' => 'int', 'name' => 'string', 'price' => 'null', 'active' => 'bool', 'note' => 'string']], $spindle['types']);
        self::assertSame('9.99', $spindle['updated']);
        self::assertIsArray($spindle['unique']);
        self::assertSame('Doctrine\DBAL\Exception\UniqueConstraintViolationException', $spindle['unique']['class']);
        self::assertSame('23505', $spindle['unique']['sqlstate']);
        self::assertIsArray($spindle['missing table']);
        self::assertSame('Doctrine\DBAL\Exception\TableNotFoundException', $spindle['missing table']['class']);

        \putenv('SPINDLE_PGSQL_DRIVER=native');
        try {
            $native = ServerProcess::start(self::app(), ['--workers=1']);
        } finally {
            \putenv('SPINDLE_PGSQL_DRIVER');
        }
        self::assertSame('PDO', self::json($native, '/clients/classes')['pdo']);
        self::assertSame(self::json($native, '/clients/scenario'), $spindle);
        $native->stop();
    }

    /** A query error the app does not catch is a 500 with no trace; the worker goes on serving. */
    public function testAnUncaughtQueryErrorIsA500(): void
    {
        $server = self::sharedServer(self::app(), ['--workers=1', '--concurrency=16']);
        $failed = self::curl(['-s', '-w', '\n%{http_code}', $server->url('/clients/sleep?raw=not-a-number')]);
        self::assertStringEndsWith("\n500", $failed['out']);
        self::assertStringNotContainsString('SQLSTATE', $failed['out']);
        self::assertTrue(self::eventually(static fn (): bool => \str_contains($server->stderr(), 'SQLSTATE[22P02]'), 10.0), $server->stderr());
        self::assertSame(['slept' => 0, 'result' => ''], self::json($server, '/clients/sleep?seconds=0'));
    }

    /** @return array<string, mixed> */
    private static function json(ServerProcess $server, string $path): array
    {
        $result = self::curl(['-s', $server->url($path)]);
        $json = \json_decode($result['out'], true);
        self::assertIsArray($json, $result['out'] . $server->stderr());

        return $json;
    }
}
