<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Database\Pdo;

use Spindle\Tests\Unit\Database\FakeConnection;

final class ResultsTest extends PdoTestCase
{
    public function testRowCountAndLastInsertId(): void
    {
        $pdo = $this->pdo();
        self::assertSame('0', $pdo->lastInsertId());
        $this->connection->willReturn(FakeConnection::ok(1, 41));
        $stmt = $pdo->prepare('INSERT INTO t (a) VALUES (?)');
        $stmt->execute(['x']);
        self::assertSame(1, $stmt->rowCount());
        self::assertSame('41', $pdo->lastInsertId());
        self::assertSame('41', $pdo->lastInsertId('ignored_sequence'));
        self::assertSame(0, $stmt->columnCount());

        $this->connection->willReturn(FakeConnection::rows(['a'], [[1], [2], [3]]));
        $select = $pdo->query('SELECT a FROM t');
        self::assertSame(3, $select->rowCount(), 'a buffered result set knows its rows');
        self::assertSame(1, $select->columnCount());
        self::assertSame('0', $pdo->lastInsertId(), 'a SELECT resets it, as with mysqlnd');

        $this->connection->willReturn(FakeConnection::ok(2, '18446744073709551615'));
        self::assertSame(2, $pdo->exec('UPDATE t SET a = 1'));
        self::assertSame('18446744073709551615', $pdo->lastInsertId());
        $this->connection->willReturn(FakeConnection::rows(['a'], [[1]]));
        self::assertSame(0, $pdo->exec('SELECT 1'), 'exec() of a query returns 0');
    }

    public function testColumnMeta(): void
    {
        $pdo = $this->pdo();
        $this->connection->willReturn(FakeConnection::rows([
            FakeConnection::column('id', 3, 'users', 1 | 2 | 32, 11),
            FakeConnection::column('name', 253, 'users', 1 | 8, 1020),
            FakeConnection::column('price', 246, 'users', 0, 10, 2),
            FakeConnection::column('doc', 245, 'users', 16, 4294967295),
        ], []));
        $stmt = $pdo->query('SELECT id, name, price, doc FROM users');
        self::assertSame(['native_type' => 'LONG', 'pdo_type' => \PDO::PARAM_INT, 'flags' => ['not_null', 'primary_key'], 'table' => 'users', 'name' => 'id', 'len' => 11, 'precision' => 0], $stmt->getColumnMeta(0));
        self::assertSame(['native_type' => 'VAR_STRING', 'pdo_type' => \PDO::PARAM_STR, 'flags' => ['not_null', 'multiple_key'], 'table' => 'users', 'name' => 'name', 'len' => 1020, 'precision' => 0], $stmt->getColumnMeta(1));
        self::assertSame(['native_type' => 'NEWDECIMAL', 'pdo_type' => \PDO::PARAM_STR, 'flags' => [], 'table' => 'users', 'name' => 'price', 'len' => 10, 'precision' => 2], $stmt->getColumnMeta(2));
        self::assertSame(['pdo_type' => \PDO::PARAM_STR, 'flags' => ['blob'], 'table' => 'users', 'name' => 'doc', 'len' => 4294967295, 'precision' => 0], $stmt->getColumnMeta(3), 'no native_type for JSON');
        self::assertFalse($stmt->getColumnMeta(4));
        self::assertFalse($pdo->prepare('SELECT 1')->getColumnMeta(0), 'nothing before execute');

        $this->expectException(\ValueError::class);
        $this->expectExceptionMessage('PDOStatement::getColumnMeta(): Argument #1 ($column) must be greater than or equal to 0');
        $stmt->getColumnMeta(-1);
    }

    public function testNextRowset(): void
    {
        $pdo = $this->pdo();
        $this->connection->willReturn(
            FakeConnection::rows(['a'], [[1]]),
            FakeConnection::rows(['b', 'c'], [[2, 3], [4, 5]]),
            FakeConnection::ok(),
        );
        $stmt = $pdo->query('CALL two_sets()');
        self::assertSame([['a' => 1]], $stmt->fetchAll(\PDO::FETCH_ASSOC));
        self::assertTrue($stmt->nextRowset());
        self::assertSame(2, $stmt->columnCount());
        self::assertSame(2, $stmt->rowCount());
        self::assertSame([[2, 3], [4, 5]], $stmt->fetchAll(\PDO::FETCH_NUM));
        self::assertTrue($stmt->nextRowset(), 'the status of the CALL itself');
        self::assertSame(0, $stmt->columnCount());
        self::assertSame([], $stmt->fetchAll());
        self::assertFalse($stmt->nextRowset());
        self::assertSame('00000', $stmt->errorCode());
    }

    public function testCloseCursorDropsPendingResults(): void
    {
        $pdo = $this->pdo();
        $this->connection->willReturn(FakeConnection::rows(['a'], [[1], [2]]), FakeConnection::rows(['b'], [[3]]));
        $stmt = $pdo->query('SELECT 1; SELECT 2');
        self::assertSame([1], $stmt->fetch(\PDO::FETCH_NUM));
        self::assertTrue($stmt->closeCursor());
        self::assertFalse($stmt->fetch());
        self::assertFalse($stmt->nextRowset());

        $this->connection->willReturn(FakeConnection::rows(['a'], [[7]]));
        self::assertTrue($stmt->execute(), 'ready to run again');
        self::assertSame(7, $stmt->fetchColumn());
    }

    public function testTheConnectionClosesWithTheLastUser(): void
    {
        $pdo = $this->pdo();
        $connection = $this->connection;
        $stmt = $pdo->prepare('SELECT 1');
        unset($pdo);
        self::assertFalse($connection->closed, 'a statement keeps the connection');
        unset($stmt);
        self::assertTrue($connection->closed);
    }
}
