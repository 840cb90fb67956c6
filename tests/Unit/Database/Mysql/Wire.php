<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Database\Mysql;

/**
 * Builds server packets byte by byte for the codec tests, following the protocol documentation
 * directly (little-endian integers written with chr(), not with the codec under test).
 */
final class Wire
{
    /** A recorded MariaDB 10.11 Handshake v10 (connection id 15, mysql_native_password). */
    public const MARIADB_HANDSHAKE_HEX = '640000000a352e352e352d31302e31312e31392d4d6172696144422d302b64656231327531000f0000005a285554296d694a00fef72d0200ff81150000000000001d000000727e4726262e502a7e5d3a46006d7973716c5f6e61746976655f70617373776f726400';
    public const MARIADB_NONCE = 'Z(UT)miJr~G&&.P*~]:F';

    private function __construct()
    {
    }

    public static function le(int $value, int $bytes): string
    {
        $out = '';
        for ($i = 0; $i < $bytes; ++$i) {
            $out .= \chr(($value >> (8 * $i)) & 0xFF);
        }

        return $out;
    }

    public static function packet(string $payload, int $sequence): string
    {
        return self::le(\strlen($payload), 3) . \chr($sequence) . $payload;
    }

    /** Several payloads as consecutive packets from $first on. */
    public static function packets(int $first, string ...$payloads): string
    {
        $out = '';
        foreach (array_values($payloads) as $i => $payload) {
            $out .= self::packet($payload, ($first + $i) & 0xFF);
        }

        return $out;
    }

    public static function lenenc(int $value): string
    {
        return match (true) {
            $value < 251 => \chr($value),
            $value < 1 << 16 => "\xFC" . self::le($value, 2),
            $value < 1 << 24 => "\xFD" . self::le($value, 3),
            default => "\xFE" . self::le($value, 8),
        };
    }

    public static function lstr(string $value): string
    {
        return self::lenenc(\strlen($value)) . $value;
    }

    public static function column(string $name, int $type, int $flags = 0, int $decimals = 0, int $charset = 63, int $length = 11): string
    {
        return self::lstr('def') . self::lstr('db') . self::lstr('t') . self::lstr('t')
            . self::lstr($name) . self::lstr($name) . "\x0C" . self::le($charset, 2) . self::le($length, 4)
            . \chr($type) . self::le($flags, 2) . \chr($decimals) . "\0\0";
    }

    public static function ok(int $affected = 0, int $insertId = 0, int $status = 2, int $warnings = 0, string $info = '', string $header = "\x00"): string
    {
        return $header . self::lenenc($affected) . self::lenenc($insertId) . self::le($status, 2) . self::le($warnings, 2) . $info;
    }

    public static function eof(int $status = 2, int $warnings = 0): string
    {
        return "\xFE" . self::le($warnings, 2) . self::le($status, 2);
    }

    public static function err(int $code, string $sqlState, string $message): string
    {
        return "\xFF" . self::le($code, 2) . '#' . $sqlState . $message;
    }

    /** A MySQL 8 style Handshake v10 offering caching_sha2_password. */
    public static function mysql8Handshake(string $nonce, int $connectionId = 42, string $version = '8.0.36', int $upperCaps = 0xDFFF): string
    {
        return "\x0A" . $version . "\0" . self::le($connectionId, 4) . substr($nonce, 0, 8) . "\0"
            . "\xFF\xFF" . "\xFF" . "\x02\x00" . self::le($upperCaps, 2) . \chr(21) . str_repeat("\0", 10)
            . substr($nonce, 8, 12) . "\0" . "caching_sha2_password\0";
    }

    /** mysql_native_password computed byte by byte from the documented formula. */
    public static function expectedNative(string $password, string $nonce): string
    {
        $stage1 = sha1($password, true);
        $hash = sha1($nonce . sha1($stage1, true), true);
        $out = '';
        for ($i = 0; $i < 20; ++$i) {
            $out .= \chr(\ord($stage1[$i]) ^ \ord($hash[$i]));
        }

        return $out;
    }

    /** caching_sha2_password computed byte by byte from the documented formula. */
    public static function expectedSha2(string $password, string $nonce): string
    {
        $stage1 = hash('sha256', $password, true);
        $hash = hash('sha256', hash('sha256', $stage1, true) . $nonce, true);
        $out = '';
        for ($i = 0; $i < 32; ++$i) {
            $out .= \chr(\ord($stage1[$i]) ^ \ord($hash[$i]));
        }

        return $out;
    }

    /**
     * Splits a byte string at random points (seeded).
     *
     * @return list<string>
     */
    public static function randomSplit(string $bytes, int $seed, int $maxChunk = 7): array
    {
        mt_srand($seed);
        $chunks = [];
        $length = \strlen($bytes);
        for ($offset = 0; $offset < $length;) {
            $size = mt_rand(1, $maxChunk);
            $chunks[] = substr($bytes, $offset, $size);
            $offset += $size;
        }

        return $chunks;
    }
}
