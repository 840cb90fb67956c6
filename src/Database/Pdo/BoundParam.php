<?php

declare(strict_types=1);

namespace Spindle\Database\Pdo;

/**
 * A parameter bound with bindValue()/bindParam()/execute(array), or a column bound with
 * bindColumn(). For bindParam()/bindColumn() $value is a reference to the caller's variable, so it
 * is read (or written) when the statement runs, not when it was bound.
 */
final class BoundParam
{
    public mixed $value = null;

    public function __construct(
        /** ":name" for parameters (the colon is added when missing), the column name for columns */
        public ?string $name,
        /** zero-based position; -1 until known */
        public int $position,
        /** PDO::PARAM_* with its flags */
        public int $type,
        public int $maxLength = 0,
    ) {
    }
}
