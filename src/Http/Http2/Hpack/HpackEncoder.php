<?php

declare(strict_types=1);

namespace Spindle\Http\Http2\Hpack;

/**
 * HPACK encoder (RFC 7541) for our responses on one connection.
 *
 * A field that matches a static or dynamic entry whole is sent as an index; otherwise as a literal
 * (its name indexed where one matches) added to the dynamic table, except names in $neverIndexed
 * (sent "never indexed", so no intermediary compresses them either: credentials, cookies) and names
 * in $notIndexed (values that change with every response). Strings are Huffman-coded unless that
 * is longer. The dynamic table is bounded by the peer's SETTINGS_HEADER_TABLE_SIZE and our own cap.
 */
final class HpackEncoder
{
    /** @var array<int, array{string, string}> Entries by insertion number. */
    private array $entries = [];
    private int $newest = -1;
    private int $oldest = 0;
    private int $size = 0;
    /** @var array<string, int> "name\0value" => newest insertion number with that pair. */
    private array $pairs = [];
    /** @var array<string, int> name => newest insertion number with that name. */
    private array $names = [];
    /** A size update to send at the start of the next block, or -1. */
    private int $pendingUpdate = -1;
    /** @var array<string, true> */
    private readonly array $never;
    /** @var array<string, true> */
    private readonly array $skip;

    /**
     * @param list<string> $neverIndexed lower-case names sent as never-indexed literals
     * @param list<string> $notIndexed lower-case names sent as literals without indexing
     */
    public function __construct(
        /** The peer decoder's table size (SETTINGS_HEADER_TABLE_SIZE, 4096 until it says otherwise). */
        private int $tableSize = 4096,
        /** Our own cap on the table, whatever the peer allows. */
        private readonly int $maxTableSize = 4096,
        array $neverIndexed = ['authorization', 'proxy-authorization', 'cookie', 'set-cookie'],
        array $notIndexed = ['content-length', 'date', 'etag', 'last-modified', 'expires', 'age'],
        private readonly bool $huffman = true,
    ) {
        if ($maxTableSize < $tableSize) {
            // The peer's decoder holds $tableSize until told otherwise.
            $this->pendingUpdate = $maxTableSize;
            $this->tableSize = $maxTableSize;
        }
        $this->never = array_fill_keys($neverIndexed, true);
        $this->skip = array_fill_keys($notIndexed, true);
    }

    /** The peer's SETTINGS_HEADER_TABLE_SIZE changed: the next block starts with a size update. */
    public function setPeerTableSize(int $size): void
    {
        $size = min($size, $this->maxTableSize);
        if ($size === $this->tableSize) {
            return;
        }
        $this->tableSize = $size;
        $this->pendingUpdate = $this->pendingUpdate === -1 ? $size : min($this->pendingUpdate, $size);
        $this->evict();
    }

    public function tableSize(): int
    {
        return $this->size;
    }

    /** @param iterable<array{string, string}> $fields lower-case names */
    public function encode(iterable $fields): string
    {
        $out = '';
        if ($this->pendingUpdate !== -1) {
            $out .= self::integer($this->pendingUpdate, 5, 0x20);
            if ($this->pendingUpdate !== $this->tableSize) {
                $out .= self::integer($this->tableSize, 5, 0x20);
            }
            $this->pendingUpdate = -1;
        }
        $static = StaticTable::pairs();
        $staticNames = StaticTable::names();
        foreach ($fields as [$name, $value]) {
            $key = $name . "\0" . $value;
            if (isset($static[$key])) {
                $index = $static[$key];
                $out .= $index < 0x7f ? \chr(0x80 | $index) : self::integer($index, 7, 0x80);
                continue;
            }
            if (isset($this->pairs[$key])) {
                $out .= self::integer(StaticTable::SIZE + $this->newest - $this->pairs[$key] + 1, 7, 0x80);
                continue;
            }
            $nameIndex = $staticNames[$name]
                ?? (isset($this->names[$name]) ? StaticTable::SIZE + $this->newest - $this->names[$name] + 1 : 0);
            if (isset($this->never[$name])) {
                $out .= self::integer($nameIndex, 4, 0x10);
            } elseif (isset($this->skip[$name]) || \strlen($name) + \strlen($value) + 32 > $this->tableSize) {
                $out .= self::integer($nameIndex, 4, 0x00);
            } else {
                $out .= self::integer($nameIndex, 6, 0x40);
                $this->insert($name, $value);
            }
            if ($nameIndex === 0) {
                $out .= $this->string($name);
            }
            $out .= $this->string($value);
        }

        return $out;
    }

    private function insert(string $name, string $value): void
    {
        $this->size += \strlen($name) + \strlen($value) + 32;
        $this->entries[++$this->newest] = [$name, $value];
        $this->pairs[$name . "\0" . $value] = $this->newest;
        $this->names[$name] = $this->newest;
        $this->evict();
    }

    private function evict(): void
    {
        while ($this->size > $this->tableSize) {
            [$name, $value] = $this->entries[$this->oldest];
            unset($this->entries[$this->oldest]);
            $key = $name . "\0" . $value;
            if (($this->pairs[$key] ?? -1) === $this->oldest) {
                unset($this->pairs[$key]);
            }
            if (($this->names[$name] ?? -1) === $this->oldest) {
                unset($this->names[$name]);
            }
            $this->oldest++;
            $this->size -= \strlen($name) + \strlen($value) + 32;
        }
    }

    private function string(string $s): string
    {
        $length = \strlen($s);
        if ($this->huffman && $length > 0) {
            $coded = Huffman::encodedLength($s);
            if ($coded <= $length) {
                return self::integer($coded, 7, 0x80) . Huffman::encode($s);
            }
        }

        return self::integer($length, 7, 0x00) . $s;
    }

    /** A prefixed integer (§5.1) with $flags in the bits above the prefix. */
    public static function integer(int $value, int $prefixBits, int $flags): string
    {
        $max = (1 << $prefixBits) - 1;
        if ($value < $max) {
            return \chr($flags | $value);
        }
        $out = \chr($flags | $max);
        $value -= $max;
        while ($value >= 0x80) {
            $out .= \chr(($value & 0x7f) | 0x80);
            $value >>= 7;
        }

        return $out . \chr($value);
    }
}
