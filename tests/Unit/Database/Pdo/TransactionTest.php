<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Database\Pdo;

use Spindle\Tests\Unit\Database\FakeConnection;

final class TransactionTest extends PdoTestCase
{
    public function testBeginCommitRollBack(): void
    {
        $pdo = $this->pdo();
        self::assertFalse($pdo->inTransaction());
        self::assertTrue($pdo->beginTransaction());
        self::assertTrue($pdo->inTransaction());
        self::assertTrue($pdo->commit());
        self::assertFalse($pdo->inTransaction());
        self::assertTrue($pdo->beginTransaction());
        self::assertTrue($pdo->rollBack());
        self::assertSame(['START TRANSACTION', 'COMMIT', 'START TRANSACTION', 'ROLLBACK'], $this->connection->queries);
    }

    public function testTransactionStateErrors(): void
    {
        $pdo = $this->pdo([\PDO::ATTR_ERRMODE => \PDO::ERRMODE_SILENT]);
        $e = self::pdoException(static fn () => $pdo->commit());
        self::assertSame('There is no active transaction', $e->getMessage(), 'thrown whatever the error mode');
        self::assertSame(0, $e->getCode());
        self::assertNull($e->errorInfo);
        $e = self::pdoException(static fn () => $pdo->rollBack());
        self::assertSame('There is no active transaction', $e->getMessage());

        $pdo->beginTransaction();
        $e = self::pdoException(static fn () => $pdo->beginTransaction());
        self::assertSame('There is already an active transaction', $e->getMessage());
    }

    public function testInTransactionFollowsTheServer(): void
    {
        $pdo = $this->pdo();
        // With autocommit off the server opens a transaction by itself.
        $this->connection->willReturn(FakeConnection::ok(1, 0, FakeConnection::IN_TRANS));
        $pdo->exec('UPDATE t SET a = 1');
        self::assertTrue($pdo->inTransaction());
        self::assertTrue($pdo->commit());
    }

    public function testFailingCommit(): void
    {
        $pdo = $this->pdo();
        $pdo->beginTransaction();
        $this->connection->willFail(1213, 'Deadlock found when trying to get lock; try restarting transaction', '40001');
        $e = self::pdoException(static fn () => $pdo->commit());
        self::assertSame('SQLSTATE[40001]: Serialization failure: 1213 Deadlock found when trying to get lock; try restarting transaction', $e->getMessage());
    }

    public function testAutocommitAttribute(): void
    {
        $pdo = $this->pdo();
        self::assertSame(1, $pdo->getAttribute(\PDO::ATTR_AUTOCOMMIT));
        self::assertTrue($pdo->setAttribute(\PDO::ATTR_AUTOCOMMIT, false));
        self::assertTrue($pdo->setAttribute(\PDO::ATTR_AUTOCOMMIT, 0), 'no change, no query');
        self::assertSame(0, $pdo->getAttribute(\PDO::ATTR_AUTOCOMMIT));
        self::assertTrue($pdo->setAttribute(\PDO::ATTR_AUTOCOMMIT, true));
        self::assertSame(['SET AUTOCOMMIT=0', 'SET AUTOCOMMIT=1'], $this->connection->queries);

        $this->pdo([\PDO::ATTR_AUTOCOMMIT => false]);
        self::assertSame(['SET AUTOCOMMIT=0'], $this->connection->queries, 'applied right after connecting');

        $this->expectException(\TypeError::class);
        $this->expectExceptionMessage('Attribute value must be of type bool for selected attribute, string given');
        $pdo->setAttribute(\PDO::ATTR_AUTOCOMMIT, 'no');
    }
}
