<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Database\Pdo;

use Spindle\Database\Pdo\LazyRow;
use Spindle\Tests\Unit\Database\FakeConnection;
use Spindle\Database\Pdo;
use Spindle\Database\Pdo\Statement;

final class FetchModesTest extends PdoTestCase
{
    /** Two rows of (id INT, name VARCHAR, score DOUBLE) as the connection decodes them. */
    private function query(mixed ...$mode): Statement
    {
        $pdo = $this->pdo();
        $this->connection->willReturn(FakeConnection::rows(
            [FakeConnection::column('id', 3), 'name', FakeConnection::column('score', 5, decimals: 31)],
            [[1, 'ann', 1.5], [2, 'bob', null]],
        ));
        $stmt = $pdo->query('SELECT id, name, score FROM people', ...$mode);
        self::assertInstanceOf(Statement::class, $stmt);

        return $stmt;
    }

    public function testBothIsTheDefault(): void
    {
        $stmt = $this->query();
        self::assertSame(['id' => 1, 0 => 1, 'name' => 'ann', 1 => 'ann', 'score' => 1.5, 2 => 1.5], $stmt->fetch());
        self::assertSame(['id' => 2, 0 => 2, 'name' => 'bob', 1 => 'bob', 'score' => null, 2 => null], $stmt->fetch());
        self::assertFalse($stmt->fetch());
        self::assertFalse($stmt->fetch(), 'still false after the end');
        self::assertSame('00000', $stmt->errorCode());
    }

    public function testAssocNumAndObj(): void
    {
        self::assertSame([['id' => 1, 'name' => 'ann', 'score' => 1.5], ['id' => 2, 'name' => 'bob', 'score' => null]], $this->query()->fetchAll(\PDO::FETCH_ASSOC));
        self::assertSame([[1, 'ann', 1.5], [2, 'bob', null]], $this->query()->fetchAll(\PDO::FETCH_NUM));
        $row = $this->query()->fetch(\PDO::FETCH_OBJ);
        self::assertInstanceOf(\stdClass::class, $row);
        self::assertSame(['id' => 1, 'name' => 'ann', 'score' => 1.5], get_object_vars($row));
        $lazy = $this->query()->fetch(\PDO::FETCH_LAZY);
        self::assertInstanceOf(LazyRow::class, $lazy, "FETCH_LAZY gives PDORow's stand-in");
        self::assertSame(['ann', 'ann', 'ann', 1, null], [$lazy->name, $lazy['name'], $lazy[1], $lazy->{'0'}, $lazy->nope]);
        self::assertSame('SELECT id, name, score FROM people', $lazy->queryString);
    }

    public function testColumnModes(): void
    {
        self::assertSame(['ann', 'bob'], $this->query()->fetchAll(\PDO::FETCH_COLUMN, 1));
        self::assertSame([1, 2], $this->query()->fetchAll(\PDO::FETCH_COLUMN));
        $stmt = $this->query(\PDO::FETCH_COLUMN, 2);
        self::assertSame(1.5, $stmt->fetch());
        self::assertNull($stmt->fetch());
        self::assertFalse($stmt->fetch());

        $stmt = $this->query();
        self::assertSame('ann', $stmt->fetchColumn(1));
        self::assertSame(2, $stmt->fetchColumn());
        self::assertFalse($stmt->fetchColumn());

        $stmt = $this->query();
        $this->expectException(\ValueError::class);
        $this->expectExceptionMessage('Invalid column index');
        $stmt->fetchColumn(3);
    }

    public function testKeyPairGroupAndUnique(): void
    {
        $pdo = $this->pdo();
        $rows = [['a', 1, 'x'], ['b', 2, 'y'], ['a', 3, 'z']];
        $this->connection->willReturn(FakeConnection::rows(['k', FakeConnection::column('v', 3)], [['a', 1], ['b', 2], ['a', 3]]));
        self::assertSame(['a' => 3, 'b' => 2], $pdo->query('SELECT k, v')->fetchAll(\PDO::FETCH_KEY_PAIR));

        $this->connection->willReturn(FakeConnection::rows(['k', 'v'], [['1', 'one']]));
        self::assertSame([1 => 'one'], $pdo->query('SELECT k, v')->fetch(\PDO::FETCH_KEY_PAIR));

        $this->connection->willReturn(FakeConnection::rows(['k', 'v', 'w'], $rows));
        $e = self::pdoException(static fn () => $pdo->query('SELECT k, v, w')->fetchAll(\PDO::FETCH_KEY_PAIR));
        self::assertSame('SQLSTATE[HY000]: General error: PDO::FETCH_KEY_PAIR fetch mode requires the result set to contain exactly 2 columns.', $e->getMessage());

        $this->connection->willReturn(FakeConnection::rows(['k', 'v', 'w'], $rows));
        self::assertSame(
            ['a' => [['v' => 1, 'w' => 'x'], ['v' => 3, 'w' => 'z']], 'b' => [['v' => 2, 'w' => 'y']]],
            $pdo->query('SELECT k, v, w')->fetchAll(\PDO::FETCH_GROUP | \PDO::FETCH_ASSOC),
        );
        $this->connection->willReturn(FakeConnection::rows(['k', 'v', 'w'], $rows));
        self::assertSame(['a' => [1, 3], 'b' => [2]], $pdo->query('SELECT k, v, w')->fetchAll(\PDO::FETCH_GROUP | \PDO::FETCH_COLUMN));
        $this->connection->willReturn(FakeConnection::rows(['k', 'v', 'w'], $rows));
        self::assertSame(['a' => ['v' => 3, 'w' => 'z'], 'b' => ['v' => 2, 'w' => 'y']], $pdo->query('SELECT k, v, w')->fetchAll(\PDO::FETCH_UNIQUE | \PDO::FETCH_ASSOC), 'the last row of a key wins');
        $this->connection->willReturn(FakeConnection::rows(['k', 'v', 'w'], $rows));
        self::assertSame(['a' => [[1, 'x'], [3, 'z']], 'b' => [[2, 'y']]], $pdo->query('SELECT k, v, w')->fetchAll(\PDO::FETCH_GROUP | \PDO::FETCH_NUM));
    }

    public function testNamedKeepsDuplicateColumnsAndAssocKeepsTheLast(): void
    {
        $pdo = $this->pdo();
        $this->connection->willReturn(FakeConnection::rows(['id', 'id', 'name'], [[1, 2, 'x']]));
        self::assertSame(['id' => [1, 2], 'name' => 'x'], $pdo->query('SELECT a.id, b.id, name')->fetch(\PDO::FETCH_NAMED));
        $this->connection->willReturn(FakeConnection::rows(['id', 'id', 'name'], [[1, 2, 'x']]));
        self::assertSame(['id' => 2, 'name' => 'x'], $pdo->query('SELECT a.id, b.id, name')->fetch(\PDO::FETCH_ASSOC));
        $this->connection->willReturn(FakeConnection::rows(['id', 'id', 'name'], [[1, 2, 'x']]));
        self::assertSame(['id' => 2, 0 => 1, 1 => 2, 'name' => 'x', 2 => 'x'], $pdo->query('SELECT a.id, b.id, name')->fetch());
    }

    public function testClassSetsPropertiesBeforeTheConstructor(): void
    {
        $stmt = $this->query();
        $stmt->setFetchMode(\PDO::FETCH_CLASS, FetchedPerson::class, ['ctor']);
        $person = $stmt->fetch();
        self::assertInstanceOf(FetchedPerson::class, $person);
        self::assertSame(1, $person->id);
        self::assertSame('ann', $person->name());
        self::assertSame(['id' => 1, 'name' => 'ann', 'score' => 1.5], $person->seenByConstructor, 'properties were set before the constructor ran');
        self::assertSame('ctor', $person->argument);

        $all = $this->query()->fetchAll(\PDO::FETCH_CLASS | \PDO::FETCH_PROPS_LATE, FetchedPerson::class, ['late']);
        self::assertCount(2, $all);
        self::assertInstanceOf(FetchedPerson::class, $all[1]);
        self::assertSame(['id' => null, 'name' => null, 'score' => null], $all[1]->seenByConstructor, 'PROPS_LATE: constructor first');
        self::assertSame('bob', $all[1]->name());
        self::assertSame('late', $all[1]->argument);

        $object = $this->query()->fetchObject(FetchedPerson::class, ['obj']);
        self::assertInstanceOf(FetchedPerson::class, $object);
        self::assertSame('obj', $object->argument);
        $plain = $this->query()->fetchObject();
        self::assertInstanceOf(\stdClass::class, $plain);
    }

    public function testClassWithoutConstructorRejectsConstructorArguments(): void
    {
        $stmt = $this->query();
        $this->expectException(\Error::class);
        $this->expectExceptionMessage('User-supplied statement does not accept constructor arguments');
        $stmt->setFetchMode(\PDO::FETCH_CLASS, \stdClass::class, ['x']);
    }

    public function testClassTypeTakesTheClassFromTheFirstColumn(): void
    {
        $pdo = $this->pdo();
        $this->connection->willReturn(FakeConnection::rows(['class', 'id'], [[FetchedPerson::class, 7], ['No\\Such\\Class', 8]]));
        $rows = $pdo->query('SELECT class, id')->fetchAll(\PDO::FETCH_CLASS | \PDO::FETCH_CLASSTYPE);
        self::assertInstanceOf(FetchedPerson::class, $rows[0]);
        self::assertSame(7, $rows[0]->id);
        self::assertInstanceOf(\stdClass::class, $rows[1], 'an unknown class gives stdClass');
        self::assertSame(['id' => 8], get_object_vars($rows[1]));
    }

    public function testIntoAndFunc(): void
    {
        $target = new FetchedTarget();
        $stmt = $this->query(\PDO::FETCH_INTO, $target);
        self::assertSame($target, $stmt->fetch());
        self::assertSame(1, $target->id);
        self::assertSame('ann', $target->name);
        self::assertSame($target, $stmt->fetch());
        self::assertSame('bob', $target->name);

        $rows = $this->query()->fetchAll(\PDO::FETCH_FUNC, static fn (int $id, string $name, ?float $score): string => $id . ':' . $name . ':' . var_export($score, true));
        self::assertSame(['1:ann:1.5', '2:bob:NULL'], $rows);

        try {
            $this->query()->fetch(\PDO::FETCH_FUNC);
            self::fail('FETCH_FUNC accepted by fetch()');
        } catch (\ValueError $e) {
            self::assertSame('Can only use PDO::FETCH_FUNC in PDOStatement::fetchAll()', $e->getMessage());
        }
        $this->expectException(\ArgumentCountError::class);
        $this->expectExceptionMessage('PDOStatement::fetchAll() expects exactly 2 argument for PDO::FETCH_FUNC, 1 given');
        $this->query()->fetchAll(\PDO::FETCH_FUNC);
    }

    public function testBoundColumns(): void
    {
        $stmt = $this->query();
        $id = $name = null;
        $stmt->bindColumn(1, $id, \PDO::PARAM_INT);
        $stmt->bindColumn('name', $name);
        self::assertTrue($stmt->fetch(\PDO::FETCH_BOUND));
        self::assertSame([1, 'ann'], [$id, $name]);
        $stmt->fetch(\PDO::FETCH_BOUND);
        self::assertSame([2, 'bob'], [$id, $name]);

        $stmt = $this->query();
        $score = null;
        $stmt->bindColumn('score', $score);
        $stmt->fetch();
        self::assertSame('1.5', $score, 'a bound column defaults to PARAM_STR');

        $stmt = $this->query();
        $e = self::pdoException(static function () use ($stmt): void {
            $stmt->bindColumn('nope', $var);
        });
        self::assertSame("SQLSTATE[HY000]: General error: Did not find column name 'nope' in the defined columns; it will not be bound", $e->getMessage());
    }

    public function testStringifyFetchesAndOracleNulls(): void
    {
        $stmt = $this->query();
        self::assertSame([1, 'ann', 1.5], $stmt->fetch(\PDO::FETCH_NUM), 'numbers come back as numbers');

        $pdo = $this->pdo([\PDO::ATTR_STRINGIFY_FETCHES => true, \PDO::ATTR_ORACLE_NULLS => \PDO::NULL_TO_STRING]);
        $this->connection->willReturn(FakeConnection::rows(['a', 'b', 'c'], [[1, 1.5, null]]));
        self::assertSame(['1', '1.5', ''], $pdo->query('SELECT 1')->fetch(\PDO::FETCH_NUM));

        $pdo->setAttribute(\PDO::ATTR_ORACLE_NULLS, \PDO::NULL_EMPTY_STRING);
        $pdo->setAttribute(\PDO::ATTR_STRINGIFY_FETCHES, false);
        $this->connection->willReturn(FakeConnection::rows(['a', 'b'], [['', 'x']]));
        self::assertSame([null, 'x'], $pdo->query('SELECT 1')->fetch(\PDO::FETCH_NUM));
    }

    public function testCaseFoldingAndTableNames(): void
    {
        $pdo = $this->pdo([\PDO::ATTR_CASE => \PDO::CASE_LOWER]);
        $this->connection->willReturn(FakeConnection::rows(['UserId', 'Name'], [[1, 'x']]));
        self::assertSame(['userid' => 1, 'name' => 'x'], $pdo->query('SELECT 1')->fetch(\PDO::FETCH_ASSOC));
        $pdo->setAttribute(\PDO::ATTR_CASE, \PDO::CASE_UPPER);
        $this->connection->willReturn(FakeConnection::rows(['UserId', 'Name'], [[1, 'x']]));
        self::assertSame(['USERID' => 1, 'NAME' => 'x'], $pdo->query('SELECT 1')->fetch(\PDO::FETCH_ASSOC));

        $pdo = $this->pdo([\PDO::ATTR_FETCH_TABLE_NAMES => true]);
        $this->connection->willReturn(FakeConnection::rows([FakeConnection::column('id', 3, 'users')], [[1]]));
        self::assertSame(['users.id' => 1], $pdo->query('SELECT 1')->fetch(\PDO::FETCH_ASSOC));
    }

    public function testDefaultFetchModeAttribute(): void
    {
        $pdo = $this->pdo([\PDO::ATTR_DEFAULT_FETCH_MODE => \PDO::FETCH_OBJ]);
        self::assertSame(\PDO::FETCH_OBJ, $pdo->getAttribute(\PDO::ATTR_DEFAULT_FETCH_MODE));
        $this->connection->willReturn(FakeConnection::rows(['a'], [[1], [2]]));
        $stmt = $pdo->query('SELECT a');
        self::assertInstanceOf(Statement::class, $stmt);
        self::assertEquals((object) ['a' => 1], $stmt->fetch());
        $stmt->setFetchMode(\PDO::FETCH_NUM);
        self::assertSame([2], $stmt->fetch());

        $this->expectException(\ValueError::class);
        $this->expectExceptionMessage('PDO::FETCH_INTO and PDO::FETCH_CLASS cannot be set as the default fetch mode');
        $pdo->setAttribute(\PDO::ATTR_DEFAULT_FETCH_MODE, [\PDO::FETCH_CLASS, \stdClass::class]);
    }

    public function testIteration(): void
    {
        $rows = [];
        foreach ($this->query(\PDO::FETCH_ASSOC) as $key => $row) {
            $rows[$key] = $row['name'];
        }
        self::assertSame([0 => 'ann', 1 => 'bob'], $rows);
    }

    public function testFetchModeArgumentErrors(): void
    {
        $stmt = $this->query();
        try {
            $stmt->setFetchMode(\PDO::FETCH_ASSOC, 'extra');
            self::fail('extra argument accepted');
        } catch (\ArgumentCountError $e) {
            self::assertSame('PDOStatement::setFetchMode() expects exactly 1 arguments for the fetch mode provided, 2 given', $e->getMessage());
        }
        try {
            $stmt->fetch(99);
            self::fail('bad mode accepted');
        } catch (\ValueError $e) {
            self::assertSame('PDOStatement::fetch(): Argument #1 ($mode) must be a bitmask of PDO::FETCH_* constants', $e->getMessage());
        }
        try {
            $stmt->fetchAll(\PDO::FETCH_LAZY);
            self::fail('FETCH_LAZY accepted by fetchAll()');
        } catch (\ValueError $e) {
            self::assertSame('PDOStatement::fetchAll(): Argument #1 ($mode) cannot be PDO::FETCH_LAZY in PDOStatement::fetchAll()', $e->getMessage());
        }
        try {
            $stmt->setFetchMode(\PDO::FETCH_CLASS, 'No\\Such\\Class');
            self::fail('unknown class accepted');
        } catch (\TypeError $e) {
            self::assertSame('PDOStatement::setFetchMode(): Argument #2 must be a valid class', $e->getMessage());
        }
    }

    public function testNoRowsAndNoResultSet(): void
    {
        $pdo = $this->pdo();
        $this->connection->willReturn(FakeConnection::rows(['a'], []));
        $stmt = $pdo->query('SELECT a WHERE 0');
        self::assertSame([], $stmt->fetchAll());
        self::assertFalse($stmt->fetch());

        $this->connection->willReturn(FakeConnection::ok(3));
        $stmt = $pdo->query('UPDATE t SET a = 1');
        self::assertSame([], $stmt->fetchAll(), 'fetching after a data change is not an error');
        self::assertFalse($stmt->fetch());
        self::assertSame('00000', $stmt->errorCode());

        $unexecuted = $pdo->prepare('SELECT 1');
        self::assertFalse($unexecuted->fetch());
        self::assertSame([], $unexecuted->fetchAll());
    }

    public function testStatementOfAnotherClassCannotBeMadeByHand(): void
    {
        $stmt = (new \ReflectionClass(Statement::class))->newInstanceWithoutConstructor();
        $this->expectException(\Error::class);
        $this->expectExceptionMessage('PDO object is uninitialized');
        $stmt->fetch();
    }

    public function testPdoConstantsForMysqlAttributes(): void
    {
        self::assertSame(1000, Pdo::MYSQL_ATTR_USE_BUFFERED_QUERY);
        self::assertSame(1002, Pdo::MYSQL_ATTR_INIT_COMMAND);
        self::assertSame(1013, Pdo::MYSQL_ATTR_MULTI_STATEMENTS);
    }
}

final class FetchedPerson
{
    public ?int $id = null;
    public ?float $score = null;
    /** @var array<string, mixed> */
    public array $seenByConstructor = [];
    private ?string $name = null;

    public function __construct(public string $argument = '')
    {
        $this->seenByConstructor = ['id' => $this->id, 'name' => $this->name, 'score' => $this->score];
    }

    public function name(): ?string
    {
        return $this->name;
    }
}

final class FetchedTarget
{
    public mixed $id = null;
    public mixed $name = null;
    public mixed $score = null;
}
