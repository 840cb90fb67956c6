<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Database\Mysql;

use PHPUnit\Framework\TestCase;
use Spindle\Database\Mysql\MysqlException;
use Spindle\Database\Mysql\Protocol\Capability;
use Spindle\Database\Mysql\Protocol\Charset;
use Spindle\Database\Mysql\Protocol\ErrPacket;
use Spindle\Database\Mysql\Protocol\EofPacket;
use Spindle\Database\Mysql\Protocol\HandshakeV10;
use Spindle\Database\Mysql\Protocol\OkPacket;

final class HandshakeTest extends TestCase
{
    public function testRecordedMariaDbHandshake(): void
    {
        $bytes = (string) hex2bin(Wire::MARIADB_HANDSHAKE_HEX);
        $h = HandshakeV10::parse(substr($bytes, 4));
        self::assertSame('5.5.5-10.11.19-MariaDB-0+deb12u1', $h->serverVersion);
        self::assertSame('10.11.19-MariaDB-0+deb12u1', $h->displayVersion());
        self::assertSame(15, $h->connectionId);
        self::assertSame(Wire::MARIADB_NONCE, $h->scramble);
        self::assertSame(45, $h->charset);
        self::assertSame(2, $h->statusFlags);
        self::assertSame(0x81FFF7FE, $h->capabilities);
        self::assertNotSame(0, $h->capabilities & Capability::DEPRECATE_EOF);
        self::assertSame('mysql_native_password', $h->authPlugin);
    }

    public function testMysql8HandshakeWithCachingSha2(): void
    {
        $nonce = '0123456789abcdefghij';
        $h = HandshakeV10::parse(Wire::mysql8Handshake($nonce, 7));
        self::assertSame('8.0.36', $h->displayVersion());
        self::assertSame(7, $h->connectionId);
        self::assertSame($nonce, $h->scramble);
        self::assertSame(255, $h->charset);
        self::assertSame('caching_sha2_password', $h->authPlugin);
        self::assertNotSame(0, $h->capabilities & Capability::SSL);
    }

    public function testPluginNameWithoutTrailingNul(): void
    {
        $payload = substr(Wire::mysql8Handshake('0123456789abcdefghij'), 0, -1);
        self::assertSame('caching_sha2_password', HandshakeV10::parse($payload)->authPlugin);
    }

    public function testOtherProtocolVersionsAreRefused(): void
    {
        try {
            HandshakeV10::parse("\x09" . "4.0\0" . "\x01\x00\x00\x00" . 'abcdefgh' . "\0");
            self::fail('expected MysqlException');
        } catch (MysqlException $e) {
            self::assertSame(2007, $e->errorCode);
        }
    }

    public function testTruncatedHandshakeIsMalformed(): void
    {
        $payload = substr((string) hex2bin(Wire::MARIADB_HANDSHAKE_HEX), 4);
        // 1 + 33 (version) + 4 + 8 + 1 + 2 = 49 bytes is the shortest (pre-4.1 layout) handshake;
        // past it the 4.1 part must be whole up to the 13-byte second scramble part (ends at 78).
        for ($cut = 0; $cut < 78; ++$cut) {
            if ($cut === 49) {
                self::assertSame('Z(UT)miJ', HandshakeV10::parse(substr($payload, 0, $cut))->scramble);
                continue;
            }
            try {
                HandshakeV10::parse(substr($payload, 0, $cut));
                self::fail("a handshake cut at $cut parsed");
            } catch (MysqlException $e) {
                self::assertContains($e->errorCode, [2027, 2007]);
            }
        }
    }

    public function testOkPacket(): void
    {
        $ok = OkPacket::parse(Wire::ok(3, 70000, 0x0003, 1, 'Rows matched: 3'));
        self::assertSame(3, $ok->affectedRows);
        self::assertSame(70000, $ok->lastInsertId);
        self::assertSame(3, $ok->statusFlags);
        self::assertSame(1, $ok->warnings);
        self::assertSame('Rows matched: 3', $ok->info);
        $big = OkPacket::parse("\x00\x00\xFE" . str_repeat("\xFF", 8) . "\x02\x00\x00\x00");
        self::assertSame('18446744073709551615', $big->lastInsertId);
    }

    public function testOkPacketUnderSessionTracking(): void
    {
        // SERVER_SESSION_STATE_CHANGED: info (length-encoded), then the changes (a system variable).
        $changes = "\x00" . Wire::lstr(Wire::lstr('time_zone') . Wire::lstr('+05:00'));
        $ok = OkPacket::parse(Wire::ok(0, 0, 0x4002, 0, Wire::lstr('') . Wire::lstr($changes)), true);
        self::assertSame('', $ok->info);
        self::assertSame($changes, $ok->sessionState);
        self::assertSame(0x4002, $ok->statusFlags);
        $ok = OkPacket::parse(Wire::ok(3, 0, 0x0002, 0, Wire::lstr('Rows matched: 3')), true);
        self::assertSame('Rows matched: 3', $ok->info);
        self::assertSame('', $ok->sessionState);
        // Nothing after the warnings: no info, no changes.
        $ok = OkPacket::parse(Wire::ok(1, 7, 0x0002, 0), true);
        self::assertSame(['', '', 7], [$ok->info, $ok->sessionState, $ok->lastInsertId]);
        $this->expectException(MysqlException::class);
        OkPacket::parse(Wire::ok(0, 0, 0x4002, 0, Wire::lstr('') . "\x09short"), true);
    }

    public function testErrPacketWithAndWithoutSqlState(): void
    {
        $e = ErrPacket::parse(Wire::err(1062, '23000', "Duplicate entry '1' for key 'PRIMARY'"));
        self::assertSame(1062, $e->errorCode);
        self::assertSame(1062, $e->getCode());
        self::assertSame('23000', $e->sqlState);
        self::assertSame("Duplicate entry '1' for key 'PRIMARY'", $e->getMessage());

        $e = ErrPacket::parse("\xFF\x10\x04Too many connections");
        self::assertSame(1040, $e->errorCode);
        self::assertSame('HY000', $e->sqlState);
        self::assertSame('Too many connections', $e->getMessage());

        $this->expectException(MysqlException::class);
        ErrPacket::parse("\xFF\x01");
    }

    public function testEofPacket(): void
    {
        self::assertTrue(EofPacket::is(Wire::eof(0x000A, 2)));
        self::assertFalse(EofPacket::is("\xFE" . str_repeat('x', 9)));
        $eof = EofPacket::parse(Wire::eof(0x000A, 2));
        self::assertSame(2, $eof->warnings);
        self::assertSame(0x000A, $eof->statusFlags);
    }

    public function testCharsetIds(): void
    {
        self::assertSame(45, Charset::resolve('utf8mb4')->id);
        self::assertNull(Charset::resolve('utf8mb4')->setNames);
        self::assertSame(224, Charset::resolve('utf8mb4', 'utf8mb4_unicode_ci')->id);
        self::assertSame(63, Charset::resolve('binary')->id);
        self::assertSame(8, Charset::resolve('latin1')->id);
        self::assertSame(33, Charset::resolve('utf8')->id);
        self::assertSame(33, Charset::resolve('utf8mb3')->id);
        self::assertSame(46, Charset::resolve('UTF8MB4', 'utf8mb4_bin')->id);
        $uca = Charset::resolve('utf8mb4', 'utf8mb4_uca1400_ai_ci');
        self::assertSame(45, $uca->id);
        self::assertSame('SET NAMES utf8mb4 COLLATE utf8mb4_uca1400_ai_ci', $uca->setNames);
    }

    public function testUnknownOrHostileCharsetNamesAreRefused(): void
    {
        foreach ([['klingon', null], ['utf8mb4', "x'; DROP TABLE t; --"]] as [$charset, $collation]) {
            try {
                Charset::resolve($charset, $collation);
                self::fail('expected MysqlException');
            } catch (MysqlException $e) {
                self::assertSame(2019, $e->errorCode);
            }
        }
    }
}
