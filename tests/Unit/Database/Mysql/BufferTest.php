<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Database\Mysql;

use PHPUnit\Framework\TestCase;
use Spindle\Database\Mysql\MysqlException;
use Spindle\Database\Mysql\Protocol\Buffer;

final class BufferTest extends TestCase
{
    public function testFixedLengthIntegersAreLittleEndian(): void
    {
        $b = new Buffer("\x01" . "\x02\x01" . "\x03\x02\x01" . "\x04\x03\x02\x81" . "\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF");
        self::assertSame(1, $b->int1());
        self::assertSame(0x0102, $b->int2());
        self::assertSame(0x010203, $b->int3());
        self::assertSame(0x81020304, $b->int4());
        self::assertSame(-1, $b->int8());
        self::assertTrue($b->atEnd());
    }

    public function testLengthEncodedIntegersInEveryForm(): void
    {
        $b = new Buffer("\xFA" . "\xFC\xFB\x00" . "\xFD\x00\x00\x01" . "\xFE\x00\x00\x00\x00\x01\x00\x00\x00");
        self::assertSame(250, $b->lenencInt());
        self::assertSame(251, $b->lenencInt());
        self::assertSame(0x010000, $b->lenencInt());
        self::assertSame(1 << 32, $b->lenencInt());
    }

    public function testUnsignedAbovePhpIntMaxIsANumericString(): void
    {
        $b = new Buffer("\xFE" . str_repeat("\xFF", 8) . "\xFE" . "\x00\x00\x00\x00\x00\x00\x00\x80");
        self::assertSame('18446744073709551615', $b->lenencUnsigned());
        self::assertSame('9223372036854775808', $b->lenencUnsigned());
    }

    public function testLengthOutOfRangeIsMalformed(): void
    {
        $this->expectMalformed(fn () => (new Buffer("\xFE" . str_repeat("\xFF", 8)))->lenencInt());
        $this->expectMalformed(fn () => (new Buffer("\xFF"))->lenencInt());
    }

    public function testStrings(): void
    {
        $b = new Buffer("\x03abc" . "\xFB" . "name\0" . "tail");
        self::assertSame('abc', $b->lenencString());
        self::assertNull($b->lenencStringOrNull());
        self::assertSame('name', $b->nulString());
        self::assertSame('tail', $b->rest());
        self::assertSame('', $b->rest());
    }

    public function testReadingPastTheEndIsMalformed(): void
    {
        $this->expectMalformed(fn () => (new Buffer("\x01"))->int2());
        $this->expectMalformed(fn () => (new Buffer("\x05abc"))->lenencString());
        $this->expectMalformed(fn () => (new Buffer('no nul'))->nulString());
        $this->expectMalformed(fn () => (new Buffer(''))->int1());
        $this->expectMalformed(fn () => (new Buffer("\xFC\x01"))->lenencInt());
    }

    public function testWritersMatchTheReaders(): void
    {
        foreach ([0, 250, 251, 65535, 65536, 0xFFFFFF, 0x1000000, PHP_INT_MAX] as $value) {
            self::assertSame(Wire::lenenc($value), Buffer::writeLenencInt($value));
            self::assertSame($value, (new Buffer(Buffer::writeLenencInt($value)))->lenencInt());
        }
        self::assertSame("\x02\x01", Buffer::writeInt2(0x0102));
        self::assertSame("\x03\x02\x01", Buffer::writeInt3(0x010203));
        self::assertSame("\x04\x03\x02\x01", Buffer::writeInt4(0x01020304));
        self::assertSame(str_repeat("\xFF", 8), Buffer::writeInt8(-1));
        self::assertSame("\x03abc", Buffer::writeLenencString('abc'));
    }

    private function expectMalformed(\Closure $read): void
    {
        try {
            $read();
            self::fail('expected a MysqlException');
        } catch (MysqlException $e) {
            self::assertSame(2027, $e->errorCode);
        }
    }
}
