<?php

declare(strict_types=1);

namespace Spindle\Database\Pgsql;

use Spindle\Database\Pgsql\Protocol\Field;

/** A named statement the server parsed: its parameter types and its columns. */
final class PreparedStatement
{
    /**
     * @param list<int>   $parameterTypes type oid of each parameter
     * @param list<Field> $fields         the columns it returns (none for a command)
     */
    public function __construct(
        public readonly string $name,
        public readonly string $sql,
        public readonly array $parameterTypes,
        public readonly array $fields,
    ) {
    }
}
