<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\Mysql;

use Spindle\Database\Mysql\Blob;

/** Multiple result sets, server errors, big values and LOCAL INFILE against MariaDB. */
final class StatementsTest extends MysqlTestCase
{
    public function testStoredProcedureWithSeveralResultSets(): void
    {
        $c = $this->connect();
        $c->query('DROP PROCEDURE IF EXISTS spindle_two_sets');
        $c->query("CREATE PROCEDURE spindle_two_sets(IN n INT)
            BEGIN
                SELECT n AS first, 'a' AS letter;
                SELECT n * 2 AS second UNION ALL SELECT n * 3;
            END");
        foreach (['text' => fn () => $c->query('CALL spindle_two_sets(7)'), 'binary' => fn () => $c->execute($c->prepare('CALL spindle_two_sets(?)'), [7])] as $protocol => $call) {
            $results = $call();
            self::assertCount(3, $results, $protocol);
            self::assertSame('first', $results[0]->columns[0]->name);
            self::assertSame([[7, 'a']], $results[0]->rows, $protocol);
            self::assertSame([[14], [21]], $results[1]->rows, $protocol);
            self::assertSame([], $results[2]->columns, 'the CALL itself ends with an OK');
            self::assertSame(0, $c->statusFlags() & 0x0008, 'no more results');
            self::assertSame([[1]], $c->query('SELECT 1')[0]->rows, 'the connection is in sync afterwards');
        }
    }

    public function testMultiStatements(): void
    {
        $c = $this->connect();
        $results = $c->query('CREATE TEMPORARY TABLE t_multi (a INT); INSERT INTO t_multi VALUES (1), (2); SELECT a FROM t_multi ORDER BY a; SELECT COUNT(*) FROM t_multi');
        self::assertCount(4, $results);
        self::assertSame(2, $results[1]->affectedRows);
        self::assertSame([[1], [2]], $results[2]->rows);
        self::assertSame([[2]], $results[3]->rows);
    }

    public function testErrorInALaterStatementAfterEarlierResults(): void
    {
        $c = $this->connect();
        self::assertMysqlError(1146, '42S02', fn () => $c->query('SELECT 1; SELECT * FROM spindle_missing; SELECT 3'));
        self::assertSame([[2]], $c->query('SELECT 2')[0]->rows);
    }

    public function testServerErrors(): void
    {
        $c = $this->connect();
        $e = self::assertMysqlError(1064, '42000', fn () => $c->query('SELEC 1'));
        self::assertStringContainsString('You have an error in your SQL syntax', $e->getMessage());
        $e = self::assertMysqlError(1146, '42S02', fn () => $c->query('SELECT * FROM spindle_missing'));
        self::assertSame("Table 'spindle_test.spindle_missing' doesn't exist", $e->getMessage());
        self::assertMysqlError(1146, '42S02', fn () => $c->prepare('SELECT * FROM spindle_missing'));
        self::assertMysqlError(1064, '42000', fn () => $c->prepare('SELEC ?'));

        $c->query('CREATE TEMPORARY TABLE t_dup (id INT PRIMARY KEY)');
        $c->query('INSERT INTO t_dup VALUES (1)');
        $e = self::assertMysqlError(1062, '23000', fn () => $c->query('INSERT INTO t_dup VALUES (1)'));
        self::assertSame("Duplicate entry '1' for key 'PRIMARY'", $e->getMessage());
        $insert = $c->prepare('INSERT INTO t_dup VALUES (?)');
        self::assertMysqlError(1062, '23000', fn () => $c->execute($insert, [1]));
        self::assertSame(1, $c->execute($insert, [2])[0]->affectedRows);
        self::assertMysqlError(2031, 'HY000', fn () => $c->execute($insert, []));

        self::assertFalse($c->isBroken());
        self::assertSame([[2]], $c->query('SELECT COUNT(*) FROM t_dup')[0]->rows);
    }

    public function testClosedStatementIsGone(): void
    {
        $c = $this->connect();
        $s = $c->prepare('SELECT ?');
        self::assertSame([['x']], $c->execute($s, ['x'])[0]->rows);
        $c->closeStatement($s);
        self::assertMysqlError(1243, 'HY000', fn () => $c->execute($s, ['x']));
    }

    public function testSeventeenMebibyteValues(): void
    {
        $c = $this->connect();
        $size = 17 << 20;
        $c->query('CREATE TEMPORARY TABLE t_big (id INT PRIMARY KEY, v LONGBLOB)');
        $value = str_repeat('0123456789abcdef', $size >> 4);
        $value[1000] = "\0";
        $value[$size - 1] = "\xFF";

        $insert = $c->prepare('INSERT INTO t_big VALUES (?, ?)');
        self::assertSame(1, $c->execute($insert, [1, new Blob($value)])[0]->affectedRows);
        $text = $c->query('SELECT v, LENGTH(v), MD5(v) FROM t_big WHERE id = 1')[0]->rows[0];
        self::assertSame([$size, md5($value)], [$text[1], $text[2]]);
        self::assertTrue($text[0] === $value, 'text protocol returns the value unchanged');
        $binary = $c->execute($c->prepare('SELECT v FROM t_big WHERE id = ?'), [1])[0]->rows[0][0];
        self::assertTrue($binary === $value, 'binary protocol returns the value unchanged');

        // a COM_QUERY over 16 MiB
        $ascii = str_repeat('x', $size);
        $c->query("INSERT INTO t_big VALUES (2, '$ascii')");
        self::assertSame([[$size, md5($ascii)]], $c->query('SELECT LENGTH(v), MD5(v) FROM t_big WHERE id = 2')[0]->rows);
    }

    public function testLocalInfileIsRefused(): void
    {
        $file = (string) tempnam(sys_get_temp_dir(), 'spindle-infile');
        file_put_contents($file, "1\n2\n");
        try {
            $c = $this->connect();
            $c->query('CREATE TEMPORARY TABLE t_infile (a INT)');
            $e = self::assertMysqlError(4166, 'HY000', fn () => $c->query("LOAD DATA LOCAL INFILE '$file' INTO TABLE t_infile"));
            self::assertStringContainsString('local infile', $e->getMessage());
            self::assertFalse($c->isBroken());
            self::assertSame([[0]], $c->query('SELECT COUNT(*) FROM t_infile')[0]->rows);

            $allowed = $this->connect(['allowLocalInfile' => true]);
            $allowed->query('CREATE TEMPORARY TABLE t_infile (a INT)');
            self::assertSame(2, $allowed->query("LOAD DATA LOCAL INFILE '$file' INTO TABLE t_infile")[0]->affectedRows);
            self::assertSame([[1], [2]], $allowed->query('SELECT a FROM t_infile ORDER BY a')[0]->rows);
        } finally {
            unlink($file);
        }
    }
}
