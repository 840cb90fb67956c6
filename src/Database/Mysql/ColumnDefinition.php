<?php

declare(strict_types=1);

namespace Spindle\Database\Mysql;

/** One column of a result set, as the server describes it (Protocol::ColumnDefinition41). */
final class ColumnDefinition
{
    public function __construct(
        public readonly string $catalog,
        public readonly string $schema,
        public readonly string $table,
        public readonly string $orgTable,
        public readonly string $name,
        public readonly string $orgName,
        public readonly int $charset,
        public readonly int $length,
        /** MYSQL_TYPE_* code */
        public readonly int $type,
        /** column flags: NOT_NULL 1, PRI_KEY 2, UNIQUE_KEY 4, MULTIPLE_KEY 8, BLOB 16, UNSIGNED 32, ZEROFILL 64, BINARY 128, … */
        public readonly int $flags,
        public readonly int $decimals,
    ) {
    }
}
