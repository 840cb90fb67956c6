<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\Pgsql;

use Spindle\Database\Mysql\StatementCacheStats;
use Spindle\Database\Pdo;
use Spindle\Database\Pdo\PgsqlSession;
use Spindle\Database\Pgsql\Connection;

/**
 * A pooled PostgreSQL session keeps its server-side statements by text (PgsqlSession::
 * keepStatements()): a statement prepared again is one Bind and Execute. When another session
 * changes a table a kept statement reads, the app sees what native pdo_pgsql (which parses every
 * new PDOStatement) shows: the new columns, never "cached plan must not change result type",
 * outside a transaction block and inside one. The reset between requests leaves the kept
 * statements alone and deallocates those prepared in SQL.
 */
final class StatementCacheTest extends PgsqlTestCase
{
    public function testKeptStatementsFollowATableChangedByAnotherSessionAsNativeDoes(): void
    {
        $stats = new StatementCacheStats();
        $session = new PgsqlSession(Connection::connect(self::config()));
        $session->keepStatements(4, $stats);
        $spindle = Pdo::fromConnection($session, [\PDO::ATTR_ERRMODE => \PDO::ERRMODE_EXCEPTION]);
        $env = self::env();
        $native = new \PDO(self::dsn(), $env['PGSQL_USER'], $env['PGSQL_PASSWORD'], [\PDO::ATTR_ERRMODE => \PDO::ERRMODE_EXCEPTION]);
        $other = $this->connect();
        $other->query('DROP TABLE IF EXISTS kept_statement_probe');
        $other->query('CREATE TABLE kept_statement_probe (a int)');
        $other->query('INSERT INTO kept_statement_probe VALUES (1)');

        $select = static function (\PDO $pdo): mixed {
            $statement = $pdo->prepare('SELECT * FROM kept_statement_probe WHERE a = ?');
            self::assertInstanceOf(\PDOStatement::class, $statement);
            $statement->execute([1]);

            return $statement->fetchAll(\PDO::FETCH_ASSOC);
        };
        foreach ([$native, $spindle] as $pdo) {
            self::assertSame([['a' => 1]], $select($pdo));
            self::assertSame([['a' => 1]], $select($pdo));
        }
        self::assertSame(1, $stats->hits, 'the second prepare of the text used the kept statement');
        self::assertSame(1, $session->keptStatements());

        // Outside a transaction block: the server refuses the kept plan, the statement is parsed again.
        $other->query('ALTER TABLE kept_statement_probe ADD COLUMN b text DEFAULT \'x\'');
        self::assertSame([['a' => 1, 'b' => 'x']], $select($native));
        self::assertSame([['a' => 1, 'b' => 'x']], $select($spindle));
        self::assertSame([['a' => 1, 'b' => 'x']], $select($spindle));

        // Inside one: the kept statement is not used, the transaction goes on as natively.
        $other->query('ALTER TABLE kept_statement_probe ADD COLUMN c int DEFAULT 7');
        foreach ([$native, $spindle] as $pdo) {
            $pdo->beginTransaction();
            self::assertSame([['a' => 1, 'b' => 'x', 'c' => 7]], $select($pdo));
            self::assertSame([['a' => 1]], self::statement($pdo->query('SELECT a FROM kept_statement_probe'))->fetchAll(\PDO::FETCH_ASSOC));
            $pdo->commit();
        }

        // The reset keeps them, and deallocates what was prepared in SQL.
        $spindle->exec('PREPARE sql_level AS SELECT 1');
        $spindle->exec("SET statement_timeout = '999'");
        $hits = $stats->hits;
        $session->resetSession();
        self::assertSame('0', self::statement($spindle->query('SELECT (SELECT count(*) FROM pg_prepared_statements WHERE from_sql)::text'))->fetchColumn());
        self::assertSame('0', self::statement($spindle->query("SELECT current_setting('statement_timeout')"))->fetchColumn());
        self::assertSame([['a' => 1, 'b' => 'x', 'c' => 7]], $select($spindle));
        self::assertSame($hits + 1, $stats->hits, 'the kept statement outlived the reset');
        $other->query('DROP TABLE kept_statement_probe');
    }

    public function testTheCacheKeepsAtMostItsCapacityAndClosesWhatItDrops(): void
    {
        $stats = new StatementCacheStats();
        $session = new PgsqlSession(Connection::connect(self::config()));
        $session->keepStatements(2, $stats);
        $pdo = Pdo::fromConnection($session, [\PDO::ATTR_ERRMODE => \PDO::ERRMODE_EXCEPTION]);
        foreach ([1, 2, 3, 1] as $n) {
            $statement = $pdo->prepare("SELECT $n + ?::int");
            self::assertInstanceOf(\PDOStatement::class, $statement);
            $statement->execute([1]);
            self::assertSame($n + 1, $statement->fetchColumn());
        }
        self::assertSame(2, $session->keptStatements());
        self::assertSame(2, $stats->evictions);
        self::assertSame(0, $stats->hits);
        // Counted over the simple protocol, which prepares nothing itself.
        self::assertSame([[2]], $session->query('SELECT count(*)::int FROM pg_prepared_statements')[0]->rows, 'the dropped statements were closed on the server');
    }

    private static function statement(\PDOStatement|false $statement): \PDOStatement
    {
        self::assertInstanceOf(\PDOStatement::class, $statement);

        return $statement;
    }
}
