<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Database\Pdo;

/** Emulated prepares (the pdo_mysql default): placeholders are replaced by quoted values client-side. */
final class EmulatedPrepareTest extends PdoTestCase
{
    public function testEmulationIsTheDefaultAndUsesPlainQueries(): void
    {
        $pdo = $this->pdo();
        self::assertSame(1, $pdo->getAttribute(\PDO::ATTR_EMULATE_PREPARES));
        $stmt = $pdo->prepare('SELECT * FROM users WHERE id = ? AND name = ?');
        self::assertNotFalse($stmt);
        self::assertSame([], $this->connection->queries, 'prepare() sends nothing');
        self::assertTrue($stmt->getAttribute(\PDO::ATTR_EMULATE_PREPARES));
        self::assertTrue($stmt->execute([7, "O'Brien"]));
        self::assertSame(["SELECT * FROM users WHERE id = '7' AND name = 'O\\'Brien'"], $this->connection->queries);
        self::assertSame([], $this->connection->prepared);
    }

    public function testNamedPlaceholdersWithOrWithoutTheColon(): void
    {
        $pdo = $this->pdo();
        $stmt = $pdo->prepare('UPDATE t SET a = :a, b = :b WHERE a = :a');
        $stmt->execute(['a' => 'x', ':b' => 'y']);
        self::assertSame("UPDATE t SET a = 'x', b = 'y' WHERE a = 'x'", $this->connection->queries[0], 'a name may repeat when emulating');
    }

    public function testQuestionMarksInsideStringsCommentsAndIdentifiersStay(): void
    {
        $pdo = $this->pdo();
        $pdo->prepare("SELECT '?' AS `a?b`, \"?\", ? /* ? */ -- ?\n, ? # ?")->execute([1, 2]);
        self::assertSame("SELECT '?' AS `a?b`, \"?\", '1' /* ? */ -- ?\n, '2' # ?", $this->connection->queries[0]);
    }

    public function testValuesAreQuotedSafely(): void
    {
        $pdo = $this->pdo();
        $nasty = "a'b\"c\\d\0e\nf\rg\x1Ah ✓ 😀 ?:x -- /*";
        $pdo->prepare('INSERT INTO t VALUES (?)')->execute([$nasty]);
        self::assertSame("INSERT INTO t VALUES ('a\\'b\\\"c\\\\d\\0e\\nf\\rg\\Zh ✓ 😀 ?:x -- /*')", $this->connection->queries[0]);
    }

    public function testParameterTypes(): void
    {
        $pdo = $this->pdo();
        $stmt = $pdo->prepare('SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?');
        $stmt->bindValue(1, 42, \PDO::PARAM_INT);
        $stmt->bindValue(2, '12abc', \PDO::PARAM_INT);
        $stmt->bindValue(3, true, \PDO::PARAM_BOOL);
        $stmt->bindValue(4, 0, \PDO::PARAM_BOOL);
        $stmt->bindValue(5, 'ignored', \PDO::PARAM_NULL);
        $stmt->bindValue(6, null, \PDO::PARAM_STR);
        $stmt->bindValue(7, 1.5);
        $stmt->bindValue(8, false);
        $lob = fopen('php://memory', 'r+');
        self::assertIsResource($lob);
        fwrite($lob, "bin\0'data");
        rewind($lob);
        $stmt->bindValue(9, $lob, \PDO::PARAM_LOB);
        $stmt->execute();
        self::assertSame("SELECT 42, 12, 1, 0, NULL, NULL, '1.5', '', 'bin\\0\\'data'", $this->connection->queries[0]);
    }

    public function testIntegerTypeAppliesToBooleansAtBindTime(): void
    {
        $pdo = $this->pdo();
        $stmt = $pdo->prepare('SELECT ?');
        $stmt->bindValue(1, true, \PDO::PARAM_INT);
        $stmt->execute();
        self::assertSame('SELECT 1', $this->connection->queries[0]);
    }

    public function testBindParamReadsTheVariableAtExecuteTime(): void
    {
        $pdo = $this->pdo();
        $stmt = $pdo->prepare('SELECT :id, :name');
        $id = 1;
        $name = 'first';
        $stmt->bindParam(':id', $id, \PDO::PARAM_INT);
        $stmt->bindParam('name', $name);
        $stmt->execute();
        $id = 2;
        $name = 'second';
        $stmt->execute();
        self::assertSame(["SELECT 1, 'first'", "SELECT 2, 'second'"], $this->connection->queries);
    }

    public function testBindParamAsStringConvertsTheBoundVariable(): void
    {
        $pdo = $this->pdo();
        $stmt = $pdo->prepare('SELECT ?');
        $value = 5;
        $stmt->bindParam(1, $value);
        self::assertSame('5', $value, 'PDO converts a PARAM_STR variable to string when binding it');
    }

    public function testExecuteArrayReplacesEarlierBindings(): void
    {
        $pdo = $this->pdo();
        $stmt = $pdo->prepare('SELECT ?');
        $stmt->bindValue(1, 'bound');
        $stmt->execute(['given']);
        $stmt->execute();
        self::assertSame(["SELECT 'given'", "SELECT 'given'"], $this->connection->queries);
    }

    public function testWithoutBoundValuesPlaceholdersGoToTheServerAsTheyAre(): void
    {
        $pdo = $this->pdo();
        $this->connection->willFail(1064, "You have an error in your SQL syntax; check the manual that corresponds to your MariaDB server version for the right syntax to use near '?' at line 1", '42000');
        $e = self::pdoException(static fn () => $pdo->prepare('SELECT ?')->execute());
        self::assertSame('SELECT ?', $this->connection->queries[0]);
        self::assertSame("SQLSTATE[42000]: Syntax error or access violation: 1064 You have an error in your SQL syntax; check the manual that corresponds to your MariaDB server version for the right syntax to use near '?' at line 1", $e->getMessage());
    }

    public function testWrongNumberOfValues(): void
    {
        $pdo = $this->pdo();
        $stmt = $pdo->prepare('SELECT ?, ?');
        $e = self::pdoException(static fn () => $stmt->execute([1]));
        self::assertSame('SQLSTATE[HY093]: Invalid parameter number: number of bound variables does not match number of tokens', $e->getMessage());
        self::assertSame('HY093', $e->getCode());
        self::assertSame(['HY093', 0], $e->errorInfo);
        self::assertSame('HY093', $stmt->errorCode());
        self::assertSame(['HY093', null, null], $stmt->errorInfo());

        $e = self::pdoException(static fn () => $pdo->prepare('SELECT 1')->execute(['extra']));
        self::assertSame('SQLSTATE[HY093]: Invalid parameter number: number of bound variables does not match number of tokens', $e->getMessage());
        self::assertSame([], $this->connection->queries);
    }

    public function testUndefinedParameter(): void
    {
        $pdo = $this->pdo();
        $e = self::pdoException(static fn () => $pdo->prepare('SELECT :a')->execute(['b' => 1]));
        self::assertSame('SQLSTATE[HY093]: Invalid parameter number: parameter was not defined', $e->getMessage());

        $e = self::pdoException(static fn () => $pdo->prepare('SELECT ?')->execute([1 => 'one-based']));
        self::assertSame('SQLSTATE[HY093]: Invalid parameter number: parameter was not defined', $e->getMessage());
    }

    public function testMixedNamedAndPositional(): void
    {
        $pdo = $this->pdo();
        $stmt = $pdo->prepare('SELECT :a, ?');
        self::assertNotFalse($stmt, 'emulated prepare() does not parse yet');
        $e = self::pdoException(static fn () => $stmt->execute(['a' => 1, 0 => 2]));
        self::assertSame('SQLSTATE[HY093]: Invalid parameter number: mixed named and positional parameters', $e->getMessage());
    }

    public function testInvalidBindArguments(): void
    {
        $stmt = $this->pdo()->prepare('SELECT ?');
        try {
            $stmt->bindValue(0, 'x');
            self::fail('position 0 accepted');
        } catch (\ValueError $e) {
            self::assertSame('PDOStatement::bindValue(): Argument #1 ($param) must be greater than or equal to 1', $e->getMessage());
        }
        $this->expectException(\ValueError::class);
        $this->expectExceptionMessage('PDOStatement::bindValue(): Argument #1 ($param) cannot be empty');
        $stmt->bindValue('', 'x');
    }

    public function testNonStreamResourceAsLob(): void
    {
        $pdo = $this->pdo();
        $stmt = $pdo->prepare('SELECT ?');
        $stmt->bindValue(1, stream_context_create(), \PDO::PARAM_LOB);
        $e = self::pdoException(static fn () => $stmt->execute());
        self::assertSame('SQLSTATE[HY105]: Invalid parameter type: Expected a stream resource', $e->getMessage());

        $closed = fopen('php://memory', 'r');
        self::assertIsResource($closed);
        fclose($closed);
        $stmt->bindValue(1, $closed, \PDO::PARAM_LOB);
        $e = self::pdoException(static fn () => $stmt->execute());
        self::assertSame('SQLSTATE[HY105]: Invalid parameter type: Expected a stream resource', $e->getMessage());
        self::assertSame([], $this->connection->queries);
    }

    public function testDebugDumpParams(): void
    {
        $pdo = $this->pdo();
        $stmt = $pdo->prepare('SELECT :a, :b');
        $stmt->bindValue(':a', 1, \PDO::PARAM_INT);
        $stmt->bindValue('b', 'x');
        $stmt->execute();
        ob_start();
        $stmt->debugDumpParams();
        $dump = ob_get_clean();
        self::assertSame(<<<'DUMP'
            SQL: [13] SELECT :a, :b
            Sent SQL: [13] SELECT 1, 'x'
            Params:  2
            Key: Name: [2] :a
            paramno=-1
            name=[2] ":a"
            is_param=1
            param_type=1
            Key: Name: [2] :b
            paramno=-1
            name=[2] ":b"
            is_param=1
            param_type=2

            DUMP, $dump);

        $stmt = $pdo->prepare('SELECT ?');
        $stmt->bindValue(1, 'x');
        ob_start();
        $stmt->debugDumpParams();
        self::assertSame("SQL: [8] SELECT ?\nParams:  1\nKey: Position #0:\nparamno=0\nname=[0] \"\"\nis_param=1\nparam_type=2\n", ob_get_clean());
    }
}
