<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Database\Pdo;

use Revolt\EventLoop;
use Spindle\Database\Mysql\MysqlException;
use Spindle\Database\Pdo;

final class ErrorModesTest extends PdoTestCase
{
    private const MISSING_TABLE = "Table 'app.nope' doesn't exist";

    public function testExceptionModeIsTheDefault(): void
    {
        $pdo = $this->pdo();
        self::assertSame(\PDO::ERRMODE_EXCEPTION, $pdo->getAttribute(\PDO::ATTR_ERRMODE));
        $this->connection->willFail(1146, self::MISSING_TABLE, '42S02');
        $stmt = $pdo->prepare('SELECT * FROM nope');
        $e = self::pdoException(static fn () => $stmt->execute());

        self::assertSame("SQLSTATE[42S02]: Base table or view not found: 1146 Table 'app.nope' doesn't exist", $e->getMessage());
        self::assertSame('42S02', $e->getCode());
        self::assertSame(['42S02', 1146, self::MISSING_TABLE], $e->errorInfo);
        self::assertSame(__FILE__, $e->getFile(), 'the exception points at the caller');
        self::assertSame('42S02', $stmt->errorCode());
        self::assertSame(['42S02', 1146, self::MISSING_TABLE], $stmt->errorInfo());
    }

    public function testSqlStateClassTexts(): void
    {
        $pdo = $this->pdo();
        $cases = [
            ['42000', 1064, 'Syntax error or access violation'],
            ['23000', 1062, 'Integrity constraint violation'],
            ['42S22', 1054, 'Column not found'],
            ['HY000', 1205, 'General error'],
            ['28000', 1045, 'Invalid authorization specification'],
            ['08S01', 1047, 'Communication link failure'],
            ['45000', 1644, '<<Unknown error>>'],
        ];
        foreach ($cases as [$state, $code, $text]) {
            $this->connection->willFail($code, 'message', $state);
            $e = self::pdoException(static fn () => $pdo->exec('DO 1'));
            self::assertSame(sprintf('SQLSTATE[%s]: %s: %d message', $state, $text, $code), $e->getMessage());
        }
    }

    public function testWarningMode(): void
    {
        $pdo = $this->pdo([\PDO::ATTR_ERRMODE => \PDO::ERRMODE_WARNING]);
        $this->connection->willFail(1146, self::MISSING_TABLE, '42S02');
        [$result, $warnings] = self::withWarnings(static fn () => $pdo->query('SELECT * FROM nope'));
        self::assertFalse($result);
        self::assertSame(["PDO::query(): SQLSTATE[42S02]: Base table or view not found: 1146 Table 'app.nope' doesn't exist"], $warnings);
        self::assertSame('42S02', $pdo->errorCode(), 'the failed query\'s error shows on the handle');
        self::assertSame(['42S02', 1146, self::MISSING_TABLE], $pdo->errorInfo());

        [$result, $warnings] = self::withWarnings(static fn () => $pdo->prepare('SELECT ?, ?')->execute([1]));
        self::assertFalse($result);
        self::assertSame(['PDOStatement::execute(): SQLSTATE[HY093]: Invalid parameter number: number of bound variables does not match number of tokens'], $warnings);
    }

    public function testSilentMode(): void
    {
        $pdo = $this->pdo([\PDO::ATTR_ERRMODE => \PDO::ERRMODE_SILENT]);
        $this->connection->willFail(1062, "Duplicate entry '1' for key 'PRIMARY'", '23000');
        [$result, $warnings] = self::withWarnings(static fn () => $pdo->exec('INSERT INTO t VALUES (1)'));
        self::assertFalse($result);
        self::assertSame([], $warnings);
        self::assertSame('23000', $pdo->errorCode());
        self::assertSame(['23000', 1062, "Duplicate entry '1' for key 'PRIMARY'"], $pdo->errorInfo());

        self::assertSame(1, $pdo->exec('DELETE FROM t') === false ? 0 : 1);
        self::assertSame('00000', $pdo->errorCode());
        self::assertSame(['00000', null, null], $pdo->errorInfo());

        // PDO's own errors still warn in silent mode, as in PHP.
        [$result, $warnings] = self::withWarnings(static fn () => $pdo->prepare('SELECT ?')->execute([1, 2]));
        self::assertFalse($result);
        self::assertSame(['PDOStatement::execute(): SQLSTATE[HY093]: Invalid parameter number: number of bound variables does not match number of tokens'], $warnings);
    }

    public function testErrorStateBeforeAnyCall(): void
    {
        $pdo = $this->pdo();
        self::assertNull($pdo->errorCode());
        self::assertSame(['', null, null], $pdo->errorInfo());
        $stmt = $pdo->prepare('SELECT 1');
        self::assertNull($stmt->errorCode());
        self::assertSame(['', null, null], $stmt->errorInfo());
        $stmt->execute();
        self::assertSame('00000', $stmt->errorCode());
        self::assertSame(['00000', null, null], $stmt->errorInfo());
    }

    public function testInvalidErrorMode(): void
    {
        $pdo = $this->pdo();
        $this->expectException(\ValueError::class);
        $this->expectExceptionMessage('Error mode must be one of the PDO::ERRMODE_* constants');
        $pdo->setAttribute(\PDO::ATTR_ERRMODE, 7);
    }

    public function testLostConnection(): void
    {
        $pdo = $this->pdo();
        $this->connection->willFail(2006, 'MySQL server has gone away');
        $e = self::pdoException(static fn () => $pdo->query('SELECT 1'));
        self::assertSame('SQLSTATE[HY000]: General error: 2006 MySQL server has gone away', $e->getMessage());
        self::assertSame(['HY000', 2006, 'MySQL server has gone away'], $e->errorInfo);

        $this->connection->broken = true;
        $e = self::pdoException(static fn () => $pdo->exec('DO 1'));
        self::assertSame('SQLSTATE[HY000]: General error: 2006 MySQL server has gone away', $e->getMessage());
        self::assertCount(1, $this->connection->queries, 'a broken connection is not used again');
    }

    public function testConnectFailure(): void
    {
        $connector = static function (): never {
            throw new MysqlException("Access denied for user 'app'@'localhost' (using password: YES)", 1045, 'HY000');
        };
        try {
            new Pdo('mysql:host=db;dbname=app', 'app', 'secret', [Pdo::ATTR_CONNECTOR => $connector, \PDO::ATTR_ERRMODE => \PDO::ERRMODE_SILENT]);
            self::fail('connected');
        } catch (\PDOException $e) {
            self::assertSame("SQLSTATE[HY000] [1045] Access denied for user 'app'@'localhost' (using password: YES)", $e->getMessage());
            self::assertSame(1045, $e->getCode());
            self::assertSame(['HY000', 1045, "Access denied for user 'app'@'localhost' (using password: YES)"], $e->errorInfo);
        }
    }

    public function testOtherDriversAreNotFound(): void
    {
        $e = self::pdoException(static fn () => new Pdo('sqlite::memory:'));
        self::assertSame('could not find driver', $e->getMessage());
        self::assertSame(0, $e->getCode());

        $e = self::pdoException(static fn () => new Pdo('nocolon'));
        self::assertSame('PDO::__construct(): Argument #1 ($dsn) must be a valid data source name', $e->getMessage());
    }

    public function testUnknownAttributes(): void
    {
        $pdo = $this->pdo();
        self::assertFalse($pdo->setAttribute(\PDO::ATTR_PREFETCH, 10), 'unknown attributes are refused silently');
        $e = self::pdoException(static fn () => $pdo->getAttribute(\PDO::ATTR_PREFETCH));
        self::assertSame('SQLSTATE[IM001]: Driver does not support this function: driver does not support that attribute', $e->getMessage());
        self::assertSame(['IM001', 0], $e->errorInfo);

        $stmt = $pdo->prepare('SELECT 1');
        $e = self::pdoException(static fn () => $stmt->setAttribute(\PDO::ATTR_CURSOR_NAME, 'c'));
        self::assertSame("SQLSTATE[IM001]: Driver does not support this function: This driver doesn't support setting attributes", $e->getMessage());
    }

    public function testTwoFibersCannotShareTheConnection(): void
    {
        $pdo = $this->pdo();
        $suspension = null;
        $this->connection->during = static function () use (&$suspension): void {
            $suspension = EventLoop::getSuspension();
            $suspension->suspend();
        };
        $first = new \Fiber(static fn () => $pdo->query('SELECT SLEEP(1)'));
        $first->start();
        self::assertNotNull($suspension, 'the first fiber waits for the server');

        $this->connection->during = null;
        $e = self::pdoException(static fn () => $pdo->query('SELECT 2'));
        self::assertStringStartsWith("SQLSTATE[HY000]: General error: 2014 Commands out of sync; you can't run this command now (this connection is busy in another fiber", $e->getMessage());
        self::assertSame(['SELECT SLEEP(1)'], $this->connection->queries);

        $suspension->resume();
        EventLoop::run();
        self::assertTrue($first->isTerminated());
        self::assertNotFalse($pdo->query('SELECT 3'), 'usable again once the first fiber is done');
    }
}
