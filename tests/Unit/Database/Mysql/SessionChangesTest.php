<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Database\Mysql;

use PHPUnit\Framework\TestCase;
use Spindle\Database\Mysql\SessionChanges;

/**
 * What SessionChanges reads from a statement's text: reads that change nothing, and everything
 * that may (tests/Integration/Mysql/SessionChangesTest.php runs them against the server).
 */
final class SessionChangesTest extends TestCase
{
    /** @return iterable<string, array{string}> */
    public static function unchanged(): iterable
    {
        yield 'Eloquent find' => ['select * from `users` where `users`.`id` = ? limit 1'];
        yield 'a count' => ['select count(*) as aggregate from `posts` where `user_id` in (?, ?, ?)'];
        yield 'exists' => ['select exists(select * from `users` where `email` = ?) as `exists`'];
        yield 'system variables' => ['SELECT @@session.sql_mode, @@time_zone, @@GLOBAL.max_connections'];
        yield 'functions and casts' => ["SELECT COALESCE(MAX(v), 0), CAST(v AS DECIMAL(10, 2)), DATE_FORMAT(NOW(), '%Y') FROM t"];
        yield 'a string that looks like a call' => ["SELECT 'GET_LOCK(1); SET @a = 1' AS s"];
        yield 'a doubled quote' => ["SELECT 'it''s', \"say \"\"GET_LOCK(\"\"\" FROM t"];
        yield 'a quoted name that is no call' => ['SELECT `get_lock` FROM `t` WHERE `t`.`id` = 1'];
        yield 'a # inside a string' => ["SELECT * FROM t WHERE tag = '#1' AND `a#b` = 2"];
        yield 'comments' => ["/* route */ SELECT 1 -- GET_LOCK('x', 0)\n # SET @a = 1\n"];
        yield 'a trailing semicolon' => ['SELECT 1;  '];
        yield 'parenthesized union' => ['(SELECT 1) UNION ALL (SELECT 2)'];
        yield 'SHOW' => ["SHOW SESSION STATUS LIKE 'Com_stmt_prepare'"];
        yield 'DESCRIBE' => ['DESCRIBE `users`'];
        yield 'locking read' => ['SELECT * FROM t WHERE id = 1 FOR UPDATE'];
        yield 'window function' => ['SELECT ROW_NUMBER() OVER (PARTITION BY a ORDER BY b) FROM t'];
        yield 'LAST_INSERT_ID() read' => ['SELECT LAST_INSERT_ID ( )'];
        yield 'START TRANSACTION' => ['START TRANSACTION READ ONLY'];
        yield 'BEGIN' => ['BEGIN'];
        yield 'COMMIT' => ['commit'];
        yield 'ROLLBACK' => ['ROLLBACK'];
        yield 'SAVEPOINT' => ['SAVEPOINT trans2'];
        yield 'RELEASE SAVEPOINT' => ['RELEASE SAVEPOINT trans2'];
        yield 'ROLLBACK TO SAVEPOINT' => ['ROLLBACK TO SAVEPOINT trans2'];
    }

    /** @dataProvider unchanged */
    public function testReadsChangeNothing(string $sql): void
    {
        self::assertFalse(SessionChanges::mayChange($sql), $sql);
    }

    /** @return iterable<string, array{string}> */
    public static function changes(): iterable
    {
        yield 'SET' => ['SET @a = 1'];
        yield 'SET NAMES' => ['set names latin1'];
        yield 'SET TRANSACTION' => ['SET TRANSACTION ISOLATION LEVEL SERIALIZABLE'];
        yield 'USE' => ['USE information_schema'];
        yield 'a user variable read' => ['SELECT @a'];
        yield 'a user variable assigned' => ['SELECT @a := 1'];
        yield 'a quoted user variable' => ['SELECT @`a` := 1'];
        yield 'INTO a variable' => ['SELECT 1 INTO @a'];
        yield 'INTO OUTFILE' => ["SELECT 1 INTO OUTFILE '/tmp/x'"];
        yield 'GET_LOCK' => ["SELECT GET_LOCK('x', 0)"];
        yield 'get_lock with a space' => ["select get_lock ('x', 0)"];
        yield 'RELEASE_ALL_LOCKS' => ['SELECT RELEASE_ALL_LOCKS()'];
        yield 'LAST_INSERT_ID(expr)' => ['SELECT LAST_INSERT_ID(7)'];
        yield 'NEXTVAL' => ['SELECT NEXTVAL(s)'];
        yield 'NEXT VALUE FOR' => ['SELECT NEXT VALUE FOR s'];
        yield 'PREVIOUS VALUE FOR' => ['SELECT PREVIOUS VALUE FOR s'];
        yield 'SETVAL' => ['SELECT SETVAL(s, 10)'];
        yield 'a stored function' => ['SELECT my_function(1)'];
        yield 'a qualified function' => ['SELECT db.count(1)'];
        yield 'a quoted function' => ['SELECT `count`(1)'];
        yield 'a function in a subquery' => ['SELECT * FROM t WHERE id IN (SELECT f(id) FROM u)'];
        yield 'an executable comment' => ['SELECT 1 /*! , GET_LOCK(1, 0) */'];
        yield 'a MariaDB executable comment' => ['SELECT 1 /*M! , GET_LOCK(1, 0) */'];
        yield 'an unterminated comment' => ['SELECT 1 /* GET_LOCK(1, 0)'];
        yield 'a second statement' => ['SELECT 1; SET @a = 1'];
        yield 'a backslash in a string' => ["SELECT 'a\\', GET_LOCK('x', 0), '' FROM t"];
        yield 'an unterminated string' => ["SELECT 'abc"];
        yield 'a # inside a quoted name' => ["SELECT `a#b`, GET_LOCK('x', 0) FROM t"];
        yield 'a -- inside a string' => ["SELECT '-- ', GET_LOCK('x', 0) FROM t"];
        yield 'a quoted name called under ANSI_QUOTES' => ['SELECT "my_function"(1)'];
        yield 'INSERT' => ['insert into `users` (`name`) values (?)'];
        yield 'UPDATE' => ['update `users` set `name` = ? where `id` = ?'];
        yield 'DELETE' => ['delete from `users` where `id` = ?'];
        yield 'REPLACE' => ['REPLACE INTO t VALUES (1)'];
        yield 'CREATE TEMPORARY TABLE' => ['CREATE TEMPORARY TABLE t (id INT)'];
        yield 'LOCK TABLES' => ['LOCK TABLES t READ'];
        yield 'HANDLER' => ['HANDLER t OPEN'];
        yield 'CALL' => ['CALL p()'];
        yield 'DO' => ["DO GET_LOCK('x', 0)"];
        yield 'XA' => ["XA START 'x'"];
        yield 'PREPARE' => ["PREPARE s FROM 'SELECT 1'"];
        yield 'WITH' => ['WITH c AS (SELECT 1) SELECT * FROM c'];
        yield 'EXPLAIN' => ['EXPLAIN SELECT 1'];
        yield 'START without TRANSACTION' => ['START SLAVE'];
        yield 'RELEASE without SAVEPOINT' => ['RELEASE x'];
        yield 'nothing but punctuation' => ['+1'];
    }

    /** @dataProvider changes */
    public function testWhatMayChangeTheSessionIsSeen(string $sql): void
    {
        self::assertTrue(SessionChanges::mayChange($sql), $sql);
        // The memo answers the same.
        self::assertTrue(SessionChanges::mayChange($sql), $sql);
    }

    public function testAnEmptyStatementCountsAsAChange(): void
    {
        // The server answers it with an error, which stays in the session's diagnostics.
        self::assertTrue(SessionChanges::mayChange(" /* nothing */ \n"));
    }
}
