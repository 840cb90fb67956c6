<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\Mysql;

use Spindle\Database\Mysql\Connection;
use Spindle\Database\Mysql\MysqlException;
use Spindle\Database\Mysql\PreparedStatement;

/**
 * What every Spindle\Database\Mysql\Connection does, run against the real one (SocketConnection
 * and the private MariaDB) and against the tests' FakeConnection, so that the fake the unit
 * tests use cannot drift from what it stands in for.
 */
abstract class ConnectionContract extends MysqlTestCase
{
    abstract protected function connection(): Connection;

    /** Makes the next query fail as a syntax error does on the server (the fake is told to). */
    abstract protected function nextQueryFails(Connection $connection): void;

    public function testQueryGivesAtLeastOneResult(): void
    {
        $results = $this->connection()->query('SELECT 1');
        self::assertNotEmpty($results);
        self::assertSame(array_keys($results), range(0, \count($results) - 1));
    }

    public function testTransactionsSetTheInTransactionFlag(): void
    {
        $c = $this->connection();
        self::assertSame(0, $c->statusFlags() & 1);
        foreach (['START TRANSACTION' => 'COMMIT', 'BEGIN' => 'ROLLBACK'] as $begin => $end) {
            $c->query($begin);
            self::assertSame(1, $c->statusFlags() & 1, $begin);
            $c->query($end);
            self::assertSame(0, $c->statusFlags() & 1, $end);
        }
    }

    public function testPreparedStatements(): void
    {
        $c = $this->connection();
        $statement = $c->prepare('SELECT ? + ?');
        self::assertInstanceOf(PreparedStatement::class, $statement);
        self::assertCount(2, $statement->params, 'one parameter per ?');
        self::assertNotEmpty($c->execute($statement, [1, 2]));
        $c->closeStatement($statement);
        $c->closeStatement($statement);
        self::assertFalse($c->isBroken(), 'closing a statement twice does no harm');
    }

    public function testPingVersionAndId(): void
    {
        $c = $this->connection();
        $c->ping();
        self::assertNotSame('', $c->serverVersion());
        self::assertGreaterThan(0, $c->connectionId());
    }

    public function testAFailingQueryThrowsAndLeavesTheConnectionUsable(): void
    {
        $c = $this->connection();
        $this->nextQueryFails($c);
        try {
            $c->query('SELEC 1');
            self::fail('no error');
        } catch (MysqlException $e) {
            self::assertGreaterThan(0, $e->errorCode);
            self::assertSame(5, \strlen($e->sqlState));
        }
        self::assertFalse($c->isBroken());
        self::assertNotEmpty($c->query('SELECT 1'));
    }

    public function testAClosedConnectionIsBrokenAndRefusesCommandsWith2006(): void
    {
        $c = $this->connection();
        $c->close();
        self::assertTrue($c->isBroken());
        try {
            $c->query('SELECT 1');
            self::fail('no error');
        } catch (MysqlException $e) {
            self::assertSame(2006, $e->errorCode);
        }
        $c->close();
    }
}
