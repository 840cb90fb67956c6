<?php

declare(strict_types=1);

namespace Spindle\Database\Pgsql\Protocol;

final class CopyData
{
    public function __construct(public readonly string $data)
    {
    }
}
