<?php

declare(strict_types=1);

namespace Spindle\Database\Pdo;

/** What getColumnMeta() reports about a column's MySQL type and flags, as pdo_mysql does. */
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
