<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\Doctrine;

use Doctrine\DBAL\Connection;
use Doctrine\DBAL\Exception\ConnectionLost;
use Doctrine\DBAL\Exception\DeadlockException;
use Doctrine\DBAL\Exception\DriverException;
use Doctrine\DBAL\Exception\ForeignKeyConstraintViolationException;
use Doctrine\DBAL\Exception\NotNullConstraintViolationException;
use Doctrine\DBAL\Exception\SyntaxErrorException;
use Doctrine\DBAL\Exception\TableExistsException;
use Doctrine\DBAL\Exception\TableNotFoundException;
use Doctrine\DBAL\Exception\UniqueConstraintViolationException;
use Revolt\EventLoop;

/** The server's errors come out as DBAL's specific exceptions, with MySQL's codes and SQLSTATEs. */
final class ExceptionConversionTest extends DoctrineTestCase
{
    protected array $tables = ['doctrine_accounts', 'doctrine_owners'];

    /** @return iterable<string, array{bool}> */
    public static function prepares(): iterable
    {
        yield 'emulated prepares' => [true];
        yield 'native prepares' => [false];
    }

    private function accounts(bool $emulate = true): Connection
    {
        $db = $this->dbal(['driverOptions' => [\PDO::ATTR_EMULATE_PREPARES => $emulate]]);
        $db->executeStatement('CREATE TABLE doctrine_owners (id INT PRIMARY KEY) ENGINE=InnoDB');
        $db->executeStatement(<<<'SQL'
            CREATE TABLE doctrine_accounts (
                id INT PRIMARY KEY,
                email VARCHAR(100) NOT NULL UNIQUE,
                balance INT NOT NULL DEFAULT 0,
                owner_id INT NULL,
                FOREIGN KEY (owner_id) REFERENCES doctrine_owners (id)
            ) ENGINE=InnoDB
            SQL);
        $db->insert('doctrine_accounts', ['id' => 1, 'email' => 'a@example.com']);
        $db->insert('doctrine_accounts', ['id' => 2, 'email' => 'b@example.com']);

        return $db;
    }

    /**
     * @param class-string<DriverException> $class
     * @param \Closure(): mixed $action
     */
    private static function assertConverted(string $class, int $code, string $sqlState, \Closure $action): DriverException
    {
        try {
            $action();
        } catch (DriverException $e) {
            self::assertInstanceOf($class, $e, $e->getMessage());
            self::assertSame($code, $e->getCode(), $e->getMessage());
            self::assertSame($sqlState, $e->getSQLState(), $e->getMessage());

            return $e;
        }
        self::fail("expected $class");
    }

    /** @dataProvider prepares */
    public function testConstraintViolations(bool $emulate): void
    {
        $db = $this->accounts($emulate);

        $e = self::assertConverted(UniqueConstraintViolationException::class, 1062, '23000', static fn () => $db->insert('doctrine_accounts', ['id' => 3, 'email' => 'a@example.com']));
        self::assertStringContainsString("Duplicate entry 'a@example.com'", $e->getMessage());
        self::assertConverted(UniqueConstraintViolationException::class, 1062, '23000', static fn () => $db->executeStatement('UPDATE doctrine_accounts SET id = ? WHERE id = ?', [1, 2]));
        self::assertConverted(NotNullConstraintViolationException::class, 1048, '23000', static fn () => $db->insert('doctrine_accounts', ['id' => 3, 'email' => null]));
        self::assertConverted(ForeignKeyConstraintViolationException::class, 1452, '23000', static fn () => $db->insert('doctrine_accounts', ['id' => 3, 'email' => 'c@example.com', 'owner_id' => 99]));
    }

    /** @dataProvider prepares */
    public function testMissingTablesAndSyntaxErrors(bool $emulate): void
    {
        $db = $this->accounts($emulate);

        $e = self::assertConverted(TableNotFoundException::class, 1146, '42S02', static fn () => $db->fetchAllAssociative('SELECT * FROM doctrine_nowhere WHERE id = ?', [1]));
        self::assertStringContainsString("Table 'spindle_test.doctrine_nowhere' doesn't exist", $e->getMessage());
        self::assertSame('SELECT * FROM doctrine_nowhere WHERE id = ?', $e->getQuery()?->getSQL());
        self::assertConverted(TableNotFoundException::class, 1051, '42S02', static fn () => $db->executeStatement('DROP TABLE doctrine_nowhere'));
        self::assertConverted(TableExistsException::class, 1050, '42S01', static fn () => $db->executeStatement('CREATE TABLE doctrine_owners (id INT)'));
        self::assertConverted(SyntaxErrorException::class, 1064, '42000', static fn () => $db->fetchOne('SELEKT ? FROM doctrine_accounts', [1]));

        // The connection is still usable after each of them.
        self::assertSame(2, $db->fetchOne('SELECT COUNT(*) FROM doctrine_accounts'));
    }

    public function testAKilledConnectionIsConnectionLostAndDbalReconnects(): void
    {
        $db = $this->accounts();
        $id = $db->fetchOne('SELECT CONNECTION_ID()');
        $this->dbal()->executeStatement('KILL CONNECTION ' . (int) $id);

        self::assertConverted(ConnectionLost::class, 2006, 'HY000', static fn () => $db->fetchOne('SELECT 1'));
        self::assertNotSame($id, $db->fetchOne('SELECT CONNECTION_ID()'));
    }

    public function testDeadlockBetweenTwoFibers(): void
    {
        $first = $this->accounts();
        $second = $this->dbal();
        $first->beginTransaction();
        $second->beginTransaction();
        $first->executeStatement('UPDATE doctrine_accounts SET balance = balance + 1 WHERE id = 1');
        $second->executeStatement('UPDATE doctrine_accounts SET balance = balance + 1 WHERE id = 2');

        // Each now waits for the row the other holds: the server picks one of them to fail.
        $outcomes = [];
        foreach ([[$first, 2], [$second, 1]] as $i => [$db, $row]) {
            EventLoop::queue(static function () use ($db, $row, $i, &$outcomes): void {
                try {
                    $db->executeStatement('UPDATE doctrine_accounts SET balance = balance + 1 WHERE id = ?', [$row]);
                    $outcomes[$i] = 'updated';
                    $db->commit();
                } catch (DeadlockException $e) {
                    $outcomes[$i] = $e;
                    $db->rollBack();
                }
            });
        }
        EventLoop::run();

        $deadlocks = array_filter($outcomes, static fn ($o) => $o instanceof DeadlockException);
        self::assertCount(2, $outcomes);
        self::assertCount(1, $deadlocks, 'exactly one transaction is the victim');
        self::assertContains('updated', $outcomes);
        $deadlock = array_values($deadlocks)[0];
        self::assertSame(1213, $deadlock->getCode());
        self::assertSame('40001', $deadlock->getSQLState());
        self::assertStringContainsString('Deadlock found when trying to get lock', $deadlock->getMessage());
        // The survivor committed both of its updates, the victim none.
        self::assertSame([1, 1], $first->fetchFirstColumn('SELECT balance FROM doctrine_accounts ORDER BY id'));
    }
}
