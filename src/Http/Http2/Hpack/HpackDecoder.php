<?php

declare(strict_types=1);

namespace Spindle\Http\Http2\Hpack;

/**
 * HPACK decoder (RFC 7541) for one direction of one connection: a header block in, the list of
 * [name, value] pairs out, in order, with the dynamic table kept between blocks.
 *
 * Bounds: the dynamic table never exceeds the size we announced (SETTINGS_HEADER_TABLE_SIZE; a size
 * update above it is an error); integers longer than 2^31 and strings running past the block are
 * errors; the decoded list is bounded by $maxHeaderListSize while it is decoded, so a block of a few
 * bytes that references one large table entry many times (the "HPACK bomb") costs a counter, never
 * the memory of the list it would expand to.
 */
final class HpackDecoder
{
    /** @var array<int, array{string, string}> Entries by insertion number; the newest has the highest. */
    private array $entries = [];
    private int $newest = -1;
    private int $oldest = 0;
    private int $size = 0;
    private int $tableSize;

    public function __construct(
        /** The table size we announced (SETTINGS_HEADER_TABLE_SIZE); the encoder may not go above it. */
        private int $maxTableSize = 4096,
        /** SETTINGS_MAX_HEADER_LIST_SIZE: the sum of name + value + 32 over a block's fields. */
        private readonly int $maxHeaderListSize = 65536,
    ) {
        $this->tableSize = $maxTableSize;
    }

    /** After we announce a new SETTINGS_HEADER_TABLE_SIZE (and the peer acknowledged it). */
    public function setMaxTableSize(int $size): void
    {
        $this->maxTableSize = $size;
        if ($this->tableSize > $size) {
            $this->tableSize = $size;
            $this->evict();
        }
    }

    public function tableSize(): int
    {
        return $this->size;
    }

    /**
     * @return list<array{string, string}>
     * @throws HpackException the block is malformed (a connection error: COMPRESSION_ERROR)
     * @throws HeaderListTooLarge the block was decoded but its list is over the limit (a stream error)
     */
    public function decode(string $block): array
    {
        $list = [];
        $listSize = 0;
        $tooLarge = false;
        $p = 0;
        $n = \strlen($block);
        $fieldSeen = false;
        while ($p < $n) {
            $b = \ord($block[$p]);
            if ($b >= 0x80) {
                // Indexed field (§6.1).
                $index = $b & 0x7f;
                $p++;
                if ($index === 0x7f) {
                    $index = self::integer($block, $p, $n, 0x7f);
                }
                if ($index === 0) {
                    throw new HpackException('Indexed header field with index 0');
                }
                [$name, $value] = $this->entry($index);
            } elseif ($b >= 0x40 || $b < 0x20) {
                // Literal: with incremental indexing (01, 6-bit index), without indexing (0000) or
                // never indexed (0001), both with a 4-bit index.
                $indexing = $b >= 0x40;
                $mask = $indexing ? 0x3f : 0x0f;
                $index = $b & $mask;
                $p++;
                if ($index === $mask) {
                    $index = self::integer($block, $p, $n, $mask);
                }
                $name = $index === 0 ? self::string($block, $p, $n) : $this->entry($index)[0];
                $value = self::string($block, $p, $n);
                if ($indexing) {
                    $this->insert($name, $value);
                }
            } else {
                // Dynamic table size update (§6.3): only before the first field of a block.
                if ($fieldSeen) {
                    throw new HpackException('Dynamic table size update after a header field');
                }
                $size = $b & 0x1f;
                $p++;
                if ($size === 0x1f) {
                    $size = self::integer($block, $p, $n, 0x1f);
                }
                if ($size > $this->maxTableSize) {
                    throw new HpackException("Dynamic table size update to $size, above the {$this->maxTableSize} allowed");
                }
                $this->tableSize = $size;
                $this->evict();
                continue;
            }
            $fieldSeen = true;
            if ($tooLarge) {
                continue;
            }
            $listSize += \strlen($name) + \strlen($value) + 32;
            if ($listSize > $this->maxHeaderListSize) {
                $tooLarge = true;
                $list = [];
                continue;
            }
            $list[] = [$name, $value];
        }
        if ($tooLarge) {
            throw new HeaderListTooLarge($this->maxHeaderListSize);
        }

        return $list;
    }

    /** @return array{string, string} */
    private function entry(int $index): array
    {
        if ($index <= StaticTable::SIZE) {
            return StaticTable::ENTRIES[$index - 1];
        }
        $id = $this->newest - ($index - StaticTable::SIZE - 1);
        if ($id < $this->oldest) {
            throw new HpackException("Header index $index is past the end of the dynamic table");
        }

        return $this->entries[$id];
    }

    private function insert(string $name, string $value): void
    {
        $entrySize = \strlen($name) + \strlen($value) + 32;
        if ($entrySize > $this->tableSize) {
            // §4.4: an entry larger than the table empties it and is not added.
            $this->entries = [];
            $this->oldest = $this->newest + 1;
            $this->size = 0;

            return;
        }
        $this->entries[++$this->newest] = [$name, $value];
        $this->size += $entrySize;
        $this->evict();
    }

    private function evict(): void
    {
        while ($this->size > $this->tableSize) {
            [$name, $value] = $this->entries[$this->oldest];
            unset($this->entries[$this->oldest]);
            $this->oldest++;
            $this->size -= \strlen($name) + \strlen($value) + 32;
        }
    }

    /** The rest of a prefixed integer (§5.1) whose prefix was all ones; $p is past the prefix. */
    private static function integer(string $block, int &$p, int $n, int $prefix): int
    {
        $value = $prefix;
        $shift = 0;
        do {
            if ($p >= $n) {
                throw new HpackException('Integer runs past the end of the header block');
            }
            $b = \ord($block[$p++]);
            $value += ($b & 0x7f) << $shift;
            $shift += 7;
            if ($value > 0x7fffffff || $shift > 35) {
                throw new HpackException('Integer too large in the header block');
            }
        } while ($b & 0x80);

        return $value;
    }

    /** A string literal (§5.2), plain or Huffman-coded. */
    private static function string(string $block, int &$p, int $n): string
    {
        if ($p >= $n) {
            throw new HpackException('String literal missing at the end of the header block');
        }
        $b = \ord($block[$p++]);
        $length = $b & 0x7f;
        if ($length === 0x7f) {
            $length = self::integer($block, $p, $n, 0x7f);
        }
        if ($length > $n - $p) {
            throw new HpackException("String literal of $length bytes runs past the end of the header block");
        }
        $raw = $length === 0 ? '' : substr($block, $p, $length);
        $p += $length;

        return $b & 0x80 ? Huffman::decode($raw) : $raw;
    }
}
