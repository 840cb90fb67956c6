<?php

declare(strict_types=1);

namespace Spindle\Redis\PhpRedis;

/**
 * @internal The entropy coding of the Zstandard format (RFC 8878) for Zstd: backward bit
 * streams, FSE tables (read from a table description or predefined; decoding and encoding) and
 * Huffman-coded literals. Malformed input throws \UnexpectedValueException, which Zstd turns
 * into "not Zstandard data".
 */
final class ZstdEntropy
{
    /** predefined distributions (RFC 8878 3.1.1.3.2.2): literal lengths, match lengths, offsets */
    public const LL_DEFAULT = [4, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 2, 1, 1, 1, 1, 1, -1, -1, -1, -1];
    public const ML_DEFAULT = [1, 4, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, -1, -1];
    public const OF_DEFAULT = [1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1];

    private function __construct()
    {
    }

    /**
     * $n bits of $data from bit $position on (bit i is bit i % 8 of byte i / 8; the bit at the
     * higher position is the more significant); bits outside $data read as 0.
     */
    public static function bits(string $data, int $position, int $n): int
    {
        $value = 0;
        $got = 0;
        $length = \strlen($data);
        while ($got < $n) {
            $at = $position + $got;
            $offset = $at & 7;
            $take = min(8 - $offset, $n - $got);
            $index = $at >> 3;
            if ($at >= 0 && $index < $length) {
                $value |= ((\ord($data[$index]) >> $offset) & ((1 << $take) - 1)) << $got;
            } elseif ($at < 0) {
                $take = min($n - $got, -$at);
            }
            $got += $take;
        }

        return $value;
    }

    /** Where a backward bit stream starts: below the highest set bit of its last byte. */
    public static function streamStart(string $stream): int
    {
        $length = \strlen($stream);
        if ($length === 0 || $stream[$length - 1] === "\0") {
            throw new \UnexpectedValueException('bit stream without its end mark');
        }

        return ($length - 1) * 8 + self::highBit(\ord($stream[$length - 1]));
    }

    public static function highBit(int $value): int
    {
        $bit = -1;
        while ($value > 0) {
            ++$bit;
            $value >>= 1;
        }

        return $bit;
    }

    /**
     * A table description at $offset of $data: its normalized counts and accuracy log.
     *
     * @return array{list<int>, int, int} counts, accuracy log, bytes read
     */
    public static function readCounts(string $data, int $offset, int $maxSymbol, int $maxLog): array
    {
        $position = $offset * 8;
        $log = self::bits($data, $position, 4) + 5;
        $position += 4;
        if ($log > $maxLog) {
            throw new \UnexpectedValueException('FSE accuracy log too large');
        }
        $remaining = (1 << $log) + 1;
        $threshold = 1 << $log;
        $nbBits = $log + 1;
        $counts = [];
        $previousZero = false;
        while ($remaining > 1) {
            if ($previousZero) {
                do {
                    $repeat = self::bits($data, $position, 2);
                    $position += 2;
                    for ($i = 0; $i < $repeat; ++$i) {
                        $counts[] = 0;
                    }
                } while ($repeat === 3);
            }
            if (\count($counts) > $maxSymbol || $position > \strlen($data) * 8) {
                throw new \UnexpectedValueException('FSE table description too long');
            }
            $max = (2 * $threshold - 1) - $remaining;
            $low = self::bits($data, $position, $nbBits - 1);
            if ($low < $max) {
                $count = $low;
                $position += $nbBits - 1;
            } else {
                $count = self::bits($data, $position, $nbBits);
                if ($count >= $threshold) {
                    $count -= $max;
                }
                $position += $nbBits;
            }
            --$count;
            $remaining -= abs($count);
            $counts[] = $count;
            $previousZero = $count === 0;
            while ($remaining < $threshold && $threshold > 1) {
                --$nbBits;
                $threshold >>= 1;
            }
        }
        if ($remaining !== 1 || \count($counts) > $maxSymbol + 1) {
            throw new \UnexpectedValueException('FSE table description does not add up');
        }

        return [$counts, $log, (($position + 7) >> 3) - $offset];
    }

    /**
     * The decoding table: state => [symbol, bits to read, baseline].
     *
     * @param list<int> $counts
     *
     * @return list<array{int, int, int}>
     */
    public static function decodingTable(array $counts, int $log): array
    {
        [$symbols, $size] = self::spread($counts, $log);
        $next = array_map(static fn (int $c): int => $c === -1 ? 1 : $c, $counts);
        $table = [];
        for ($state = 0; $state < $size; ++$state) {
            $symbol = $symbols[$state];
            $nextState = $next[$symbol]++;
            $bits = $log - self::highBit($nextState);
            $table[] = [$symbol, $bits, ($nextState << $bits) - $size];
        }

        return $table;
    }

    /**
     * A table of one symbol (RLE mode): every read gives it, reading no bits.
     *
     * @return list<array{int, int, int}>
     */
    public static function rleTable(int $symbol): array
    {
        return [[$symbol, 0, 0]];
    }

    /**
     * The encoding table for $counts: [state table, per symbol [deltaNbBits, deltaFindState]].
     *
     * @param list<int> $counts
     *
     * @return array{list<int>, array<int, array{int, int}>}
     */
    public static function encodingTable(array $counts, int $log): array
    {
        [$symbols, $size] = self::spread($counts, $log);
        $cumulative = [0];
        foreach ($counts as $s => $count) {
            $cumulative[$s + 1] = $cumulative[$s] + ($count === -1 ? 1 : $count);
        }
        $start = $cumulative;
        $states = [];
        for ($u = 0; $u < $size; ++$u) {
            $states[$start[$symbols[$u]]++] = $size + $u;
        }
        ksort($states);
        $transforms = [];
        $total = 0;
        foreach ($counts as $s => $count) {
            if ($count === 0) {
                $transforms[$s] = [(($log + 1) << 16) - $size, 0];
            } elseif ($count === -1 || $count === 1) {
                $transforms[$s] = [($log << 16) - $size, $total - 1];
                ++$total;
            } else {
                $maxBitsOut = $log - self::highBit($count - 1);
                $transforms[$s] = [($maxBitsOut << 16) - ($count << $maxBitsOut), $total - $count];
                $total += $count;
            }
        }

        return [array_values($states), $transforms];
    }

    /**
     * Huffman-coded literals: the tree description at $offset, then one or four streams.
     *
     * @param list<array{int, int}>|null $table the previous block's table (treeless literals)
     * @param-out list<array{int, int}> $table
     */
    public static function huffmanLiterals(string $data, int $offset, int $compressedSize, int $size, bool $fourStreams, ?array &$table, bool $treeless): string
    {
        $end = $offset + $compressedSize;
        if (!$treeless) {
            [$table, $read] = self::huffmanTable($data, $offset);
            $offset += $read;
        }
        if ($table === null) {
            throw new \UnexpectedValueException('treeless literals without a previous table');
        }
        if (!$fourStreams) {
            return self::huffmanStream(substr($data, $offset, $end - $offset), $table, $size);
        }
        $sizes = [\ord($data[$offset] ?? "\0") | (\ord($data[$offset + 1] ?? "\0") << 8), \ord($data[$offset + 2] ?? "\0") | (\ord($data[$offset + 3] ?? "\0") << 8), \ord($data[$offset + 4] ?? "\0") | (\ord($data[$offset + 5] ?? "\0") << 8)];
        $offset += 6;
        $sizes[] = $end - $offset - array_sum($sizes);
        if ($sizes[3] < 0) {
            throw new \UnexpectedValueException('Huffman jump table beyond the literals');
        }
        $each = intdiv($size + 3, 4);
        $out = '';
        foreach ($sizes as $i => $streamSize) {
            $out .= self::huffmanStream(substr($data, $offset, $streamSize), $table, $i < 3 ? $each : $size - 3 * $each);
            $offset += $streamSize;
        }

        return $out;
    }

    /**
     * @return array{list<array{int, int}>, int} the decoding table (index => [symbol, bits]) and the bytes read
     */
    private static function huffmanTable(string $data, int $offset): array
    {
        $header = \ord($data[$offset] ?? "\0");
        $weights = [];
        if ($header >= 128) {
            $count = $header - 127;
            for ($i = 0; $i < $count; ++$i) {
                $byte = \ord($data[$offset + 1 + ($i >> 1)] ?? "\0");
                $weights[] = $i % 2 === 0 ? $byte >> 4 : $byte & 0x0f;
            }
            $read = 1 + (($count + 1) >> 1);
        } else {
            $description = substr($data, $offset + 1, $header);
            [$counts, $log, $used] = self::readCounts($description, 0, 255, 6);
            $table = self::decodingTable($counts, $log);
            $stream = substr($description, $used);
            $position = self::streamStart($stream);
            $states = [];
            for ($k = 0; $k < 2; ++$k) {
                $position -= $log;
                $states[$k] = self::bits($stream, $position, $log);
            }
            for ($k = 0; \count($weights) < 255; $k ^= 1) {
                [$symbol, $bits, $baseline] = $table[$states[$k]];
                $weights[] = $symbol;
                $position -= $bits;
                $states[$k] = $baseline + self::bits($stream, $position, $bits);
                if ($position < 0) {
                    $weights[] = $table[$states[$k ^ 1]][0];
                    break;
                }
            }
            $read = 1 + $header;
        }
        $total = 0;
        foreach ($weights as $weight) {
            if ($weight > 11) {
                throw new \UnexpectedValueException('Huffman weight too large');
            }
            $total += $weight > 0 ? 1 << ($weight - 1) : 0;
        }
        if ($total === 0) {
            throw new \UnexpectedValueException('Huffman weights all zero');
        }
        $maxBits = self::highBit($total) + 1;
        $rest = (1 << $maxBits) - $total;
        if (($rest & ($rest - 1)) !== 0 || $maxBits > 11) {
            throw new \UnexpectedValueException('Huffman weights do not add up');
        }
        $weights[] = self::highBit($rest) + 1;
        $rank = array_fill(0, $maxBits + 2, 0);
        foreach ($weights as $weight) {
            ++$rank[$weight];
        }
        $next = 0;
        for ($w = 1; $w <= $maxBits; ++$w) {
            $current = $next;
            $next += $rank[$w] << ($w - 1);
            $rank[$w] = $current;
        }
        $table = [];
        foreach ($weights as $symbol => $weight) {
            if ($weight === 0) {
                continue;
            }
            $length = 1 << ($weight - 1);
            for ($i = $rank[$weight], $end = $rank[$weight] + $length; $i < $end; ++$i) {
                $table[$i] = [$symbol, $maxBits + 1 - $weight];
            }
            $rank[$weight] += $length;
        }
        ksort($table);

        return [array_values($table), $read];
    }

    /** @param list<array{int, int}> $table */
    private static function huffmanStream(string $stream, array $table, int $size): string
    {
        $maxBits = self::highBit(\count($table));
        $position = self::streamStart($stream);
        $out = '';
        for ($i = 0; $i < $size; ++$i) {
            [$symbol, $bits] = $table[self::bits($stream, $position - $maxBits, $maxBits)];
            $out .= \chr($symbol);
            $position -= $bits;
        }
        if ($position !== 0) {
            throw new \UnexpectedValueException('Huffman stream of the wrong length');
        }

        return $out;
    }

    /**
     * The symbols' places in a table of 2^$log states (the same spread for decoding and encoding).
     *
     * @param list<int> $counts
     *
     * @return array{list<int>, int}
     */
    private static function spread(array $counts, int $log): array
    {
        $size = 1 << $log;
        $symbols = array_fill(0, $size, 0);
        $high = $size - 1;
        foreach ($counts as $symbol => $count) {
            if ($count === -1) {
                $symbols[$high--] = $symbol;
            }
        }
        $position = 0;
        $step = ($size >> 1) + ($size >> 3) + 3;
        $mask = $size - 1;
        foreach ($counts as $symbol => $count) {
            for ($i = 0; $i < $count; ++$i) {
                $symbols[$position] = $symbol;
                do {
                    $position = ($position + $step) & $mask;
                } while ($position > $high);
            }
        }

        return [array_values($symbols), $size];
    }
}
