<?php

declare(strict_types=1);

namespace Spindle\Database\Pgsql\Protocol;

/** One column of a RowDescription. */
final class Field
{
    public function __construct(
        public readonly string $name,
        /** the table's oid, 0 when the column is no table column */
        public readonly int $tableOid,
        /** the column's attribute number in that table, 0 otherwise */
        public readonly int $column,
        public readonly int $typeOid,
        /** pg_type.typlen: negative for variable-width types */
        public readonly int $typeSize,
        public readonly int $typeModifier,
        /** 0 text, 1 binary */
        public readonly int $format,
    ) {
    }
}
