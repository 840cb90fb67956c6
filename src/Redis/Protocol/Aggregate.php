<?php

declare(strict_types=1);

namespace Spindle\Redis\Protocol;

/**
 * A RESP3 set (`~`) or push message (`>`): the elements, told apart from an array by $kind.
 * Arrays (`*`) are plain PHP lists.
 */
final class Aggregate
{
    /** @param list<mixed> $items */
    public function __construct(public readonly AggregateKind $kind, public readonly array $items)
    {
    }
}
