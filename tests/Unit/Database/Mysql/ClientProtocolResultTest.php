<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Database\Mysql;

use PHPUnit\Framework\TestCase;
use Spindle\Database\Mysql\Blob;
use Spindle\Database\Mysql\ConnectionConfig;
use Spindle\Database\Mysql\MysqlException;
use Spindle\Database\Mysql\PreparedStatement;
use Spindle\Database\Mysql\Protocol\ClientProtocol;
use Spindle\Database\Mysql\Protocol\ColumnFlag;
use Spindle\Database\Mysql\Protocol\ColumnType as T;
use Spindle\Database\Mysql\Protocol\Phase;
use Spindle\Database\Mysql\Result;

final class ClientProtocolResultTest extends TestCase
{
    /** A session past authentication; $deprecateEof picks the result set terminators. */
    public static function ready(bool $deprecateEof = true, bool $allowLocalInfile = false): ClientProtocol
    {
        $p = new ClientProtocol(new ConnectionConfig(user: 'u', password: 'pw', allowLocalInfile: $allowLocalInfile));
        $upper = $deprecateEof ? 0xDFFF : 0xDEFF;
        $p->push(Wire::packet(Wire::mysql8Handshake('abcdefghijklmnopqrst', 1, '8.0.36', $upper), 0));
        $p->push(Wire::packets(2, "\x01\x03", Wire::ok()));
        $p->takeOutgoing();
        self::assertTrue($p->takeOutcome());

        return $p;
    }

    /** The server's answer to "SELECT id, name, score" with two rows (and optional classic EOFs). */
    public static function textResultBytes(bool $deprecateEof): string
    {
        $payloads = ["\x03", Wire::column('id', T::Long->value), Wire::column('name', T::VarString->value, 0, 0, 45), Wire::column('score', T::Double->value, 0, 31)];
        if (!$deprecateEof) {
            $payloads[] = Wire::eof();
        }
        $payloads[] = Wire::lstr('1') . Wire::lstr('alice') . Wire::lstr('1.5');
        $payloads[] = Wire::lstr('-2') . "\xFB" . Wire::lstr('-0.25');
        $payloads[] = $deprecateEof ? Wire::ok(0, 0, 0x0022, 1, '', "\xFE") : Wire::eof(0x0022, 1);

        return Wire::packets(1, ...$payloads);
    }

    /** @return list<Result> */
    private static function results(ClientProtocol $p): array
    {
        $outcome = $p->takeOutcome();
        self::assertIsArray($outcome);

        return $outcome;
    }

    public function testTextResultSetWithOkTerminator(): void
    {
        $this->assertTextResult(true);
    }

    public function testTextResultSetWithEofPackets(): void
    {
        $this->assertTextResult(false);
    }

    private function assertTextResult(bool $deprecateEof): void
    {
        $p = self::ready($deprecateEof);
        $p->query('SELECT id, name, score FROM t');
        self::assertSame(Wire::packet("\x03SELECT id, name, score FROM t", 0), $p->takeOutgoing());
        self::assertSame(Phase::AwaitingResponse, $p->phase());
        $p->push(self::textResultBytes($deprecateEof));
        self::assertSame(Phase::Ready, $p->phase());
        $results = self::results($p);
        self::assertCount(1, $results);
        self::assertSame(['id', 'name', 'score'], array_map(fn ($c) => $c->name, $results[0]->columns));
        self::assertSame([[1, 'alice', 1.5], [-2, null, -0.25]], $results[0]->rows);
        self::assertSame(1, $results[0]->warnings);
        self::assertSame(0x0022, $results[0]->statusFlags);
        self::assertSame(0x0022, $p->statusFlags());
    }

    public function testOkResult(): void
    {
        $p = self::ready();
        $p->query('INSERT INTO t VALUES (1)');
        $p->push(Wire::packet(Wire::ok(1, 42, 0x0003, 0, ''), 1));
        $results = self::results($p);
        self::assertSame(1, $results[0]->affectedRows);
        self::assertSame(42, $results[0]->lastInsertId);
        self::assertSame([], $results[0]->columns);
        self::assertSame(3, $p->statusFlags());
    }

    public function testServerErrorLeavesTheSessionReady(): void
    {
        $p = self::ready();
        $p->query('SELEC 1');
        $p->takeOutgoing();
        $p->push(Wire::packet(Wire::err(1064, '42000', 'You have an error in your SQL syntax'), 1));
        $error = $p->takeOutcome();
        self::assertInstanceOf(MysqlException::class, $error);
        self::assertSame(1064, $error->errorCode);
        self::assertSame('42000', $error->sqlState);
        self::assertSame(Phase::Ready, $p->phase());
        $p->ping();
        self::assertSame(Wire::packet("\x0E", 0), $p->takeOutgoing());
        $p->push(Wire::packet(Wire::ok(), 1));
        self::assertTrue($p->takeOutcome());
    }

    public function testMultipleResultSets(): void
    {
        foreach ([true, false] as $deprecateEof) {
            $p = self::ready($deprecateEof);
            $p->query('CALL two_results()');
            $more = 0x000A;
            $payloads = ["\x01", Wire::column('a', T::LongLong->value)];
            if (!$deprecateEof) {
                $payloads[] = Wire::eof($more);
            }
            $payloads[] = Wire::lstr('1');
            $payloads[] = $deprecateEof ? Wire::ok(0, 0, $more, 0, '', "\xFE") : Wire::eof($more);
            $payloads[] = "\x01";
            $payloads[] = Wire::column('b', T::VarString->value);
            if (!$deprecateEof) {
                $payloads[] = Wire::eof($more);
            }
            $payloads[] = Wire::lstr('x');
            $payloads[] = Wire::lstr('y');
            $payloads[] = $deprecateEof ? Wire::ok(0, 0, $more, 0, '', "\xFE") : Wire::eof($more);
            $payloads[] = Wire::ok(0, 0, 0x0002);
            $p->push(Wire::packets(1, ...$payloads));
            $results = self::results($p);
            self::assertCount(3, $results);
            self::assertSame([[1]], $results[0]->rows);
            self::assertSame([['x'], ['y']], $results[1]->rows);
            self::assertSame([], $results[2]->columns);
            self::assertSame(Phase::Ready, $p->phase());
        }
    }

    public function testErrorInsideAResultSet(): void
    {
        $p = self::ready();
        $p->query('SELECT ...');
        $p->push(Wire::packets(1, "\x01", Wire::column('a', T::Long->value), Wire::lstr('1'), Wire::err(1317, '70100', 'Query execution was interrupted')));
        $error = $p->takeOutcome();
        self::assertInstanceOf(MysqlException::class, $error);
        self::assertSame(1317, $error->errorCode);
        self::assertSame(Phase::Ready, $p->phase());
    }

    public function testLocalInfileIsRefusedWithAnEmptyPacket(): void
    {
        $p = self::ready();
        $p->query("LOAD DATA LOCAL INFILE '/etc/passwd' INTO TABLE t");
        $p->takeOutgoing();
        $p->push(Wire::packet("\xFB/etc/passwd", 1));
        self::assertSame(Wire::packet('', 2), $p->takeOutgoing());
        self::assertSame(Phase::AwaitingResponse, $p->phase());
        $p->push(Wire::packet(Wire::ok(), 3));
        $error = $p->takeOutcome();
        self::assertInstanceOf(MysqlException::class, $error);
        self::assertSame(2068, $error->errorCode);
        self::assertStringStartsWith('LOAD DATA LOCAL INFILE is forbidden', $error->getMessage(), "mysqlnd's text");
        self::assertSame(Phase::Ready, $p->phase());
    }

    public function testLocalInfileWhenAllowed(): void
    {
        $p = self::ready(true, true);
        $p->query("LOAD DATA LOCAL INFILE 'data.csv' INTO TABLE t");
        $p->takeOutgoing();
        $p->push(Wire::packet("\xFBdata.csv", 1));
        self::assertSame(Phase::LocalInfileRequested, $p->phase());
        self::assertSame('data.csv', $p->localInfileName());
        $p->sendLocalInfile("1,a\n2,b\n");
        self::assertSame(Wire::packets(2, "1,a\n2,b\n", ''), $p->takeOutgoing());
        $p->push(Wire::packet(Wire::ok(2, 0, 2, 0, Wire::lstr('Records: 2  Deleted: 0  Skipped: 0  Warnings: 0')), 4));
        self::assertSame(2, self::results($p)[0]->affectedRows);
    }

    public function testTextValueTyping(): void
    {
        $p = self::ready();
        $p->query('SELECT …');
        $columns = [
            Wire::column('u64', T::LongLong->value, ColumnFlag::UNSIGNED),
            Wire::column('i64min', T::LongLong->value),
            Wire::column('zerofill', T::Long->value, ColumnFlag::UNSIGNED | ColumnFlag::ZEROFILL),
            Wire::column('year', T::Year->value, ColumnFlag::UNSIGNED),
            Wire::column('dec', T::NewDecimal->value, 0, 2),
            Wire::column('f', T::Float->value, 0, 31),
            Wire::column('bit', T::Bit->value, ColumnFlag::UNSIGNED),
            Wire::column('dt', T::DateTime->value, 0, 6),
            Wire::column('null', T::Null->value),
            Wire::column('tiny', T::Tiny->value),
            Wire::column('json', T::Blob->value, ColumnFlag::BLOB, 0, 45),
        ];
        $row = Wire::lstr('18446744073709551615') . Wire::lstr('-9223372036854775808') . Wire::lstr('0005') . Wire::lstr('2024')
            . Wire::lstr('-12.50') . Wire::lstr('1.1') . Wire::lstr("\x01\x02") . Wire::lstr('2024-02-29 23:59:59.000001')
            . "\xFB" . Wire::lstr('-128') . Wire::lstr('{"a":1}');
        $p->push(Wire::packets(1, \chr(\count($columns)), ...[...$columns, $row, Wire::ok(0, 0, 2, 0, '', "\xFE")]));
        self::assertSame(
            [['18446744073709551615', PHP_INT_MIN, 5, 2024, '-12.50', 1.1, "\x01\x02", '2024-02-29 23:59:59.000001', null, -128, '{"a":1}']],
            self::results($p)[0]->rows,
        );
    }

    public function testRowWithAValueOver16MiBIsNotATerminator(): void
    {
        $p = self::ready();
        $p->query('SELECT big');
        $value = str_repeat('v', (1 << 24) + 5);
        $row = Wire::lstr($value);
        self::assertSame("\xFE", $row[0]);
        $bytes = Wire::packets(1, "\x01", Wire::column('big', T::LongBlob->value, ColumnFlag::BLOB));
        $bytes .= Wire::packet(substr($row, 0, 0xFFFFFF), 3) . Wire::packet(substr($row, 0xFFFFFF), 4);
        $bytes .= Wire::packet(Wire::ok(0, 0, 2, 0, '', "\xFE"), 5);
        $p->push($bytes);
        $results = self::results($p);
        self::assertSame($value, $results[0]->rows[0][0]);
    }

    public function testPrepare(): void
    {
        foreach ([true, false] as $deprecateEof) {
            $p = self::ready($deprecateEof);
            $p->prepare('SELECT name FROM t WHERE id = ? AND x = ?');
            self::assertSame(Wire::packet("\x16SELECT name FROM t WHERE id = ? AND x = ?", 0), $p->takeOutgoing());
            $payloads = ["\x00" . Wire::le(7, 4) . Wire::le(1, 2) . Wire::le(2, 2) . "\x00" . Wire::le(0, 2), Wire::column('?', T::Null->value), Wire::column('?', T::Null->value)];
            if (!$deprecateEof) {
                $payloads[] = Wire::eof();
            }
            $payloads[] = Wire::column('name', T::VarString->value);
            if (!$deprecateEof) {
                $payloads[] = Wire::eof();
            }
            $p->push(Wire::packets(1, ...$payloads));
            $statement = $p->takeOutcome();
            self::assertInstanceOf(PreparedStatement::class, $statement);
            self::assertSame(7, $statement->id);
            self::assertCount(2, $statement->params);
            self::assertSame('name', $statement->columns[0]->name);
            self::assertSame('SELECT name FROM t WHERE id = ? AND x = ?', $statement->sql);
            self::assertSame(Phase::Ready, $p->phase());
        }
    }

    public function testPrepareWithoutParamsOrColumns(): void
    {
        $p = self::ready();
        $p->prepare('DO 1');
        $p->push(Wire::packet("\x00" . Wire::le(3, 4) . "\0\0\0\0\0\0\0", 1));
        $statement = $p->takeOutcome();
        self::assertInstanceOf(PreparedStatement::class, $statement);
        self::assertSame([], $statement->params);
        self::assertSame([], $statement->columns);
    }

    public function testExecuteRequestBytes(): void
    {
        $p = self::ready();
        $statement = new PreparedStatement(9, 'INSERT …', array_fill(0, 9, self::nullColumn()), []);
        $p->execute($statement, [1, null, 'héllo', 1.5, true, -2, null, new Blob("\x00\xFF"), false]);
        $expected = "\x17" . Wire::le(9, 4) . "\x00" . Wire::le(1, 4)
            . "\x42\x00" // NULL bitmap: params 1 and 6
            . "\x01"
            . "\x08\x00" . "\x06\x00" . "\xFD\x00" . "\x05\x00" . "\x01\x00" . "\x08\x00" . "\x06\x00" . "\xFB\x00" . "\x01\x00"
            . Wire::le(1, 8) . Wire::lstr('héllo') . pack('e', 1.5) . "\x01" . "\xFE\xFF\xFF\xFF\xFF\xFF\xFF\xFF" . Wire::lstr("\x00\xFF") . "\x00";
        self::assertSame(Wire::packet($expected, 0), $p->takeOutgoing());
    }

    public function testExecuteWithoutParams(): void
    {
        $p = self::ready();
        $p->execute(new PreparedStatement(2, 'SELECT 1', [], []), []);
        self::assertSame(Wire::packet("\x17\x02\x00\x00\x00\x00\x01\x00\x00\x00", 0), $p->takeOutgoing());
    }

    public function testWrongParameterCountIsRefusedBeforeSending(): void
    {
        $p = self::ready();
        try {
            $p->execute(new PreparedStatement(2, 'SELECT ?', [self::nullColumn()], []), []);
            self::fail('expected MysqlException');
        } catch (MysqlException $e) {
            self::assertSame(2031, $e->errorCode);
        }
        try {
            $p->execute(new PreparedStatement(2, 'SELECT ?', [self::nullColumn()], []), [new \stdClass()]);
            self::fail('expected MysqlException');
        } catch (MysqlException $e) {
            self::assertSame(2036, $e->errorCode);
        }
        self::assertSame('', $p->takeOutgoing());
        self::assertSame(Phase::Ready, $p->phase());
    }

    public function testExecuteReadsBinaryRows(): void
    {
        $p = self::ready();
        $p->execute(new PreparedStatement(1, 'SELECT a, b', [], []), []);
        $p->takeOutgoing();
        $p->push(Wire::packets(
            1,
            "\x02",
            Wire::column('a', T::Long->value),
            Wire::column('b', T::VarString->value),
            "\x00\x00" . Wire::le(-5 & 0xFFFFFFFF, 4) . Wire::lstr('x'),
            "\x00\x08" . Wire::le(7, 4),
            Wire::ok(0, 0, 2, 0, '', "\xFE"),
        ));
        self::assertSame([[-5, 'x'], [7, null]], self::results($p)[0]->rows);
    }

    public function testCloseStatementHasNoResponse(): void
    {
        $p = self::ready();
        $p->closeStatement(5);
        self::assertSame(Wire::packet("\x19\x05\x00\x00\x00", 0), $p->takeOutgoing());
        self::assertSame(Phase::Ready, $p->phase());
    }

    public function testCommandsOutOfPhaseAreLogicErrors(): void
    {
        $p = self::ready();
        $p->query('SELECT 1');
        $this->expectException(\LogicException::class);
        $p->query('SELECT 2');
    }

    public function testUnexpectedPacketWhileIdleBreaksTheSession(): void
    {
        $p = self::ready();
        try {
            $p->push(Wire::packet(Wire::ok(), 0));
            self::fail('expected MysqlException');
        } catch (MysqlException $e) {
            self::assertSame(2027, $e->errorCode);
        }
        self::assertSame(Phase::Broken, $p->phase());
        $this->expectException(MysqlException::class);
        $p->push('');
    }

    public function testDescribeUnsolicitedErr(): void
    {
        $e = ClientProtocol::describeUnsolicited(Wire::packet(Wire::err(1927, '70100', 'Connection was killed'), 0));
        self::assertNotNull($e);
        self::assertSame(1927, $e->errorCode);
        self::assertNull(ClientProtocol::describeUnsolicited("\x01\x00"));
    }

    private static function nullColumn(): \Spindle\Database\Mysql\ColumnDefinition
    {
        return new \Spindle\Database\Mysql\ColumnDefinition('def', '', '', '', '?', '', 63, 0, T::Null->value, 0, 0);
    }
}
