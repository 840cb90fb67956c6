<?php

declare(strict_types=1);

namespace Spindle\Database\Mysql;

/** A server-side prepared statement (COM_STMT_PREPARE_OK). */
final class PreparedStatement
{
    /**
     * @param list<ColumnDefinition> $params
     * @param list<ColumnDefinition> $columns
     */
    public function __construct(
        public readonly int $id,
        public readonly string $sql,
        public readonly array $params,
        public readonly array $columns,
    ) {
    }
}
