<?php

declare(strict_types=1);

namespace Spindle\Redis\Protocol;

/** A RESP3 big number (`(`), kept as its decimal digits. */
final class BigNumber
{
    public function __construct(public readonly string $digits)
    {
    }
}
