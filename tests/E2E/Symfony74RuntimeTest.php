<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

/**
 * The tests of SymfonyRuntimeTest on the Symfony 7.4 fixture app (tests/fixtures/symfony74-app),
 * and its DoctrineBundle connection (on MariaDB and on PostgreSQL) and http_client on Spindle's
 * clients under the runtime too.
 *
 * @group frameworks
 */
final class Symfony74RuntimeTest extends SymfonyRuntimeTest
{
    public function testTheRuntimesWorkersGiveTheAppSpindlesClients(): void
    {
        $port = $this->start(['SPINDLE_PORT' => '0', 'SPINDLE_WORKERS' => '1']);

        $classes = \json_decode(self::curl(['-s', "http://127.0.0.1:{$port}/clients/classes"])['out'], true);
        self::assertIsArray($classes);
        self::assertSame('Spindle\Database\Pdo', $classes['pdo']);
        self::assertSame('Spindle\HttpClient\Symfony\SpindleHttpClient', $classes['http']);
        $sleep = \json_decode(self::curl(['-s', "http://127.0.0.1:{$port}/clients/sleep?seconds=0.01"])['out'], true);
        self::assertSame(['slept' => 0.01, 'result' => 0], $sleep);
    }

    /** DoctrineBundle on PostgreSQL (DATABASE_URL=postgresql://…) runs on Spindle's PDO under the runtime too. */
    public function testTheRuntimesWorkersPutAPostgresqlConnectionOnSpindlesPdo(): void
    {
        $port = $this->start(['SPINDLE_PORT' => '0', 'SPINDLE_WORKERS' => '1', 'DATABASE_URL' => Symfony74PgsqlTest::databaseUrl()]);

        $classes = \json_decode(self::curl(['-s', "http://127.0.0.1:{$port}/clients/classes"])['out'], true);
        self::assertIsArray($classes);
        self::assertSame('Spindle\Database\Pdo', $classes['pdo']);
        $sleep = \json_decode(self::curl(['-s', "http://127.0.0.1:{$port}/clients/sleep?seconds=0.01"])['out'], true);
        self::assertSame(['slept' => 0.01, 'result' => ''], $sleep);
    }

    protected static function app(): string
    {
        return \dirname(__DIR__) . '/fixtures/symfony74-app';
    }
}
