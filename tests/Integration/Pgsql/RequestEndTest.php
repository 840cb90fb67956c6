<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\Pgsql;

use Revolt\EventLoop;
use Spindle\Database\Pdo;
use Spindle\Database\Pgsql\Connection;
use Spindle\Loop\Context;
use Spindle\Loop\Loop;
use Spindle\Loop\TaskCancelled;
use Spindle\Loop\TaskRunner;

use function Spindle\delay;

/**
 * A request that ends (cancelled, timed out) while its query still runs: the server is asked to
 * cancel the query (CancelRequest) and the session is dropped, so that neither the query nor its
 * late answer outlives the request. And a pooled connection handed to Pdo::fromConnection().
 */
final class RequestEndTest extends PgsqlTestCase
{
    /**
     * In a process of its own: the tasks' context driver must be installed before any loop ran.
     *
     * @runInSeparateProcess
     *
     * @preserveGlobalState disabled
     */
    public function testACancelledRequestCancelsItsQueryAndDropsTheSession(): void
    {
        // The context driver first: it cannot be installed while a loop runs.
        $runner = new TaskRunner(Loop::driver());
        $victim = $this->connect();
        $observer = $this->connect();
        $pid = $victim->processId();
        $context = new Context('GET /slow');
        $seen = null;
        $runner->run($context, static function () use ($victim, &$seen): void {
            try {
                $victim->query('SELECT pg_sleep(60)');
                $seen = 'finished';
            } catch (\RuntimeException $e) {
                $seen = $e->getMessage();
            }
        });
        $cancelled = null;
        $stillRunning = null;
        EventLoop::queue(static function () use ($observer, $pid, $runner, $context, &$cancelled, &$stillRunning): void {
            // The query is running in the server before the request ends.
            self::assertTrue(self::waitFor($observer, $pid, true), 'the query started');
            $cancelled = $runner->cancel($context, new TaskCancelled('request ended'));
            // The server stops it long before its 60 s.
            $stillRunning = !self::waitFor($observer, $pid, false);
        });
        EventLoop::run();

        self::assertTrue($cancelled);
        self::assertSame('request ended', $seen);
        self::assertTrue($victim->isBroken(), 'a session whose answer is still due is dropped');
        self::assertFalse($stillRunning, 'the server cancelled the query');
        self::assertSame([['1']], $observer->query('SELECT 1')[0]->rows, 'the other session is untouched');
    }

    public function testPdoFromAPgsqlConnectionHasPdoPgsqlBehaviour(): void
    {
        $pdo = Pdo::fromConnection(Connection::connect(self::config()), [\PDO::ATTR_ERRMODE => \PDO::ERRMODE_EXCEPTION]);
        self::assertSame('pgsql', $pdo->getAttribute(\PDO::ATTR_DRIVER_NAME));
        self::assertFalse($pdo->getAttribute(\PDO::ATTR_EMULATE_PREPARES));
        $statement = $pdo->prepare('SELECT ?::int AS n, true AS b, ?::text AS t');
        $statement->execute([41, 'x']);
        self::assertSame(['n' => 41, 'b' => true, 't' => 'x'], $statement->fetch(\PDO::FETCH_ASSOC));
        try {
            $pdo->query('SELECT * FROM no_such_table_here');
            self::fail('expected PDOException');
        } catch (\PDOException $e) {
            self::assertSame('42P01', $e->getCode());
            self::assertStringStartsWith('SQLSTATE[42P01]: Undefined table: 7 ERROR:  relation "no_such_table_here" does not exist', $e->getMessage());
        }
    }

    /** Polls pg_stat_activity until the backend $pid runs pg_sleep ($running) or no longer does; false after 15 s. */
    private static function waitFor(Connection $observer, int $pid, bool $running): bool
    {
        $deadline = hrtime(true) + 15_000_000_000;
        do {
            $rows = $observer->query("SELECT count(*) FROM pg_stat_activity WHERE pid = $pid AND state = 'active' AND query LIKE 'SELECT pg_sleep%'")[0]->rows;
            if (($rows[0][0] ?? '0') === ($running ? '1' : '0')) {
                return true;
            }
            delay(0.05);
        } while (hrtime(true) < $deadline);

        return false;
    }
}
