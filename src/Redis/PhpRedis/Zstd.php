<?php

declare(strict_types=1);

namespace Spindle\Redis\PhpRedis;

/**
 * @internal Zstandard (RFC 8878), phpredis's COMPRESSION_ZSTD, in PHP. decompress() reads any
 * frame (raw, RLE and compressed blocks; raw, RLE and Huffman literals; predefined, RLE, FSE and
 * repeated sequence tables; repeat offsets; skippable frames; the content checksum checked).
 * compress() writes one frame with its content size: blocks of raw literals and sequences found
 * through a table of four-byte strings, coded with the predefined tables (a block that does not
 * shrink is stored raw) — any Zstandard decoder reads it, phpredis's included.
 */
final class Zstd
{
    private const MAGIC = "\x28\xb5\x2f\xfd";
    private const BLOCK = 131072;
    private const LL_BASE = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 18, 20, 22, 24, 28, 32, 40, 48, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536];
    private const LL_BITS = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16];
    private const ML_BASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 37, 39, 41, 43, 47, 51, 59, 67, 83, 99, 131, 259, 515, 1027, 2051, 4099, 8195, 16387, 32771, 65539];
    private const ML_BITS = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16];

    /** @var list<array{int, int}>|null the previous block's Huffman table */
    private ?array $huffman = null;
    /** @var array<string, list<array{int, int, int}>> the previous block's sequence tables */
    private array $tables = [];
    /** @var array{int, int, int} */
    private array $repeat = [1, 4, 8];
    /** @var array<string, list<array{int, int, int}>> the predefined tables, built once */
    private static array $predefined = [];

    private function __construct()
    {
    }

    /** The original bytes, or null when $data is not Zstandard data. */
    public static function decompress(string $data): ?string
    {
        if (!str_starts_with($data, self::MAGIC) && !self::skippable($data, 0)) {
            return null;
        }
        try {
            $out = '';
            for ($offset = 0, $n = \strlen($data); $offset < $n;) {
                if (self::skippable($data, $offset)) {
                    $offset += 8 + (unpack('V', substr($data, $offset + 4, 4))[1] ?? 0);
                    continue;
                }
                if (substr($data, $offset, 4) !== self::MAGIC) {
                    return null;
                }
                [$frame, $offset] = (new self())->frame($data, $offset + 4);
                $out .= $frame;
            }

            return $offset === \strlen($data) ? $out : null;
        } catch (\UnexpectedValueException|\ValueError) {
            return null;
        }
    }

    public static function compress(string $data): string
    {
        $size = \strlen($data);
        [$flag, $contentSize] = match (true) {
            $size < 256 => [0, \chr($size)],
            $size < 65792 => [1, pack('v', $size - 256)],
            default => [2, pack('V', $size)],
        };
        $out = self::MAGIC . \chr(($flag << 6) | 0x20) . $contentSize;
        $table = [];
        $blocks = max(1, (int) ceil($size / self::BLOCK));
        for ($b = 0; $b < $blocks; ++$b) {
            $start = $b * self::BLOCK;
            $end = min($size, $start + self::BLOCK);
            $last = $b === $blocks - 1 ? 1 : 0;
            $compressed = self::block($data, $start, $end, $table);
            if ($compressed !== null && \strlen($compressed) < $end - $start) {
                $out .= substr(pack('V', $last | (2 << 1) | (\strlen($compressed) << 3)), 0, 3) . $compressed;
            } else {
                $out .= substr(pack('V', $last | (($end - $start) << 3)), 0, 3) . substr($data, $start, $end - $start);
            }
        }

        return $out;
    }

    private static function skippable(string $data, int $offset): bool
    {
        return \strlen($data) >= $offset + 8 && (\ord($data[$offset]) & 0xf0) === 0x50 && substr($data, $offset + 1, 3) === "\x2a\x4d\x18";
    }

    /** @return array{string, int} the frame's content and the offset after it */
    private function frame(string $data, int $offset): array
    {
        $descriptor = \ord($data[$offset++] ?? throw new \UnexpectedValueException('truncated frame'));
        $single = ($descriptor & 0x20) !== 0;
        $checksum = ($descriptor & 0x04) !== 0;
        if (($descriptor & 0x08) !== 0) {
            throw new \UnexpectedValueException('reserved bit set');
        }
        if (!$single) {
            ++$offset;      // window descriptor: the whole output is kept
        }
        $offset += [0, 1, 2, 4][$descriptor & 0x03];
        $fcsBytes = [$single ? 1 : 0, 2, 4, 8][$descriptor >> 6];
        $expected = null;
        if ($fcsBytes > 0) {
            $expected = 0;
            for ($i = 0; $i < $fcsBytes; ++$i) {
                $expected |= \ord($data[$offset + $i] ?? "\0") << (8 * $i);
            }
            $expected += $fcsBytes === 2 ? 256 : 0;
            $offset += $fcsBytes;
        }
        $out = '';
        do {
            if ($offset + 3 > \strlen($data)) {
                throw new \UnexpectedValueException('truncated block');
            }
            $header = \ord($data[$offset]) | (\ord($data[$offset + 1]) << 8) | (\ord($data[$offset + 2]) << 16);
            $offset += 3;
            $last = ($header & 1) === 1;
            $type = ($header >> 1) & 3;
            $size = $header >> 3;
            if ($type === 0) {
                $out .= substr($data, $offset, $size);
                $offset += $size;
            } elseif ($type === 1) {
                $out .= str_repeat($data[$offset] ?? throw new \UnexpectedValueException('truncated block'), $size);
                ++$offset;
            } elseif ($type === 2) {
                $out = $this->compressedBlock(substr($data, $offset, $size), $out);
                $offset += $size;
            } else {
                throw new \UnexpectedValueException('reserved block type');
            }
            if ($offset > \strlen($data) || \strlen($out) > ($expected ?? \PHP_INT_MAX)) {
                throw new \UnexpectedValueException('block beyond the frame');
            }
        } while (!$last);
        if ($checksum) {
            $sum = substr($data, $offset, 4);
            if ($sum !== strrev(substr(hash('xxh64', $out, true), 4, 4))) {
                throw new \UnexpectedValueException('content checksum mismatch');
            }
            $offset += 4;
        }
        if ($expected !== null && \strlen($out) !== $expected) {
            throw new \UnexpectedValueException('frame content size mismatch');
        }

        return [$out, $offset];
    }

    private function compressedBlock(string $block, string $out): string
    {
        [$literals, $offset] = $this->literals($block);
        $count = \ord($block[$offset++] ?? "\0");
        if ($count === 255) {
            $count = \ord($block[$offset] ?? "\0") + (\ord($block[$offset + 1] ?? "\0") << 8) + 0x7f00;
            $offset += 2;
        } elseif ($count >= 128) {
            $count = (($count - 128) << 8) + \ord($block[$offset++] ?? "\0");
        }
        if ($count === 0) {
            return $out . $literals;
        }
        $modes = \ord($block[$offset++] ?? "\0");
        foreach (['ll' => [$modes >> 6, ZstdEntropy::LL_DEFAULT, 6, 35, 9], 'of' => [($modes >> 4) & 3, ZstdEntropy::OF_DEFAULT, 5, 31, 8], 'ml' => [($modes >> 2) & 3, ZstdEntropy::ML_DEFAULT, 6, 52, 9]] as $name => [$mode, $default, $defaultLog, $maxSymbol, $maxLog]) {
            if ($mode === 0) {
                $this->tables[$name] = self::$predefined[$name] ??= ZstdEntropy::decodingTable($default, $defaultLog);
            } elseif ($mode === 1) {
                $this->tables[$name] = ZstdEntropy::rleTable(\ord($block[$offset++] ?? "\0"));
            } elseif ($mode === 2) {
                [$counts, $log, $read] = ZstdEntropy::readCounts($block, $offset, $maxSymbol, $maxLog);
                $this->tables[$name] = ZstdEntropy::decodingTable($counts, $log);
                $offset += $read;
            } elseif (!isset($this->tables[$name])) {
                throw new \UnexpectedValueException('repeated table without a previous one');
            }
        }

        return $this->sequences(substr($block, $offset), $count, $literals, $out);
    }

    /** @return array{string, int} the literals and the offset of the sequences section */
    private function literals(string $block): array
    {
        $b0 = \ord($block[0] ?? throw new \UnexpectedValueException('empty block'));
        $type = $b0 & 3;
        $format = ($b0 >> 2) & 3;
        $byte = static fn (int $i): int => \ord($block[$i] ?? "\0");
        if ($type < 2) {
            [$size, $header] = match ($format) {
                0, 2 => [$b0 >> 3, 1],
                1 => [($b0 >> 4) + ($byte(1) << 4), 2],
                default => [($b0 >> 4) + ($byte(1) << 4) + ($byte(2) << 12), 3],
            };
            if ($type === 0) {
                if ($header + $size > \strlen($block)) {
                    throw new \UnexpectedValueException('literals beyond the block');
                }

                return [substr($block, $header, $size), $header + $size];
            }

            return [str_repeat($block[$header] ?? throw new \UnexpectedValueException('truncated literals'), $size), $header + 1];
        }
        $value = $b0 | ($byte(1) << 8) | ($byte(2) << 16) | ($byte(3) << 24) | ($byte(4) << 32);
        [$size, $compressed, $header] = match ($format) {
            0, 1 => [($value >> 4) & 0x3ff, ($value >> 14) & 0x3ff, 3],
            2 => [($value >> 4) & 0x3fff, ($value >> 18) & 0x3fff, 4],
            default => [($value >> 4) & 0x3ffff, ($value >> 22) & 0x3ffff, 5],
        };
        if ($header + $compressed > \strlen($block)) {
            throw new \UnexpectedValueException('literals beyond the block');
        }
        $literals = ZstdEntropy::huffmanLiterals($block, $header, $compressed, $size, $format !== 0, $this->huffman, $type === 3);

        return [$literals, $header + $compressed];
    }

    private function sequences(string $stream, int $count, string $literals, string $out): string
    {
        [$ll, $of, $ml] = [$this->tables['ll'], $this->tables['of'], $this->tables['ml']];
        $position = ZstdEntropy::streamStart($stream);
        $read = static function (int $n) use ($stream, &$position): int {
            $position -= $n;

            return $n === 0 ? 0 : ZstdEntropy::bits($stream, $position, $n);
        };
        $logOf = static fn (array $table): int => ZstdEntropy::highBit(\count($table));
        $llState = $read($logOf($ll));
        $ofState = $read($logOf($of));
        $mlState = $read($logOf($ml));
        $used = 0;
        for ($i = 0; $i < $count; ++$i) {
            $ofCode = $of[$ofState][0];
            $mlCode = $ml[$mlState][0];
            $llCode = $ll[$llState][0];
            if ($ofCode > 31 || !isset(self::ML_BASE[$mlCode], self::LL_BASE[$llCode])) {
                throw new \UnexpectedValueException('invalid sequence code');
            }
            $offsetValue = (1 << $ofCode) + $read($ofCode);
            $matchLength = self::ML_BASE[$mlCode] + $read(self::ML_BITS[$mlCode]);
            $literalLength = self::LL_BASE[$llCode] + $read(self::LL_BITS[$llCode]);
            $offset = $this->offset($offsetValue, $literalLength);
            if ($i < $count - 1) {
                $llState = $ll[$llState][2] + $read($ll[$llState][1]);
                $mlState = $ml[$mlState][2] + $read($ml[$mlState][1]);
                $ofState = $of[$ofState][2] + $read($of[$ofState][1]);
            }
            if ($used + $literalLength > \strlen($literals)) {
                throw new \UnexpectedValueException('sequence beyond the literals');
            }
            $out .= substr($literals, $used, $literalLength);
            $used += $literalLength;
            $start = \strlen($out) - $offset;
            if ($offset <= 0 || $start < 0) {
                throw new \UnexpectedValueException('match before the start');
            }
            if ($offset >= $matchLength) {
                $out .= substr($out, $start, $matchLength);
            } else {
                $pattern = substr($out, $start, $offset);
                $out .= substr(str_repeat($pattern, intdiv($matchLength, $offset) + 1), 0, $matchLength);
            }
        }
        if ($position !== 0) {
            throw new \UnexpectedValueException('sequence stream of the wrong length');
        }

        return $out . substr($literals, $used);
    }

    /** The match offset an offset value stands for, with the repeat offsets kept up to date. */
    private function offset(int $value, int $literalLength): int
    {
        if ($value > 3) {
            $offset = $value - 3;
            $this->repeat = [$offset, $this->repeat[0], $this->repeat[1]];

            return $offset;
        }
        $index = $literalLength === 0 ? $value : $value - 1;      // 0, 1, 2, or 3: the first one minus one
        if ($index === 0) {
            return $this->repeat[0];
        }
        [$first, $second, $third] = $this->repeat;
        $offset = match ($index) {
            1 => $second,
            2 => $third,
            default => $first - 1,
        };
        $this->repeat = $index === 1 ? [$offset, $first, $third] : [$offset, $first, $second];

        return $offset;
    }

    /**
     * One compressed block of $data[$start, $end): raw literals and greedy matches, the
     * sequences coded with the predefined tables; null when there is nothing to code.
     *
     * @param array<string, int> $table four-byte strings' last positions, kept across blocks
     */
    private static function block(string $data, int $start, int $end, array &$table): ?string
    {
        $sequences = [];
        $literals = [];
        $anchor = $start;
        $i = $start;
        $limit = $end - 8;
        while ($i < $limit) {
            $key = substr($data, $i, 4);
            $candidate = $table[$key] ?? -1;
            $table[$key] = $i;
            if ($candidate < 0 || $i - $candidate > 1 << 20) {
                ++$i;
                continue;
            }
            $match = 4;
            while ($i + $match < $end && $match < 65536 && $data[$candidate + $match] === $data[$i + $match]) {
                ++$match;
            }
            $sequences[] = [$i - $anchor, $i - $candidate, $match];
            $literalsEnd = $i;
            for ($j = $i + 1, $stop = min($i + $match, $limit); $j < $stop; ++$j) {
                $table[substr($data, $j, 4)] = $j;
            }
            $literals[] = substr($data, $anchor, $literalsEnd - $anchor);
            $i += $match;
            $anchor = $i;
        }
        for ($j = max($i, $start); $j < $end - 3; ++$j) {
            $table[substr($data, $j, 4)] = $j;
        }
        if ($sequences === []) {
            return null;
        }
        $literals = implode('', $literals) . substr($data, $anchor, $end - $anchor);
        $size = \strlen($literals);
        $header = match (true) {
            $size < 32 => \chr($size << 3),
            $size < 4096 => pack('v', ($size << 4) | 0x04),
            default => substr(pack('V', ($size << 4) | 0x0c), 0, 3),
        };
        $count = \count($sequences);
        $countBytes = $count < 128 ? \chr($count) : ($count < 0x7f00 ? \chr(($count >> 8) + 128) . \chr($count & 0xff) : "\xff" . pack('v', $count - 0x7f00));

        return $header . $literals . $countBytes . "\0" . ZstdEncoder::sequences($sequences);
    }
}
