<?php

declare(strict_types=1);

namespace Spindle\Database\Pgsql;

/** A parameter sent as raw bytes (binary format): for bytea values, which may hold NUL bytes. */
final class Bytea
{
    public function __construct(public readonly string $bytes)
    {
    }
}
