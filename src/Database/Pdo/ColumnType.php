<?php

declare(strict_types=1);

namespace Spindle\Database\Pdo;

use Spindle\Database\Mysql\ColumnDefinition;

/**
 * What pdo_mysql makes of a column's MySQL type and flags: getColumnMeta(), and the values that
 * mysqlnd presents differently from Spindle's connection.
 */
final class ColumnType
{
    private const NATIVE_NAMES = [
        0 => 'DECIMAL',
        1 => 'TINY',
        2 => 'SHORT',
        3 => 'LONG',
        4 => 'FLOAT',
        5 => 'DOUBLE',
        6 => 'NULL',
        7 => 'TIMESTAMP',
        8 => 'LONGLONG',
        9 => 'INT24',
        10 => 'DATE',
        11 => 'TIME',
        12 => 'DATETIME',
        13 => 'YEAR',
        14 => 'NEWDATE',
        16 => 'BIT',
        246 => 'NEWDECIMAL',
        247 => 'ENUM',
        248 => 'SET',
        249 => 'TINY_BLOB',
        250 => 'MEDIUM_BLOB',
        251 => 'LONG_BLOB',
        252 => 'BLOB',
        253 => 'VAR_STRING',
        254 => 'STRING',
        255 => 'GEOMETRY',
    ];

    /** BIT, YEAR and the integer types */
    private const INTEGER_TYPES = [16, 13, 1, 2, 9, 3, 8];

    private const BIT = 16;
    /** the integer types (YEAR included) that mysqlnd zero-pads when they are ZEROFILL */
    private const ZEROFILL_TYPES = [1, 2, 9, 3, 8, 13];
    private const ZEROFILL_FLAG = 64;

    private const FLAG_NAMES = [
        1 => 'not_null',
        2 => 'primary_key',
        8 => 'multiple_key',
        4 => 'unique_key',
        16 => 'blob',
    ];

    /** "VAR_STRING", "LONG", …; null for types pdo_mysql has no name for (VARCHAR, JSON). */
    public static function nativeName(int $type): ?string
    {
        return self::NATIVE_NAMES[$type] ?? null;
    }

    public static function pdoType(int $type): int
    {
        return \in_array($type, self::INTEGER_TYPES, true) ? \PDO::PARAM_INT : \PDO::PARAM_STR;
    }

    /**
     * The columns whose values the connection decodes differently from mysqlnd: BIT (binary
     * string there, a number for mysqlnd) and ZEROFILL integers, YEAR included (int there, the
     * zero-padded string for mysqlnd). In both protocols alike.
     *
     * @param list<ColumnDefinition> $columns
     *
     * @return array<int, ColumnDefinition>
     */
    public static function adjustedColumns(array $columns): array
    {
        $adjusted = [];
        foreach ($columns as $index => $column) {
            if ($column->type === self::BIT
                || (($column->flags & self::ZEROFILL_FLAG) !== 0 && \in_array($column->type, self::ZEROFILL_TYPES, true))) {
                $adjusted[$index] = $column;
            }
        }

        return $adjusted;
    }

    /**
     * A value of one of adjustedColumns() as mysqlnd gives it: BIT as an int (a decimal string
     * beyond PHP_INT_MAX), a ZEROFILL integer as its digits padded with zeros to the column width.
     */
    public static function mysqlndValue(int|float|string $value, ColumnDefinition $column): int|float|string
    {
        if ($column->type === self::BIT) {
            if (!\is_string($value) || \strlen($value) > 8) {
                return $value;
            }
            $unpacked = unpack('J', str_pad($value, 8, "\0", STR_PAD_LEFT));
            $number = \is_array($unpacked) && \is_int($unpacked[1] ?? null) ? $unpacked[1] : 0;

            return $number >= 0 ? $number : sprintf('%u', $number);
        }

        return str_pad((string) $value, $column->length, '0', STR_PAD_LEFT);
    }

    /** @return list<string> */
    public static function flagNames(int $flags): array
    {
        $names = [];
        foreach (self::FLAG_NAMES as $bit => $name) {
            if (($flags & $bit) !== 0) {
                $names[] = $name;
            }
        }

        return $names;
    }
}
