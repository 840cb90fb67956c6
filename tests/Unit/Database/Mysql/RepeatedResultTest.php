<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Database\Mysql;

use PHPUnit\Framework\TestCase;
use Spindle\Database\Mysql\MysqlException;
use Spindle\Database\Mysql\Protocol\ClientProtocol;
use Spindle\Database\Mysql\Protocol\ColumnFlag;
use Spindle\Database\Mysql\Protocol\ColumnType as T;
use Spindle\Database\Mysql\Protocol\Phase;
use Spindle\Database\Mysql\Protocol\RowDecoder;
use Spindle\Database\Mysql\Result;

/**
 * A statement run again gets the same column definitions: the session takes them from what it
 * remembers. These tests run the same session through many results whose columns repeat,
 * change, or arrive split anywhere, and check every one decodes as the first did.
 */
final class RepeatedResultTest extends TestCase
{
    /**
     * @param array<int, string> $columns column definition payloads
     * @param list<list<string|null>> $rows
     */
    private static function answer(array $columns, array $rows, bool $deprecateEof = true): string
    {
        $payloads = [\chr(\count($columns)), ...$columns];
        if (!$deprecateEof) {
            $payloads[] = Wire::eof();
        }
        foreach ($rows as $row) {
            $payloads[] = implode('', array_map(static fn (?string $v): string => $v === null ? "\xFB" : Wire::lstr($v), $row));
        }
        $payloads[] = $deprecateEof ? Wire::ok(0, 0, 0x0002, 0, '', "\xFE") : Wire::eof(0x0002);

        return Wire::packets(1, ...$payloads);
    }

    /** @return list<string> */
    private static function userColumns(string $table = 't'): array
    {
        $column = static fn (string $name, int $type, int $flags = 0): string => Wire::lstr('def') . Wire::lstr('db') . Wire::lstr($table)
            . Wire::lstr($table) . Wire::lstr($name) . Wire::lstr($name) . "\x0C" . Wire::le(45, 2) . Wire::le(11, 4)
            . \chr($type) . Wire::le($flags, 2) . "\0\0\0";

        return [
            $column('id', T::Long->value, ColumnFlag::UNSIGNED),
            $column('name', T::VarString->value),
            $column('score', T::Double->value),
            $column('big', T::LongLong->value, ColumnFlag::UNSIGNED),
        ];
    }

    /** @param list<string> $chunks */
    private static function runQuery(ClientProtocol $p, array $chunks): Result
    {
        $p->query('SELECT id, name, score, big FROM t');
        $p->takeOutgoing();
        foreach ($chunks as $chunk) {
            $p->push($chunk);
        }
        self::assertSame(Phase::Ready, $p->phase());
        $outcome = $p->takeOutcome();
        self::assertIsArray($outcome);
        self::assertCount(1, $outcome);

        return $outcome[0];
    }

    /** @return array<string, array{bool}> */
    public static function terminators(): array
    {
        return ['OK terminator' => [true], 'EOF packets' => [false]];
    }

    /** @dataProvider terminators */
    public function testTheSameColumnsAgainDecodeTheSameWholeSplitAndByteByByte(bool $deprecateEof): void
    {
        $p = ClientProtocolResultTest::ready($deprecateEof);
        $rows = [['1', 'alice', '1.5', '18446744073709551615'], ['4294967295', null, '-0.25', '9223372036854775807']];
        $expected = [[1, 'alice', 1.5, '18446744073709551615'], [4294967295, null, -0.25, PHP_INT_MAX]];
        $bytes = self::answer(self::userColumns(), $rows, $deprecateEof);

        $first = self::runQuery($p, [$bytes]);
        self::assertSame($expected, $first->rows);
        $names = array_map(static fn ($c) => $c->name, $first->columns);
        self::assertSame(['id', 'name', 'score', 'big'], $names);

        $splits = [[$bytes], str_split($bytes)];
        for ($seed = 1; $seed <= 20; ++$seed) {
            $splits[] = Wire::randomSplit($bytes, $seed, 40);
        }
        foreach ($splits as $i => $chunks) {
            $again = self::runQuery($p, $chunks);
            self::assertSame($expected, $again->rows, "split $i");
            self::assertEquals($first->columns, $again->columns, "split $i");
        }
    }

    public function testColumnsOfTheSameCountButAnotherTableAreNotMistaken(): void
    {
        $p = ClientProtocolResultTest::ready();
        $rows = [['7', 'bob', '2', '3']];
        self::runQuery($p, [self::answer(self::userColumns('t'), $rows)]);
        $other = self::runQuery($p, [self::answer(self::userColumns('u'), $rows)]);
        self::assertSame('u', $other->columns[0]->table);
        self::assertSame([[7, 'bob', 2.0, 3]], $other->rows);

        // The names differ, types the same length: another set, the name must follow.
        $renamed = self::userColumns('t');
        $renamed[1] = str_replace(Wire::lstr('name') . Wire::lstr('name'), Wire::lstr('nick') . Wire::lstr('nick'), $renamed[1]);
        $third = self::runQuery($p, [self::answer($renamed, $rows)]);
        self::assertSame('nick', $third->columns[1]->name);
        self::assertSame('t', self::runQuery($p, [self::answer(self::userColumns('t'), $rows)])->columns[0]->table);
    }

    public function testAColumnTypeChangeIsSeen(): void
    {
        $p = ClientProtocolResultTest::ready();
        $rows = [['0042', 'x', '1', '2']];
        self::assertSame(42, self::runQuery($p, [self::answer(self::userColumns(), $rows)])->rows[0][0]);
        $asText = self::userColumns();
        $asText[0] = str_replace(\chr(T::Long->value) . Wire::le(ColumnFlag::UNSIGNED, 2), \chr(T::VarString->value) . Wire::le(0, 2), $asText[0]);
        self::assertSame('0042', self::runQuery($p, [self::answer($asText, $rows)])->rows[0][0]);
    }

    public function testManyDifferentColumnSetsKeepDecodingCorrectly(): void
    {
        $p = ClientProtocolResultTest::ready();
        for ($round = 0; $round < 3; ++$round) {
            for ($i = 0; $i < 40; ++$i) {
                $result = self::runQuery($p, [self::answer(self::userColumns("t$i"), [[(string) $i, "n$i", '0.5', '1']])]);
                self::assertSame("t$i", $result->columns[0]->table);
                self::assertSame([[$i, "n$i", 0.5, 1]], $result->rows);
            }
        }
    }

    public function testAnErrorAmongTheRowsEndsTheCommandAndTheSessionGoesOn(): void
    {
        $p = ClientProtocolResultTest::ready();
        $columns = self::userColumns();
        $p->query('SELECT 1');
        $p->takeOutgoing();
        $p->push(Wire::packets(1, "\x04", ...[...$columns, Wire::lstr('1') . Wire::lstr('a') . Wire::lstr('1') . Wire::lstr('1'), Wire::err(1317, '70100', 'Query execution was interrupted')]));
        $outcome = $p->takeOutcome();
        self::assertInstanceOf(MysqlException::class, $outcome);
        self::assertSame(1317, $outcome->errorCode);
        self::assertSame(Phase::Ready, $p->phase());
        self::assertSame([[5, 'b', 1.0, 2]], self::runQuery($p, [self::answer($columns, [['5', 'b', '1', '2']])])->rows);
    }

    public function testARepeatedSetFollowedByAShortRowIsStillMalformed(): void
    {
        $p = ClientProtocolResultTest::ready();
        $columns = self::userColumns();
        self::runQuery($p, [self::answer($columns, [['1', 'a', '1', '1']])]);
        $p->query('SELECT 1');
        $p->takeOutgoing();
        $this->expectException(MysqlException::class);
        $this->expectExceptionCode(2027);
        try {
            $p->push(Wire::packets(1, "\x04", ...[...$columns, Wire::lstr('1') . Wire::lstr('a')]));
        } finally {
            self::assertSame(Phase::Broken, $p->phase());
        }
    }

    /** @return array<string, array{string, list<int>, list<int|float|string|null>}> */
    public static function textRows(): array
    {
        $i = RowDecoder::TEXT_INTEGER;
        $s = RowDecoder::TEXT_STRING;
        $f = RowDecoder::TEXT_FLOAT;
        $n = RowDecoder::TEXT_NULL;

        return [
            'integers' => [Wire::lstr('0') . Wire::lstr('-7') . Wire::lstr('123456789012345678'), [$i, $i, $i], [0, -7, 123456789012345678]],
            'zero-padded and signed integers stay exact' => [Wire::lstr('007') . Wire::lstr('+5') . Wire::lstr('-0'), [$i, $i, $i], [7, '+5', 0]],
            'integers at and beyond the limits' => [Wire::lstr('9223372036854775807') . Wire::lstr('-9223372036854775808') . Wire::lstr('9223372036854775808'), [$i, $i, $i], [PHP_INT_MAX, PHP_INT_MIN, '9223372036854775808']],
            'not an integer in an integer column' => [Wire::lstr('12a') . Wire::lstr(''), [$i, $i], ['12a', '']],
            'floats' => [Wire::lstr('1.5e3') . Wire::lstr('-0') . Wire::lstr('nan?'), [$f, $f, $f], [1500.0, -0.0, 'nan?']],
            'null type and NULL marker' => [Wire::lstr('x') . "\xFB" . "\xFB", [$n, $s, $i], [null, null, null]],
            'two- and three-byte lengths' => [Wire::lstr(str_repeat('a', 300)) . Wire::lstr(str_repeat('b', 70000)), [$s, $s], [str_repeat('a', 300), str_repeat('b', 70000)]],
            'empty strings' => [Wire::lstr('') . Wire::lstr(''), [$s, $f], ['', '']],
        ];
    }

    /**
     * @dataProvider textRows
     *
     * @param list<int> $kinds
     * @param list<int|float|string|null> $expected
     */
    public function testTextRowValues(string $payload, array $kinds, array $expected): void
    {
        self::assertSame($expected, RowDecoder::textRowOfKinds($payload, $kinds));
    }

    /** @return array<string, array{string, int}> */
    public static function malformedTextRows(): array
    {
        return [
            'empty' => ['', 1],
            'length past the end' => ["\x05abc", 1],
            'truncated two-byte length' => ["\xFC\x01", 1],
            'truncated three-byte length' => ["\xFD\x01\x00", 1],
            'truncated eight-byte length' => ["\xFE\x01\x00\x00\x00", 1],
            'eight-byte length beyond the row' => ["\xFE\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF", 1],
            'invalid prefix' => ["\xFF", 1],
            'bytes after the last column' => ["\x01a\x00", 1],
            'too few columns' => ["\x01a", 2],
        ];
    }

    /** @dataProvider malformedTextRows */
    public function testMalformedTextRowsRaise2027(string $payload, int $columns): void
    {
        try {
            RowDecoder::textRowOfKinds($payload, array_fill(0, $columns, RowDecoder::TEXT_STRING));
            self::fail('expected MysqlException');
        } catch (MysqlException $e) {
            self::assertSame(2027, $e->errorCode);
        }
    }

    public function testTextRowAndKindsAgree(): void
    {
        $columns = [
            RowDecoder::columnDefinition(Wire::column('a', T::Tiny->value)),
            RowDecoder::columnDefinition(Wire::column('b', T::Year->value)),
            RowDecoder::columnDefinition(Wire::column('c', T::Float->value)),
            RowDecoder::columnDefinition(Wire::column('d', T::NewDecimal->value)),
            RowDecoder::columnDefinition(Wire::column('e', 0x77)),
        ];
        $payload = Wire::lstr('-1') . Wire::lstr('2024') . Wire::lstr('0.5') . Wire::lstr('1.50') . Wire::lstr('9');
        self::assertSame([-1, 2024, 0.5, '1.50', '9'], RowDecoder::textRow($payload, $columns));
    }
}
