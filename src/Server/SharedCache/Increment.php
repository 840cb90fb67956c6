<?php

declare(strict_types=1);

namespace Spindle\Server\SharedCache;

/** @internal What increment() makes of a stored value, as Laravel's array store: its whole-number value plus the step. */
final class Increment
{
    public static function apply(mixed $value, int|float $by): int|float
    {
        return match (true) {
            \is_object($value) => 1,
            \is_array($value) => $value === [] ? 0 : 1,
            \is_scalar($value) => (int) $value,
            default => 0,
        } + $by;
    }
}
