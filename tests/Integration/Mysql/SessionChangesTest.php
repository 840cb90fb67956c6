<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\Mysql;

use Spindle\Database\Mysql\SocketConnection;

/**
 * A tracked session (SocketConnection::trackSessionChanges()) tells whether what ran since its
 * last reset may have left it unlike a new one, against the real server: every kind of session
 * state below is seen as a change (by the server's tracker, the status flags, the OK packets or
 * the statement's text), and only plain reads are not. A session left unchanged keeps its
 * prepared statements when given back; a changed one is reset.
 */
final class SessionChangesTest extends MysqlTestCase
{
    /** @return iterable<string, array{list<string>, list<string>}> setup (untracked, then forgotten), the statements of the change */
    public static function changes(): iterable
    {
        yield 'a user variable (SET)' => [[], ['SET @leak = 42']];
        yield 'a user variable assigned in a SELECT' => [[], ['SELECT @leak := 42']];
        yield 'a user variable by SELECT INTO' => [[], ['SELECT 42 INTO @leak']];
        yield 'sql_mode' => [[], ["SET SESSION sql_mode = 'ANSI_QUOTES'"]];
        yield 'time_zone' => [[], ["SET time_zone = '+05:00'"]];
        yield 'the character set' => [[], ['SET NAMES latin1']];
        yield 'autocommit off' => [[], ['SET autocommit = 0']];
        yield 'the next transaction\'s isolation' => [[], ['SET TRANSACTION ISOLATION LEVEL SERIALIZABLE']];
        yield 'a temporary table' => [[], ['CREATE TEMPORARY TABLE session_changes_tmp (id INT)']];
        yield 'a named lock' => [[], ["SELECT GET_LOCK('session_changes_lock', 0)"]];
        yield 'a named lock by DO' => [[], ["DO GET_LOCK('session_changes_lock', 0)"]];
        yield 'LAST_INSERT_ID(expr)' => [[], ['SELECT LAST_INSERT_ID(7)']];
        yield 'an insert id' => [['CREATE TABLE IF NOT EXISTS session_changes_t (id INT AUTO_INCREMENT PRIMARY KEY, v INT)'], ['INSERT INTO session_changes_t (v) VALUES (1)']];
        yield 'an update (a trigger may lock)' => [['CREATE TABLE IF NOT EXISTS session_changes_t (id INT AUTO_INCREMENT PRIMARY KEY, v INT)'], ['UPDATE session_changes_t SET v = v + 1 WHERE id = 0']];
        yield 'the default database' => [[], ['USE information_schema']];
        yield 'a transaction left open' => [[], ['START TRANSACTION', 'SELECT 1']];
        yield 'an XA transaction' => [[], ["XA START 'session_changes_xa'"]];
        yield 'LOCK TABLES' => [['CREATE TABLE IF NOT EXISTS session_changes_t (id INT AUTO_INCREMENT PRIMARY KEY, v INT)'], ['LOCK TABLES session_changes_t READ']];
        yield 'an open HANDLER' => [['CREATE TABLE IF NOT EXISTS session_changes_t (id INT AUTO_INCREMENT PRIMARY KEY, v INT)'], ['HANDLER session_changes_t OPEN']];
        yield 'a sequence advanced' => [['CREATE SEQUENCE IF NOT EXISTS session_changes_seq'], ['SELECT NEXTVAL(session_changes_seq)']];
        yield 'a sequence by NEXT VALUE FOR' => [['CREATE SEQUENCE IF NOT EXISTS session_changes_seq'], ['SELECT NEXT VALUE FOR session_changes_seq']];
        yield 'an SQL prepared statement' => [[], ["PREPARE session_changes_stmt FROM 'SELECT 1'"]];
        yield 'a warning' => [[], ["SELECT CAST('x' AS SIGNED)"]];
        yield 'an error' => [[], ['SELECT * FROM session_changes_absent']];
        yield 'an executable comment' => [[], ['SELECT 1 /*! , GET_LOCK(\'session_changes_lock\', 0) */']];
        yield 'a second statement' => [[], ['SELECT 1; SET @leak = 42']];
    }

    /**
     * @dataProvider changes
     *
     * @param list<string> $setup
     * @param list<string> $statements
     */
    public function testAChangeIsSeenAndTheSessionIsResetAsANewOne(array $setup, array $statements): void
    {
        $connection = $this->tracked();
        foreach ($setup as $sql) {
            $connection->query($sql);
        }
        $connection->resetSession();
        self::assertFalse($connection->sessionChanged());
        foreach ($statements as $sql) {
            try {
                $connection->query($sql);
            } catch (\Spindle\Database\Mysql\MysqlException) {
                // the error itself is the change
            }
        }
        self::assertTrue($connection->sessionChanged(), 'seen as a change');
        self::assertTrue($connection->resetSessionIfChanged(), 'reset');
        self::assertFalse($connection->sessionChanged());
        $state = $connection->query("SELECT @leak, IS_USED_LOCK('session_changes_lock') IS NULL, LAST_INSERT_ID(), DATABASE(), @@session.in_transaction, @@session.autocommit, @@session.character_set_client")[0]->rows[0];
        self::assertSame([null, 1, 0, self::env()['MYSQL_DATABASE'], 0, 1, 'utf8mb4'], $state);
    }

    /** @return iterable<string, array{string}> */
    public static function reads(): iterable
    {
        yield 'a point select' => ['SELECT id, v FROM session_changes_t WHERE id = 1 LIMIT 1'];
        yield 'a count' => ['SELECT COUNT(*) AS aggregate FROM `session_changes_t` WHERE `v` IN (1, 2, 3)'];
        yield 'system variables read' => ['SELECT @@session.sql_mode, @@time_zone, CONNECTION_ID(), DATABASE()'];
        yield 'a subquery and functions' => ["SELECT EXISTS(SELECT * FROM session_changes_t WHERE v > 0) AS `exists`, COALESCE(MAX(v), 0), DATE_FORMAT(NOW(), '%Y') FROM session_changes_t"];
        yield 'SHOW' => ["SHOW SESSION STATUS LIKE 'Com_stmt_prepare'"];
        yield 'a committed read transaction' => ['START TRANSACTION', 'SELECT v FROM session_changes_t FOR UPDATE', 'COMMIT'];
        yield 'a comment' => ['/* route users */ SELECT 1'];
    }

    /** @dataProvider reads */
    public function testAReadLeavesTheSessionUnchangedAndItKeepsItsStatements(string ...$statements): void
    {
        $connection = $this->tracked();
        $connection->query('CREATE TABLE IF NOT EXISTS session_changes_t (id INT AUTO_INCREMENT PRIMARY KEY, v INT)');
        $connection->resetSession();
        $kept = $connection->prepare('SELECT v FROM session_changes_t WHERE id = ?');
        $connection->execute($kept, [1]);
        $connection->closeStatement($kept);
        foreach ($statements as $sql) {
            $connection->query($sql);
        }
        self::assertFalse($connection->sessionChanged(), 'a read changes nothing');
        $prepares = self::prepares($connection);
        self::assertFalse($connection->resetSessionIfChanged(), 'not reset');
        // The statement is still prepared on the server: no new COM_STMT_PREPARE.
        $again = $connection->prepare('SELECT v FROM session_changes_t WHERE id = ?');
        self::assertSame($kept->id, $again->id);
        $connection->execute($again, [1]);
        self::assertSame($prepares, self::prepares($connection));
    }

    public function testAStoredFunctionIsAChangeAndTheTrackerSeesWhatItSets(): void
    {
        $admin = $this->connect();
        $admin->query('DROP FUNCTION IF EXISTS session_changes_f');
        $admin->query('CREATE FUNCTION session_changes_f() RETURNS INT DETERMINISTIC BEGIN SET @leak = 5; RETURN 1; END');
        try {
            $connection = $this->tracked();
            $connection->resetSession();
            $connection->query('SELECT session_changes_f()');
            self::assertTrue($connection->sessionChanged());
            // The server's tracker sees the variable set inside the function on its own.
            $protocol = (fn () => $this->protocol)->call($connection);
            \assert($protocol instanceof \Spindle\Database\Mysql\Protocol\ClientProtocol);
            self::assertSame(\Spindle\Database\Mysql\Protocol\ServerStatus::SESSION_STATE_CHANGED, $protocol->sessionMarks());
        } finally {
            $admin->query('DROP FUNCTION IF EXISTS session_changes_f');
        }
    }

    public function testAViewThatMayChangeASessionTurnsTrackingOff(): void
    {
        // A SELECT from this view takes a named lock that neither its text nor the tracker shows.
        $admin = $this->connect();
        $admin->query("CREATE OR REPLACE VIEW session_changes_lock_v AS SELECT GET_LOCK('session_changes_view', 0) AS l");
        try {
            self::assertFalse($this->connect()->trackSessionChanges(), 'not tracked while such a view exists');
        } finally {
            $admin->query('DROP VIEW IF EXISTS session_changes_lock_v');
        }
        $admin->query('CREATE OR REPLACE VIEW session_changes_read_v AS SELECT 1 AS one, NOW() AS at');
        try {
            self::assertTrue($this->connect()->trackSessionChanges(), 'a view that only reads leaves tracking on');
        } finally {
            $admin->query('DROP VIEW IF EXISTS session_changes_read_v');
        }
    }

    /** @return iterable<string, array{bool, bool}> whether the session is kept (else reset), whether its next holder prepares */
    public static function handOvers(): iterable
    {
        yield 'kept, a query' => [true, false];
        yield 'kept, a prepared statement' => [true, true];
        yield 'reset, a query' => [false, false];
        yield 'reset, a prepared statement' => [false, true];
    }

    /**
     * FOUND_ROWS() and ROW_COUNT() answer for a session's previous statement, and neither
     * COM_RESET_CONNECTION nor the setup after it changes them: the next holder's first statement
     * still finds them as on a new session (0, 0), and a kept session stays kept.
     *
     * @dataProvider handOvers
     */
    public function testTheLastHoldersRowCountsDoNotReachTheNext(bool $kept, bool $prepared): void
    {
        $fresh = $this->tracked()->query('SELECT FOUND_ROWS(), ROW_COUNT()')[0]->rows[0];
        self::assertSame([0, 0], $fresh, 'a new session');

        $connection = $this->tracked();
        $connection->query('CREATE TABLE IF NOT EXISTS session_changes_rows (id INT PRIMARY KEY)');
        $connection->query('INSERT IGNORE INTO session_changes_rows VALUES (1), (2), (3), (4), (5), (6), (7)');
        $connection->resetSession();
        $connection->query('SELECT id FROM session_changes_rows');
        self::assertSame([[7]], $connection->query('SELECT FOUND_ROWS()')[0]->rows, 'the holder sees its own count');
        $connection->query('SELECT id FROM session_changes_rows');
        if ($kept) {
            self::assertFalse($connection->resetSessionIfChanged(), 'kept');
        } else {
            $connection->resetSession();
        }
        $connection->query('SELECT id FROM session_changes_rows');
        $kept ? self::assertFalse($connection->resetSessionIfChanged()) : $connection->resetSession();

        if ($prepared) {
            $statement = $connection->prepare('SELECT FOUND_ROWS(), ROW_COUNT(), ?');
            $row = $connection->execute($statement, [1])[0]->rows[0];
            self::assertSame([0, 0, 1], $row);
        } else {
            self::assertSame($fresh, $connection->query('SELECT FOUND_ROWS(), ROW_COUNT()')[0]->rows[0]);
        }
        self::assertFalse($connection->sessionChanged(), 'still as handed over');
    }

    /** Only the first statement of a holder is looked at: its own SQL_CALC_FOUND_ROWS answers its FOUND_ROWS(). */
    public function testAHoldersOwnCountIsItsOwn(): void
    {
        $connection = $this->tracked();
        $connection->query('CREATE TABLE IF NOT EXISTS session_changes_rows (id INT PRIMARY KEY)');
        $connection->query('INSERT IGNORE INTO session_changes_rows VALUES (1), (2), (3), (4), (5), (6), (7)');
        $connection->resetSession();
        $connection->query('SELECT SQL_CALC_FOUND_ROWS id FROM session_changes_rows LIMIT 2');
        self::assertSame([[7]], $connection->query('SELECT FOUND_ROWS()')[0]->rows);
    }

    public function testAnUntrackedSessionIsAlwaysReset(): void
    {
        $connection = $this->connect();
        self::assertTrue($connection->sessionChanged());
        self::assertTrue($connection->resetSessionIfChanged());
    }

    private function tracked(): SocketConnection
    {
        $connection = $this->connect();
        $connection->keepStatements(8, new \Spindle\Database\Mysql\StatementCacheStats());
        self::assertTrue($connection->trackSessionChanges());

        return $connection;
    }

    private static function prepares(SocketConnection $connection): int
    {
        return (int) $connection->query("SHOW SESSION STATUS LIKE 'Com_stmt_prepare'")[0]->rows[0][1];
    }
}
