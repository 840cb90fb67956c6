<?php

declare(strict_types=1);

namespace Spindle\Redis\PhpRedis;

/**
 * @internal phpredis's COMPRESSION_LZ4 format, in PHP: a header (a CRC-8 of the next four bytes,
 * then the original length, 32-bit little-endian) and one LZ4 block. A block is a run of
 * sequences: a token (literal count in the high four bits, match length minus 4 in the low four,
 * 15 meaning more length bytes follow), the literals, a 16-bit little-endian offset back, and the
 * extra match length bytes; the last sequence has literals only. compress() finds matches through
 * a table of four-byte strings; any LZ4 decoder reads its blocks.
 */
final class Lz4
{
    private const MIN_MATCH = 4;
    private const MAX_OFFSET = 65535;
    /** the block's last five bytes are literals, and no match starts in its last twelve */
    private const LAST_LITERALS = 5;
    private const MATCH_LIMIT = 12;

    private function __construct()
    {
    }

    public static function compress(string $data): string
    {
        $length = \strlen($data);
        $header = pack('V', $length);

        return \chr(self::crc8($header)) . $header . self::block($data, $length);
    }

    /** The original bytes, or null when $data is not in this format. */
    public static function decompress(string $data): ?string
    {
        if (\strlen($data) < 5) {
            return null;
        }
        $header = substr($data, 1, 4);
        if (\ord($data[0]) !== self::crc8($header)) {
            return null;
        }
        $expected = \ord($header[0]) | (\ord($header[1]) << 8) | (\ord($header[2]) << 16) | (\ord($header[3]) << 24);
        $out = self::unblock($data, 5, $expected);

        return $out !== null && \strlen($out) === $expected ? $out : null;
    }

    /** CRC-8, polynomial 0x31, initial value 0xff, not reflected. */
    private static function crc8(string $bytes): int
    {
        $crc = 0xff;
        for ($i = 0, $n = \strlen($bytes); $i < $n; ++$i) {
            $crc ^= \ord($bytes[$i]);
            for ($bit = 0; $bit < 8; ++$bit) {
                $crc = ($crc & 0x80) !== 0 ? (($crc << 1) ^ 0x31) & 0xff : ($crc << 1) & 0xff;
            }
        }

        return $crc;
    }

    private static function block(string $data, int $length): string
    {
        $out = '';
        $table = [];
        $anchor = 0;
        $i = 0;
        $limit = $length - self::MATCH_LIMIT;
        while ($i < $limit) {
            $key = substr($data, $i, 4);
            $candidate = $table[$key] ?? -1;
            $table[$key] = $i;
            if ($candidate < 0 || $i - $candidate > self::MAX_OFFSET) {
                ++$i;
                continue;
            }
            $match = self::MIN_MATCH;
            $max = $length - self::LAST_LITERALS - $i;
            while ($match < $max && $data[$candidate + $match] === $data[$i + $match]) {
                ++$match;
            }
            $out .= self::sequence(substr($data, $anchor, $i - $anchor), $i - $candidate, $match);
            $i += $match;
            $anchor = $i;
        }

        return $out . self::sequence(substr($data, $anchor), 0, 0);
    }

    /** One sequence: literals, then (unless $match is 0, the last) a match $offset back. */
    private static function sequence(string $literals, int $offset, int $match): string
    {
        $count = \strlen($literals);
        $extra = $match - self::MIN_MATCH;
        $token = (min($count, 15) << 4) | ($match > 0 ? min($extra, 15) : 0);
        $out = \chr($token) . ($count >= 15 ? self::length($count - 15) : '') . $literals;
        if ($match > 0) {
            $out .= pack('v', $offset) . ($extra >= 15 ? self::length($extra - 15) : '');
        }

        return $out;
    }

    private static function length(int $rest): string
    {
        return str_repeat("\xff", intdiv($rest, 255)) . \chr($rest % 255);
    }

    private static function unblock(string $data, int $i, int $expected): ?string
    {
        $n = \strlen($data);
        $out = '';
        while ($i < $n) {
            $token = \ord($data[$i++]);
            $count = $token >> 4;
            if ($count === 15) {
                do {
                    if ($i >= $n) {
                        return null;
                    }
                    $byte = \ord($data[$i++]);
                    $count += $byte;
                } while ($byte === 255);
            }
            if ($i + $count > $n) {
                return null;
            }
            $out .= substr($data, $i, $count);
            $i += $count;
            if ($i >= $n) {
                break;      // the last sequence: literals only
            }
            if ($i + 2 > $n) {
                return null;
            }
            $offset = \ord($data[$i]) | (\ord($data[$i + 1]) << 8);
            $i += 2;
            $match = $token & 0x0f;
            if ($match === 15) {
                do {
                    if ($i >= $n) {
                        return null;
                    }
                    $byte = \ord($data[$i++]);
                    $match += $byte;
                } while ($byte === 255);
            }
            $match += self::MIN_MATCH;
            $start = \strlen($out) - $offset;
            if ($offset === 0 || $start < 0 || \strlen($out) + $match > $expected) {
                return null;
            }
            if ($offset >= $match) {
                $out .= substr($out, $start, $match);
            } else {
                for ($k = 0; $k < $match; ++$k) {
                    $out .= $out[$start + $k];
                }
            }
        }

        return $out;
    }
}
