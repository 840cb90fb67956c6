<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Database\Pdo;

use Spindle\Tests\Unit\Database\FakeConnection;
use Spindle\Database\Mysql\MysqlException;

/** ATTR_EMULATE_PREPARES off: the server prepares, parameters travel in the binary protocol. */
final class NativePrepareTest extends PdoTestCase
{
    public function testPreparesOnTheServerAndSendsTypedValues(): void
    {
        $pdo = $this->pdo([\PDO::ATTR_EMULATE_PREPARES => false]);
        self::assertSame(0, $pdo->getAttribute(\PDO::ATTR_EMULATE_PREPARES));
        $stmt = $pdo->prepare('SELECT * FROM t WHERE a = ? AND b = ? AND c = ? AND d = ? AND e = ?');
        self::assertSame(['SELECT * FROM t WHERE a = ? AND b = ? AND c = ? AND d = ? AND e = ?'], $this->connection->prepared);
        self::assertFalse($stmt->getAttribute(\PDO::ATTR_EMULATE_PREPARES));
        $stmt->bindValue(1, 5, \PDO::PARAM_INT);
        $stmt->bindValue(2, 5);
        $stmt->bindValue(3, null, \PDO::PARAM_INT);
        $stmt->bindValue(4, true, \PDO::PARAM_BOOL);
        $stmt->bindValue(5, 2.5, \PDO::PARAM_LOB);
        $stmt->execute();
        self::assertSame([[1, [5, '5', null, true, 2.5]]], $this->connection->executions);
        self::assertSame([], $this->connection->queries);
    }

    public function testNamedPlaceholdersAreRewritten(): void
    {
        $pdo = $this->pdo([\PDO::ATTR_EMULATE_PREPARES => false]);
        $stmt = $pdo->prepare("SELECT :b, ':a', :a");
        self::assertSame(["SELECT ?, ':a', ?"], $this->connection->prepared);
        $stmt->execute(['a' => 'A', ':b' => 'B']);
        self::assertSame([[1, ['B', 'A']]], $this->connection->executions);
    }

    public function testParameterErrors(): void
    {
        $pdo = $this->pdo([\PDO::ATTR_EMULATE_PREPARES => false]);
        $stmt = $pdo->prepare('SELECT ?, ?');
        $e = self::pdoException(static fn () => $stmt->execute([1]));
        self::assertSame('SQLSTATE[HY093]: Invalid parameter number', $e->getMessage());
        self::assertSame(['HY093'], $e->errorInfo);

        $e = self::pdoException(static fn () => $stmt->bindValue(3, 'x'));
        self::assertSame('SQLSTATE[HY093]: Invalid parameter number', $e->getMessage(), 'checked when binding');

        $e = self::pdoException(static fn () => $pdo->prepare('SELECT :a, ?'));
        self::assertSame('SQLSTATE[HY093]: Invalid parameter number: mixed named and positional parameters', $e->getMessage());

        $e = self::pdoException(static fn () => $pdo->prepare('SELECT :a')->bindValue(':b', 1));
        self::assertSame('SQLSTATE[HY093]: Invalid parameter number: parameter was not defined', $e->getMessage());
        self::assertSame([], $this->connection->executions);
    }

    public function testPrepareErrorsAreHandleErrors(): void
    {
        $pdo = $this->pdo([\PDO::ATTR_EMULATE_PREPARES => false, \PDO::ATTR_ERRMODE => \PDO::ERRMODE_SILENT]);
        $this->connection->willPrepare(new MysqlException("Table 'app.nope' doesn't exist", 1146, '42S02'));
        self::assertFalse($pdo->prepare('SELECT * FROM nope'));
        self::assertSame(['42S02', 1146, "Table 'app.nope' doesn't exist"], $pdo->errorInfo());
    }

    public function testStatementsTheServerCannotPrepareAreEmulated(): void
    {
        $pdo = $this->pdo([\PDO::ATTR_EMULATE_PREPARES => false]);
        $this->connection->willPrepare(new MysqlException('This command is not supported in the prepared statement protocol yet', 1295, 'HY000'));
        $stmt = $pdo->prepare('LOCK TABLES t WRITE');
        self::assertTrue($stmt->getAttribute(\PDO::ATTR_EMULATE_PREPARES));
        $stmt->execute();
        self::assertSame(['LOCK TABLES t WRITE'], $this->connection->queries);
    }

    public function testResultsKeepTheirBinaryTypesAndStatementsAreClosed(): void
    {
        $pdo = $this->pdo([\PDO::ATTR_EMULATE_PREPARES => false]);
        $stmt = $pdo->prepare('SELECT price FROM t');
        $this->connection->willReturn(FakeConnection::rows([FakeConnection::column('price', 246, decimals: 2)], [['9.99']]));
        $stmt->execute();
        self::assertSame(['price' => '9.99'], $stmt->fetch(\PDO::FETCH_ASSOC), 'DECIMAL stays a string');
        unset($stmt);
        self::assertSame([1], $this->connection->closedStatements);
    }

    public function testQueryWithNativePrepares(): void
    {
        $pdo = $this->pdo([\PDO::ATTR_EMULATE_PREPARES => false]);
        $this->connection->willReturn(FakeConnection::rows(['a'], [[1]]));
        self::assertSame([[1]], $pdo->query('SELECT 1 AS a')->fetchAll(\PDO::FETCH_NUM));
        self::assertSame(['SELECT 1 AS a'], $this->connection->prepared);
        self::assertSame([[1, []]], $this->connection->executions);
    }
}
