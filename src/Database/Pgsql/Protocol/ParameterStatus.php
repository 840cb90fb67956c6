<?php

declare(strict_types=1);

namespace Spindle\Database\Pgsql\Protocol;

final class ParameterStatus
{
    public function __construct(public readonly string $name, public readonly string $value)
    {
    }
}
