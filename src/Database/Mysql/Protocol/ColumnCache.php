<?php

declare(strict_types=1);

namespace Spindle\Database\Mysql\Protocol;

use Spindle\Database\Mysql\ColumnDefinition;

/**
 * What a connection remembers of the column definitions it read: each definition by its packet
 * bytes (a statement run again sends the same ones), and whole column-definition sections by
 * column count, so that a result whose section repeats one seen before is taken in one compare
 * of the buffered bytes.
 *
 * @internal
 */
final class ColumnCache
{
    /** Column definitions remembered by their bytes. */
    private const SIZE = 512;
    /** Whole column-definition sections remembered, per column count. */
    private const SETS_PER_COUNT = 8;

    /** @var array<string, array{ColumnDefinition, int}> definition and text kind, by packet payload */
    private array $definitions = [];
    /**
     * Column-definition sections seen before, as their packets' bytes with what they decode to,
     * by column count (newest first).
     *
     * @var array<int, list<array{string, list<ColumnDefinition>, list<int>}>>
     */
    private array $sets = [];
    private int $setCount = 0;
    /** the packets of the column definitions being read ('' when not recorded) */
    private string $section = '';

    /** @return array{ColumnDefinition, int} the definition and its RowDecoder::textKind() */
    public function define(string $payload): array
    {
        if (isset($this->definitions[$payload])) {
            return $this->definitions[$payload];
        }
        $column = RowDecoder::columnDefinition($payload);
        if (\count($this->definitions) >= self::SIZE) {
            $this->definitions = [];
        }

        return $this->definitions[$payload] = [$column, RowDecoder::textKind($column)];
    }

    /** A result's column-definition section begins. */
    public function startSection(): void
    {
        $this->section = '';
    }

    /** Appends one column definition packet, framed as it arrived, to the section being read. */
    public function record(string $payload, int $sequence): void
    {
        $length = \strlen($payload);
        $this->section .= \chr($length & 0xFF) . \chr(($length >> 8) & 0xFF) . \chr(($length >> 16) & 0xFF)
            . \chr($sequence & 0xFF) . $payload;
    }

    /**
     * The section just read, with what it decoded to.
     *
     * @param list<ColumnDefinition> $columns
     * @param list<int> $kinds
     */
    public function remember(int $count, array $columns, array $kinds): void
    {
        if ($this->section === '' || \strlen($this->section) >= PacketReader::MAX_PACKET) {
            $this->section = '';

            return;
        }
        if ($this->setCount >= self::SIZE) {
            $this->sets = [];
            $this->setCount = 0;
        }
        $sets = $this->sets[$count] ?? [];
        array_unshift($sets, [$this->section, $columns, $kinds]);
        if (\count($sets) > self::SETS_PER_COUNT) {
            array_pop($sets);
        } else {
            ++$this->setCount;
        }
        $this->sets[$count] = $sets;
        $this->section = '';
    }

    /**
     * Takes the whole column-definition section at once from the reader when it repeats one
     * seen before.
     *
     * @return array{list<ColumnDefinition>, list<int>}|null the columns and their text kinds
     */
    public function known(int $count, PacketReader $reader): ?array
    {
        foreach ($this->sets[$count] ?? [] as [$bytes, $columns, $kinds]) {
            if ($reader->skipIfBuffered($bytes, $count)) {
                return [$columns, $kinds];
            }
        }

        return null;
    }
}
