<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\Pgsql;

use Revolt\EventLoop;
use Spindle\Bridge\SessionPools;
use Spindle\Database\Pdo;
use Spindle\Database\Pdo\PgsqlSession;
use Spindle\Database\Pgsql\Connection;
use Spindle\Loop\Context;
use Spindle\Loop\Loop;
use Spindle\Loop\TaskRunner;

/**
 * Two Pdos (two app instances of one worker) over a pool of one PostgreSQL session, as a Laravel
 * `pgsql` connection runs under `spindle serve`: requests one after the other share the session
 * (a request holds it from its first query to its end), a statement prepared in one request runs
 * in the next (its "??" operator intact), each Pdo keeps its own last error, nothing of one
 * request (a LISTEN with a notification received, a session variable, a temporary table filled
 * by COPY, a transaction) reaches the next, and requests at once wait their turn for the one
 * session.
 */
final class PooledSessionsTest extends PgsqlTestCase
{
    /**
     * In a process of its own: the tasks' context driver must be installed before any loop ran.
     *
     * @runInSeparateProcess
     *
     * @preserveGlobalState disabled
     */
    public function testRequestsShareOneSessionOneAfterTheOtherAndLeaveNothingBehind(): void
    {
        $runner = new TaskRunner(Loop::driver());
        $pools = new SessionPools(size: 1);
        $opened = 0;
        $open = static function () use (&$opened): PgsqlSession {
            ++$opened;
            $session = new PgsqlSession(Connection::connect(self::config()));
            $session->rememberSetup(["SET application_name = 'pooled'"]);
            $session->query("SET application_name = 'pooled'");

            return $session;
        };
        $pdo = static fn (): Pdo => new Pdo(self::dsn(), 'unused', 'unused', [
            \PDO::ATTR_ERRMODE => \PDO::ERRMODE_EXCEPTION,
            Pdo::ATTR_CONNECTOR => static fn (): Pdo\PgsqlLink => $pools->pgsqlConnection('key', 'pgsql', null, $open),
        ]);
        $first = $pdo();
        $second = $pdo();
        $seen = [];

        $statement = null;
        $runner->run(new Context('GET /first'), static function () use ($first, &$statement, &$seen): void {
            $statement = $first->prepare('SELECT \'{"a":1}\'::jsonb ?? \'a\' AS has, ?::int + 1 AS n');
            \assert($statement instanceof \PDOStatement);
            $statement->execute([41]);
            $seen['first'] = $statement->fetch(\PDO::FETCH_ASSOC);
            $seen['first pid'] = $first->pgsqlGetPid();
            try {
                $first->query('SELECT * FROM no_such_table_here');
            } catch (\PDOException $e) {
                $seen['error'] = $e->getCode();
                $seen['first errorInfo'] = $first->errorInfo();
            }
            $first->exec('CREATE TEMPORARY TABLE pooled_copy (n int)');
            $seen['copied'] = $first->pgsqlCopyFromArray('pooled_copy', ["1", "2"]);
            $seen['copied out'] = $first->pgsqlCopyToArray('pooled_copy');
            $first->exec('LISTEN pooled_channel');
            $first->exec("NOTIFY pooled_channel, 'left'");
            $first->exec("SET statement_timeout = '4321'");
            $first->exec('BEGIN');
        });
        EventLoop::run();

        $runner->run(new Context('GET /second'), static function () use ($first, $second, $statement, &$seen): void {
            \assert($statement instanceof \PDOStatement);
            $seen['again pid'] = $first->pgsqlGetPid();
            $seen['second errorInfo'] = $second->errorInfo();
            $statement->execute([1]);
            $seen['again'] = $statement->fetch(\PDO::FETCH_ASSOC);
            $seen['state'] = self::statement($first->query("SELECT current_setting('statement_timeout') AS t, current_setting('application_name') AS a,
                (SELECT count(*) FROM pg_listening_channels()) AS l, to_regclass('pg_temp.pooled_copy')::text AS c"))->fetch(\PDO::FETCH_ASSOC);
            $seen['notify'] = $first->pgsqlGetNotify(\PDO::FETCH_ASSOC, 0);
            $seen['in transaction'] = $first->inTransaction();
        });
        EventLoop::run();

        self::assertSame(['has' => true, 'n' => 42], $seen['first']);
        self::assertSame('42P01', $seen['error']);
        self::assertSame($seen['first pid'], $seen['again pid'], 'the next request got the same session');
        self::assertSame(['', null, null], $seen['second errorInfo'], 'the other Pdo keeps its own last error');
        $errorInfo = $seen['first errorInfo'];
        self::assertIsArray($errorInfo);
        self::assertSame(['42P01', 7], \array_slice($errorInfo, 0, 2));
        self::assertSame(['has' => true, 'n' => 2], $seen['again'], 'a statement of the first request runs in the second');
        self::assertTrue($seen['copied']);
        self::assertSame(["1\n", "2\n"], $seen['copied out']);
        self::assertSame(['t' => '0', 'a' => 'pooled', 'l' => 0, 'c' => null], $seen['state']);
        self::assertFalse($seen['notify'], 'the notification the first request received');
        self::assertFalse($seen['in transaction']);
        self::assertSame(1, $opened);

        // Three requests at once on the one session: each waits its turn.
        $order = [];
        foreach (['a', 'b', 'c'] as $name) {
            $runner->run(new Context('GET /' . $name), static function () use ($first, $name, &$order): void {
                $order[] = $name . ' ' . self::statement($first->query('SELECT pg_backend_pid(), pg_sleep(0.05)'))->fetchColumn();
                $order[] = $name . ' done';
            });
        }
        EventLoop::run();
        $pid = $seen['first pid'];
        self::assertIsInt($pid);
        self::assertSame(["a $pid", 'a done', "b $pid", 'b done', "c $pid", 'c done'], $order);
        self::assertSame(1, $opened);
        self::assertSame(1, $pools->stats()['pgsql']->maxSize);
        self::assertGreaterThanOrEqual(2, $pools->stats()['pgsql']->waits);
    }

    private static function statement(\PDOStatement|false $statement): \PDOStatement
    {
        self::assertInstanceOf(\PDOStatement::class, $statement);

        return $statement;
    }
}
