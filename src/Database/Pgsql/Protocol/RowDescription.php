<?php

declare(strict_types=1);

namespace Spindle\Database\Pgsql\Protocol;

final class RowDescription
{
    /** @param list<Field> $fields */
    public function __construct(public readonly array $fields)
    {
    }
}
