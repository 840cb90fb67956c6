<?php

declare(strict_types=1);

namespace Spindle\Database\Mysql;

/**
 * The outcome of one statement: a result set (columns and rows) or an OK (affected rows, insert
 * id). Row values are decoded to PHP values: text-protocol rows as mysqlnd does for PHP 8.1+
 * (integers as int, FLOAT/DOUBLE as float, everything else string, NULL as null; BIGINT UNSIGNED
 * beyond PHP_INT_MAX stays a string), binary-protocol rows by their wire type.
 */
final class Result
{
    /**
     * @param list<ColumnDefinition> $columns empty for statements that return no result set
     * @param list<list<int|float|string|null>> $rows
     */
    public function __construct(
        public readonly array $columns = [],
        public readonly array $rows = [],
        public readonly int $affectedRows = 0,
        public readonly int|string $lastInsertId = 0,
        public readonly int $warnings = 0,
        public readonly int $statusFlags = 0,
        public readonly string $info = '',
    ) {
    }
}
