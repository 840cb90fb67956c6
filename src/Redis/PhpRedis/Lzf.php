<?php

declare(strict_types=1);

namespace Spindle\Redis\PhpRedis;

/**
 * @internal The LZF format (the one phpredis's COMPRESSION_LZF writes), in PHP: a stream of
 * literal runs (a control byte below 32: that many bytes plus one follow) and back references
 * (the top three bits a length, 7 meaning one more length byte; the low five bits and the next
 * byte an offset back, up to 8 KiB). compress() finds references through a hash of three bytes;
 * any LZF decoder reads its output.
 */
final class Lzf
{
    private const MAX_LITERAL = 32;
    private const MAX_OFFSET = 8192;
    private const MAX_REFERENCE = 264;

    private function __construct()
    {
    }

    public static function compress(string $data): string
    {
        $length = \strlen($data);
        $out = '';
        $literal = '';
        $table = [];
        $i = 0;
        while ($i < $length) {
            if ($i + 2 < $length) {
                $hash = substr($data, $i, 3);
                $candidate = $table[$hash] ?? -1;
                $table[$hash] = $i;
                if ($candidate >= 0 && $i - $candidate <= self::MAX_OFFSET) {
                    $max = min(self::MAX_REFERENCE, $length - $i);
                    $match = 3;
                    while ($match < $max && $data[$candidate + $match] === $data[$i + $match]) {
                        ++$match;
                    }
                    if ($literal !== '') {
                        $out .= self::literals($literal);
                        $literal = '';
                    }
                    $offset = $i - $candidate - 1;
                    $len = $match - 2;
                    $out .= $len < 7
                        ? \chr(($len << 5) | ($offset >> 8)) . \chr($offset & 0xff)
                        : \chr((7 << 5) | ($offset >> 8)) . \chr($len - 7) . \chr($offset & 0xff);
                    // Index the positions inside the match too, as far as three bytes reach.
                    for ($j = $i + 1, $end = min($i + $match, $length - 2); $j < $end; ++$j) {
                        $table[substr($data, $j, 3)] = $j;
                    }
                    $i += $match;
                    continue;
                }
            }
            $literal .= $data[$i];
            ++$i;
        }
        if ($literal !== '') {
            $out .= self::literals($literal);
        }

        return $out;
    }

    /** The original bytes, or null when $data is not LZF (nothing is not LZF either). */
    public static function decompress(string $data): ?string
    {
        $length = \strlen($data);
        if ($length === 0) {
            return null;
        }
        $out = '';
        $i = 0;
        while ($i < $length) {
            $control = \ord($data[$i++]);
            if ($control < 32) {
                $run = $control + 1;
                if ($i + $run > $length) {
                    return null;
                }
                $out .= substr($data, $i, $run);
                $i += $run;
                continue;
            }
            $len = $control >> 5;
            if ($len === 7) {
                if ($i >= $length) {
                    return null;
                }
                $len += \ord($data[$i++]);
            }
            if ($i >= $length) {
                return null;
            }
            $back = (($control & 0x1f) << 8) + \ord($data[$i++]) + 1;
            $start = \strlen($out) - $back;
            if ($start < 0) {
                return null;
            }
            $len += 2;
            if ($back >= $len) {
                $out .= substr($out, $start, $len);
            } else {
                for ($k = 0; $k < $len; ++$k) {
                    $out .= $out[$start + $k];
                }
            }
        }

        return $out;
    }

    private static function literals(string $bytes): string
    {
        $out = '';
        foreach (str_split($bytes, self::MAX_LITERAL) as $run) {
            $out .= \chr(\strlen($run) - 1) . $run;
        }

        return $out;
    }
}
