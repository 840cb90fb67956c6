<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Database\Mysql;

use PHPUnit\Framework\TestCase;
use Spindle\Database\Mysql\ColumnDefinition;
use Spindle\Database\Mysql\MysqlException;
use Spindle\Database\Mysql\Protocol\ColumnFlag;
use Spindle\Database\Mysql\Protocol\ColumnType as T;
use Spindle\Database\Mysql\Protocol\RowDecoder;

final class BinaryRowTest extends TestCase
{
    private static function col(T $type, int $flags = 0, int $decimals = 0): ColumnDefinition
    {
        return new ColumnDefinition('def', 'db', 't', 't', 'c', 'c', 63, 0, $type->value, $flags, $decimals);
    }

    /** One non-NULL value in a one-column binary row (bitmap: 1 byte). */
    private static function one(ColumnDefinition $column, string $valueBytes): int|float|string|null
    {
        $row = RowDecoder::binaryRow("\x00\x00" . $valueBytes, [$column]);
        self::assertCount(1, $row);

        return $row[0];
    }

    /** @return iterable<string, array{ColumnDefinition, string, int|float|string|null}> */
    public static function values(): iterable
    {
        $u = ColumnFlag::UNSIGNED;
        yield 'TINY signed' => [self::col(T::Tiny), "\xFF", -1];
        yield 'TINY signed min' => [self::col(T::Tiny), "\x80", -128];
        yield 'TINY unsigned' => [self::col(T::Tiny, $u), "\xFF", 255];
        yield 'SHORT signed' => [self::col(T::Short), "\x00\x80", -32768];
        yield 'SHORT unsigned' => [self::col(T::Short, $u), "\xFF\xFF", 65535];
        yield 'INT24 signed' => [self::col(T::Int24), "\x00\x00\x80\xFF", -8388608];
        yield 'INT24 unsigned' => [self::col(T::Int24, $u), "\xFF\xFF\xFF\x00", 16777215];
        yield 'LONG signed' => [self::col(T::Long), "\x00\x00\x00\x80", -2147483648];
        yield 'LONG unsigned' => [self::col(T::Long, $u), "\xFF\xFF\xFF\xFF", 4294967295];
        yield 'LONGLONG signed' => [self::col(T::LongLong), "\x00\x00\x00\x00\x00\x00\x00\x80", PHP_INT_MIN];
        yield 'LONGLONG unsigned small' => [self::col(T::LongLong, $u), "\x05\0\0\0\0\0\0\0", 5];
        yield 'LONGLONG unsigned max int' => [self::col(T::LongLong, $u), "\xFF\xFF\xFF\xFF\xFF\xFF\xFF\x7F", PHP_INT_MAX];
        yield 'LONGLONG unsigned > PHP_INT_MAX' => [self::col(T::LongLong, $u), str_repeat("\xFF", 8), '18446744073709551615'];
        yield 'YEAR' => [self::col(T::Year, $u), "\xE8\x07", 2024];
        yield 'FLOAT not fixed' => [self::col(T::Float, 0, 31), pack('g', 1.1), 1.1];
        yield 'FLOAT not fixed (MariaDB 39)' => [self::col(T::Float, 0, 39), pack('g', 123456.7), 123457.0];
        yield 'FLOAT 2 decimals' => [self::col(T::Float, 0, 2), pack('g', 3.14159), 3.14];
        yield 'DOUBLE' => [self::col(T::Double, 0, 31), pack('e', 0.1), 0.1];
        yield 'DOUBLE negative' => [self::col(T::Double, 0, 31), pack('e', -1.5e300), -1.5e300];
        yield 'NEWDECIMAL' => [self::col(T::NewDecimal, 0, 2), Wire::lstr('-15.50'), '-15.50'];
        yield 'DECIMAL' => [self::col(T::Decimal, 0, 0), Wire::lstr('12345678901234567890'), '12345678901234567890'];
        yield 'DATE' => [self::col(T::Date), "\x04\xE8\x07\x02\x1D", '2024-02-29'];
        yield 'DATE zero' => [self::col(T::Date), "\x00", '0000-00-00'];
        yield 'DATETIME zero' => [self::col(T::DateTime), "\x00", '0000-00-00 00:00:00'];
        yield 'DATETIME date only' => [self::col(T::DateTime), "\x04\xE8\x07\x02\x1D", '2024-02-29 00:00:00'];
        yield 'DATETIME seconds' => [self::col(T::DateTime), "\x07\xE8\x07\x02\x1D\x0D\x0E\x0F", '2024-02-29 13:14:15'];
        yield 'DATETIME(3) whole seconds' => [self::col(T::DateTime, 0, 3), "\x07\xE8\x07\x02\x1D\x0D\x0E\x0F", '2024-02-29 13:14:15.000'];
        yield 'TIMESTAMP seconds' => [self::col(T::Timestamp), "\x07\xD0\x07\x0C\x1F\x17\x3B\x3B", '2000-12-31 23:59:59'];
        yield 'DATETIME year below 1000' => [self::col(T::DateTime), "\x07\x09\x00\x01\x02\x03\x04\x05", '0009-01-02 03:04:05'];
        yield 'DATE with a time part' => [self::col(T::Date), "\x07\xE8\x07\x02\x1D\x0D\x0E\x0F", '2024-02-29'];
        yield 'DATETIME(6) micros' => [self::col(T::DateTime, 0, 6), "\x0B\xE8\x07\x02\x1D\x0D\x0E\x0F" . Wire::le(123456, 4), '2024-02-29 13:14:15.123456'];
        yield 'DATETIME(6) without micros on the wire' => [self::col(T::DateTime, 0, 6), "\x07\xE8\x07\x02\x1D\x0D\x0E\x0F", '2024-02-29 13:14:15.000000'];
        yield 'DATETIME(3)' => [self::col(T::DateTime, 0, 3), "\x0B\xE8\x07\x02\x1D\x0D\x0E\x0F" . Wire::le(123000, 4), '2024-02-29 13:14:15.123'];
        yield 'DATETIME(1) small fraction' => [self::col(T::DateTime, 0, 1), "\x0B\xE8\x07\x02\x1D\x0D\x0E\x0F" . Wire::le(50000, 4), '2024-02-29 13:14:15.0'];
        yield 'DATETIME no decimals drops micros' => [self::col(T::DateTime), "\x0B\xE8\x07\x02\x1D\x0D\x0E\x0F" . Wire::le(1, 4), '2024-02-29 13:14:15'];
        yield 'TIMESTAMP' => [self::col(T::Timestamp, ColumnFlag::TIMESTAMP), "\x07\xB2\x07\x01\x01\x00\x00\x01", '1970-01-01 00:00:01'];
        yield 'TIME zero' => [self::col(T::Time), "\x00", '00:00:00'];
        yield 'TIME' => [self::col(T::Time), "\x08\x00" . Wire::le(0, 4) . "\x0C\x22\x38", '12:34:56'];
        yield 'TIME negative with days' => [self::col(T::Time), "\x08\x01" . Wire::le(1, 4) . "\x02\x03\x04", '-26:03:04'];
        yield 'TIME(2) negative extreme' => [self::col(T::Time, 0, 2), "\x0C\x01" . Wire::le(34, 4) . "\x16\x3B\x3B" . Wire::le(500000, 4), '-838:59:59.50'];
        yield 'TIME(6)' => [self::col(T::Time, 0, 6), "\x0C\x00" . Wire::le(0, 4) . "\x00\x00\x01" . Wire::le(5, 4), '00:00:01.000005'];
        yield 'BIT' => [self::col(T::Bit, $u), Wire::lstr("\x01\x02"), "\x01\x02"];
        yield 'VARCHAR' => [self::col(T::VarString), Wire::lstr('héllo'), 'héllo'];
        yield 'STRING' => [self::col(T::String), Wire::lstr('abc'), 'abc'];
        yield 'BLOB' => [self::col(T::Blob, ColumnFlag::BLOB | ColumnFlag::BINARY), Wire::lstr("\x00\xFF\x00"), "\x00\xFF\x00"];
        yield 'LONG BLOB' => [self::col(T::LongBlob, ColumnFlag::BLOB), Wire::lstr(str_repeat('z', 300)), str_repeat('z', 300)];
        yield 'JSON' => [self::col(T::Json), Wire::lstr('{"a": [1, 2]}'), '{"a": [1, 2]}'];
        yield 'ENUM' => [self::col(T::String, ColumnFlag::ENUM), Wire::lstr('red'), 'red'];
        yield 'SET' => [self::col(T::String, ColumnFlag::SET), Wire::lstr('a,b'), 'a,b'];
        yield 'GEOMETRY' => [self::col(T::Geometry, ColumnFlag::BLOB | ColumnFlag::BINARY), Wire::lstr("\0\0\0\0\x01\x01\0\0\0"), "\0\0\0\0\x01\x01\0\0\0"];
    }

    /** @dataProvider values */
    public function testValue(ColumnDefinition $column, string $bytes, int|float|string|null $expected): void
    {
        self::assertSame($expected, self::one($column, $bytes));
    }

    public function testNullBitmapStartsAtBitTwo(): void
    {
        $columns = array_fill(0, 20, self::col(T::Tiny));
        $nulls = [0, 5, 6, 13, 19];
        $bitmap = [0, 0, 0];
        foreach ($nulls as $i) {
            $bitmap[($i + 2) >> 3] |= 1 << (($i + 2) & 7);
        }
        self::assertSame([0x84, 0x81, 0x20], $bitmap);
        $values = '';
        $expected = [];
        for ($i = 0; $i < 20; ++$i) {
            if (\in_array($i, $nulls, true)) {
                $expected[] = null;
            } else {
                $values .= \chr($i);
                $expected[] = $i;
            }
        }
        $payload = "\x00" . \chr($bitmap[0]) . \chr($bitmap[1]) . \chr($bitmap[2]) . $values;
        self::assertSame($expected, RowDecoder::binaryRow($payload, $columns));
    }

    public function testSixAndSevenColumnsNeedOneAndTwoBitmapBytes(): void
    {
        self::assertSame(array_fill(0, 6, null), RowDecoder::binaryRow("\x00\xFC", array_fill(0, 6, self::col(T::Long))));
        self::assertSame(array_fill(0, 7, null), RowDecoder::binaryRow("\x00\xFC\x01", array_fill(0, 7, self::col(T::Long))));
    }

    /** @return iterable<string, array{string, ColumnDefinition}> */
    public static function malformed(): iterable
    {
        yield 'bad header' => ["\x01\x00\x05", self::col(T::Tiny)];
        yield 'truncated LONG' => ["\x00\x00\x01\x02", self::col(T::Long)];
        yield 'trailing bytes' => ["\x00\x00\x01\x02", self::col(T::Tiny)];
        yield 'DATETIME of 5 bytes' => ["\x00\x00\x05\x01\x02\x03\x04\x05", self::col(T::DateTime)];
        yield 'TIME of 7 bytes' => ["\x00\x00\x07\x01\x02\x03\x04\x05\x06\x07", self::col(T::Time)];
        yield 'string past the end' => ["\x00\x00\x09abc", self::col(T::VarString)];
        yield 'missing bitmap' => ["\x00", self::col(T::VarString)];
    }

    /** @dataProvider malformed */
    public function testMalformedRows(string $payload, ColumnDefinition $column): void
    {
        try {
            RowDecoder::binaryRow($payload, [$column]);
            self::fail('expected MysqlException');
        } catch (MysqlException $e) {
            self::assertSame(2027, $e->errorCode);
        }
    }
}
