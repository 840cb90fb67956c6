<?php

declare(strict_types=1);

namespace Spindle\Database\Pgsql\Protocol;

final class DataRow
{
    /** @param list<string|null> $values as sent (text or binary per the column's format), null for SQL NULL */
    public function __construct(public readonly array $values)
    {
    }
}
