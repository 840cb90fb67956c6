<?php

declare(strict_types=1);

namespace Spindle\Redis\PhpRedis;

/**
 * @internal Zstd's sequence coding: a block's sequences (literal length, offset, match length)
 * as the FSE bit stream of the predefined tables, written last sequence first so that a decoder
 * reading backward meets them in order.
 */
final class ZstdEncoder
{
    /** @var array<string, array{list<int>, array<int, array{int, int}>}> */
    private static array $tables = [];

    private string $out = '';
    private int $bits = 0;
    private int $count = 0;

    private function __construct()
    {
    }

    /** @param list<array{int, int, int}> $sequences [literal length, offset, match length] */
    public static function sequences(array $sequences): string
    {
        $ll = self::$tables['ll'] ??= ZstdEntropy::encodingTable(ZstdEntropy::LL_DEFAULT, 6);
        $ml = self::$tables['ml'] ??= ZstdEntropy::encodingTable(ZstdEntropy::ML_DEFAULT, 6);
        $of = self::$tables['of'] ??= ZstdEntropy::encodingTable(ZstdEntropy::OF_DEFAULT, 5);
        $codes = array_map(static function (array $sequence): array {
            [$literalLength, $offset, $matchLength] = $sequence;
            $llCode = self::code($literalLength, [16 => 16, 18 => 17, 20 => 18, 22 => 19, 24 => 20, 28 => 21, 32 => 22, 40 => 23, 48 => 24, 64 => 25, 128 => 26, 256 => 27, 512 => 28, 1024 => 29, 2048 => 30, 4096 => 31, 8192 => 32, 16384 => 33, 32768 => 34, 65536 => 35], 16);
            $mlBase = $matchLength - 3;
            $mlCode = self::code($mlBase, [32 => 32, 34 => 33, 36 => 34, 38 => 35, 40 => 36, 44 => 37, 48 => 38, 56 => 39, 64 => 40, 80 => 41, 96 => 42, 128 => 43, 256 => 44, 512 => 45, 1024 => 46, 2048 => 47, 4096 => 48, 8192 => 49, 16384 => 50, 32768 => 51, 65536 => 52], 32);
            $offsetValue = $offset + 3;
            $ofCode = ZstdEntropy::highBit($offsetValue);

            return [$llCode, $literalLength - self::base($llCode, true), $mlCode, $mlBase - self::base($mlCode, false), $ofCode, $offsetValue - (1 << $ofCode)];
        }, $sequences);
        $writer = new self();
        $last = \count($codes) - 1;
        $mlState = self::init($ml, $codes[$last][2]);
        $ofState = self::init($of, $codes[$last][4]);
        $llState = self::init($ll, $codes[$last][0]);
        $writer->extras($codes[$last]);
        for ($i = $last - 1; $i >= 0; --$i) {
            [$llCode, , $mlCode, , $ofCode] = $codes[$i];
            $ofState = $writer->encode($of, $ofState, $ofCode);
            $mlState = $writer->encode($ml, $mlState, $mlCode);
            $llState = $writer->encode($ll, $llState, $llCode);
            $writer->extras($codes[$i]);
        }
        $writer->add($mlState, 6);
        $writer->add($ofState, 5);
        $writer->add($llState, 6);
        $writer->add(1, 1);     // the end mark

        return $writer->flush();
    }

    /** @param array<int, int> $starts the first value of each code from $first on */
    private static function code(int $value, array $starts, int $first): int
    {
        if ($value < $first) {
            return $value;
        }
        $code = $first;
        foreach ($starts as $start => $c) {
            if ($value >= $start) {
                $code = $c;
            }
        }

        return $code;
    }

    private static function base(int $code, bool $literals): int
    {
        $bases = $literals
            ? [16 => 16, 17 => 18, 18 => 20, 19 => 22, 20 => 24, 21 => 28, 22 => 32, 23 => 40, 24 => 48, 25 => 64, 26 => 128, 27 => 256, 28 => 512, 29 => 1024, 30 => 2048, 31 => 4096, 32 => 8192, 33 => 16384, 34 => 32768, 35 => 65536]
            : [32 => 32, 33 => 34, 34 => 36, 35 => 38, 36 => 40, 37 => 44, 38 => 48, 39 => 56, 40 => 64, 41 => 80, 42 => 96, 43 => 128, 44 => 256, 45 => 512, 46 => 1024, 47 => 2048, 48 => 4096, 49 => 8192, 50 => 16384, 51 => 32768, 52 => 65536];

        return $bases[$code] ?? $code;
    }

    /** @param array{list<int>, array<int, array{int, int}>} $table */
    private static function init(array $table, int $symbol): int
    {
        [$delta, $find] = $table[1][$symbol];
        $bits = ($delta + (1 << 15)) >> 16;
        $value = ($bits << 16) - $delta;

        return $table[0][($value >> $bits) + $find];
    }

    /** @param array{list<int>, array<int, array{int, int}>} $table */
    private function encode(array $table, int $state, int $symbol): int
    {
        [$delta, $find] = $table[1][$symbol];
        $bits = ($state + $delta) >> 16;
        $this->add($state, $bits);

        return $table[0][($state >> $bits) + $find];
    }

    /**
     * The extra bits of a sequence: literal length, match length, offset (read back in reverse).
     *
     * @param array{int, int, int, int, int, int} $codes
     */
    private function extras(array $codes): void
    {
        [$llCode, $llExtra, $mlCode, $mlExtra, $ofCode, $ofExtra] = $codes;
        $this->add($llExtra, [16 => 1, 17 => 1, 18 => 1, 19 => 1, 20 => 2, 21 => 2, 22 => 3, 23 => 3, 24 => 4, 25 => 6, 26 => 7, 27 => 8, 28 => 9, 29 => 10, 30 => 11, 31 => 12, 32 => 13, 33 => 14, 34 => 15, 35 => 16][$llCode] ?? 0);
        $this->add($mlExtra, [32 => 1, 33 => 1, 34 => 1, 35 => 1, 36 => 2, 37 => 2, 38 => 3, 39 => 3, 40 => 4, 41 => 4, 42 => 5, 43 => 7, 44 => 8, 45 => 9, 46 => 10, 47 => 11, 48 => 12, 49 => 13, 50 => 14, 51 => 15, 52 => 16][$mlCode] ?? 0);
        $this->add($ofExtra, $ofCode);
    }

    private function add(int $value, int $n): void
    {
        if ($n === 0) {
            return;
        }
        $this->bits |= ($value & ((1 << $n) - 1)) << $this->count;
        $this->count += $n;
        while ($this->count >= 8) {
            $this->out .= \chr($this->bits & 0xff);
            $this->bits >>= 8;
            $this->count -= 8;
        }
    }

    private function flush(): string
    {
        return $this->count > 0 ? $this->out . \chr($this->bits & 0xff) : $this->out;
    }
}
