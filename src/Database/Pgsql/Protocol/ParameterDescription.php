<?php

declare(strict_types=1);

namespace Spindle\Database\Pgsql\Protocol;

final class ParameterDescription
{
    /** @param list<int> $typeOids one per parameter */
    public function __construct(public readonly array $typeOids)
    {
    }
}
