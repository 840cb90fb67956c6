<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Database\Mysql;

use PHPUnit\Framework\TestCase;
use Spindle\Database\Mysql\MysqlException;
use Spindle\Database\Mysql\Protocol\PacketReader;

final class PacketReaderTest extends TestCase
{
    public function testPacketsAreCutAndSequenced(): void
    {
        $reader = new PacketReader();
        $reader->push("\x03\x00\x00\x00abc\x00\x00\x00\x01");
        self::assertSame('abc', $reader->next());
        self::assertSame('', $reader->next());
        self::assertNull($reader->next());
        $reader->push("\x01\x00\x00\x02");
        self::assertNull($reader->next());
        $reader->push('z');
        self::assertSame('z', $reader->next());
        self::assertSame(3, $reader->sequence());
    }

    public function testByteByByte(): void
    {
        $bytes = Wire::packets(0, 'hello', '', str_repeat('x', 300));
        $reader = new PacketReader();
        $payloads = [];
        foreach (str_split($bytes) as $byte) {
            $reader->push($byte);
            while (($payload = $reader->next()) !== null) {
                $payloads[] = $payload;
            }
        }
        self::assertSame(['hello', '', str_repeat('x', 300)], $payloads);
    }

    public function testSequenceOutOfOrderIsMalformed(): void
    {
        $reader = new PacketReader();
        $reader->push(Wire::packet('abc', 1));
        $this->expectException(MysqlException::class);
        $this->expectExceptionCode(2027);
        $reader->next();
    }

    public function testSequenceWrapsAround(): void
    {
        $reader = new PacketReader();
        $reader->setSequence(255);
        $reader->push(Wire::packet('a', 255) . Wire::packet('b', 0));
        self::assertSame('a', $reader->next());
        self::assertSame('b', $reader->next());
    }

    public function testPayloadsOver16MiBAreSplitAndJoined(): void
    {
        $payload = str_repeat('a', 0xFFFFFF) . 'tail-of-the-payload';
        [$bytes, $next] = PacketReader::frame($payload, 3);
        self::assertSame(5, $next);
        self::assertSame(\strlen($payload) + 8, \strlen($bytes));
        self::assertSame("\xFF\xFF\xFF\x03", substr($bytes, 0, 4));
        self::assertSame("\x13\x00\x00\x04", substr($bytes, 4 + 0xFFFFFF, 4));

        $reader = new PacketReader();
        $reader->setSequence(3);
        foreach (str_split($bytes, 1 << 20) as $chunk) {
            $reader->push($chunk);
        }
        self::assertSame($payload, $reader->next());
        self::assertNull($reader->next());
        self::assertSame(5, $reader->sequence());
    }

    public function testPayloadOfExactly16MiBMinusOneEndsWithAnEmptyPacket(): void
    {
        $payload = str_repeat('b', 0xFFFFFF);
        [$bytes, $next] = PacketReader::frame($payload, 0);
        self::assertSame(2, $next);
        self::assertSame("\x00\x00\x00\x01", substr($bytes, -4));
        $reader = new PacketReader();
        $reader->push(substr($bytes, 0, -4));
        self::assertNull($reader->next(), 'the payload continues until the empty packet');
        $reader->push(substr($bytes, -4));
        self::assertSame($payload, $reader->next());
    }

    public function testOversizedPayloadIsRefused(): void
    {
        $reader = new PacketReader(10);
        $reader->push(Wire::packet(str_repeat('x', 11), 0));
        $this->expectException(MysqlException::class);
        $reader->next();
    }
}
