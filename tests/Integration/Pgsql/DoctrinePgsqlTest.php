<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\Pgsql;

use Doctrine\DBAL\Connection;
use Doctrine\DBAL\DriverManager;
use Doctrine\DBAL\Exception\SyntaxErrorException;
use Doctrine\DBAL\Exception\TableNotFoundException;
use Doctrine\DBAL\Exception\UniqueConstraintViolationException;
use Doctrine\DBAL\ParameterType;
use Doctrine\DBAL\Platforms\PostgreSQLPlatform;
use Revolt\EventLoop;
use Spindle\Bridge\Doctrine\PgsqlDriver;
use Spindle\Database\Pdo;

/**
 * Doctrine DBAL's pdo_pgsql driver over Spindle\Database\Pdo (Spindle\Bridge\Doctrine\PgsqlDriver)
 * against the private PostgreSQL, beside DBAL's own pdo_pgsql driver on native PDO: the same
 * results, DBAL's exception classes from the SQLSTATEs, the platform, and
 * fibers waiting together.
 */
final class DoctrinePgsqlTest extends PgsqlTestCase
{
    /** @var list<Connection> */
    private array $connections = [];

    /** @param array<string, mixed> $overrides */
    private function dbal(bool $native = false, array $overrides = []): Connection
    {
        $env = self::env();
        $params = $overrides + [
            'host' => $env['PGSQL_HOST'],
            'port' => (int) $env['PGSQL_PORT'],
            'dbname' => $env['PGSQL_DATABASE'],
            'user' => $env['PGSQL_USER'],
            'password' => $env['PGSQL_PASSWORD'],
        ];
        $params += $native ? ['driver' => 'pdo_pgsql'] : ['driverClass' => PgsqlDriver::class];
        $connection = DriverManager::getConnection($params); // @phpstan-ignore argument.type
        $this->connections[] = $connection;

        return $connection;
    }

    protected function tearDown(): void
    {
        foreach ($this->connections as $connection) {
            $connection->close();
        }
        $this->connections = [];
        parent::tearDown();
    }

    public function testSpindlesPdoUnderneath(): void
    {
        $connection = $this->dbal();
        self::assertInstanceOf(Pdo::class, $connection->getNativeConnection());
        self::assertInstanceOf(PostgreSQLPlatform::class, $connection->getDatabasePlatform());
        self::assertTrue($connection->getNativeConnection()->getAttribute(Pdo::PGSQL_ATTR_DISABLE_PREPARES));
    }

    /** @return array<string, mixed> what one scenario observed */
    private static function scenario(Connection $c): array
    {
        $seen = [];
        $c->executeStatement('CREATE TEMP TABLE doctrine_items (id serial PRIMARY KEY, name text UNIQUE NOT NULL, price numeric(8,2), active boolean, data bytea, created timestamp)');
        $seen['insert'] = $c->insert('doctrine_items', ['name' => 'a', 'price' => '1.50', 'active' => true, 'created' => '2024-01-02 03:04:05'], ['active' => ParameterType::BOOLEAN]);
        $c->insert('doctrine_items', ['name' => 'b', 'price' => null, 'active' => false, 'data' => "\x00\x01"], ['active' => ParameterType::BOOLEAN, 'data' => ParameterType::BINARY]);
        $seen['lastInsertId'] = $c->lastInsertId();
        $seen['rows'] = $c->fetchAllAssociative('SELECT id, name, price, active, created FROM doctrine_items ORDER BY id');
        $seen['one'] = $c->fetchOne('SELECT name FROM doctrine_items WHERE id = ?', [2]);
        $seen['binary'] = stream_get_contents($c->fetchOne('SELECT data FROM doctrine_items WHERE id = 2'));
        $qb = $c->createQueryBuilder()->select('name')->from('doctrine_items')->where('price IS NULL OR price > :p')->setParameter('p', 1);
        $seen['builder'] = $qb->executeQuery()->fetchFirstColumn();
        $seen['update'] = $c->update('doctrine_items', ['price' => '9.99'], ['name' => 'b']);
        $c->beginTransaction();
        $c->insert('doctrine_items', ['name' => 'c']);
        $c->rollBack();
        $c->transactional(static fn (Connection $c) => $c->insert('doctrine_items', ['name' => 'd']));
        $seen['after transactions'] = $c->fetchFirstColumn('SELECT name FROM doctrine_items ORDER BY id');
        foreach ([
            'unique' => static fn () => $c->insert('doctrine_items', ['name' => 'a']),
            'missing table' => static fn () => $c->fetchOne('SELECT * FROM doctrine_nope'),
            'syntax' => static fn () => $c->executeStatement('SELEC 1'),
        ] as $label => $failing) {
            try {
                $failing();
                $seen[$label] = 'no error';
            } catch (\Throwable $e) {
                $seen[$label] = [$e::class, $e->getMessage()];
            }
        }

        return $seen;
    }

    public function testSameAsDbalsOwnPdoPgsqlDriver(): void
    {
        $native = self::scenario($this->dbal(native: true));
        $spindle = self::scenario($this->dbal());
        self::assertSame(UniqueConstraintViolationException::class, $spindle['unique'][0]);
        self::assertSame(TableNotFoundException::class, $spindle['missing table'][0]);
        self::assertSame(SyntaxErrorException::class, $spindle['syntax'][0]);
        self::assertSame(['a', 'b', 'd'], $spindle['after transactions']);
        self::assertSame($native, $spindle);
    }

    public function testSchemaManager(): void
    {
        $c = $this->dbal();
        $c->executeStatement('DROP TABLE IF EXISTS doctrine_pg_schema');
        try {
            $c->executeStatement('CREATE TABLE doctrine_pg_schema (id bigserial PRIMARY KEY, title varchar(80) NOT NULL, body text, score numeric(6,2) DEFAULT 0)');
            $table = $c->createSchemaManager()->introspectTable('doctrine_pg_schema');
            self::assertSame(['id', 'title', 'body', 'score'], array_map(static fn ($column): string => $column->getName(), array_values($table->getColumns())));
            self::assertSame(80, $table->getColumn('title')->getLength());
            self::assertTrue($table->getColumn('title')->getNotnull());
            self::assertContains('doctrine_pg_schema', $c->createSchemaManager()->listTableNames());
        } finally {
            $c->executeStatement('DROP TABLE IF EXISTS doctrine_pg_schema');
        }
    }

    public function testQueriesInFibersWaitTogether(): void
    {
        $connections = [$this->dbal(), $this->dbal(), $this->dbal(), $this->dbal()];
        $done = 0;
        $started = hrtime(true);
        foreach ($connections as $connection) {
            EventLoop::queue(static function () use ($connection, &$done): void {
                $connection->fetchOne('SELECT pg_sleep(1)');
                ++$done;
            });
        }
        EventLoop::run();
        self::assertSame(4, $done);
        self::assertLessThan(3.5, (hrtime(true) - $started) / 1e9, 'four one-second sleeps overlapped');
    }
}
