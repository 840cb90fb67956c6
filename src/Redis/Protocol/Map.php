<?php

declare(strict_types=1);

namespace Spindle\Redis\Protocol;

/**
 * A RESP3 map (`%`) or attribute (`|`): its pairs in the order the server sent them, as keys may be
 * any RESP value.
 */
final class Map
{
    /** @param list<array{mixed, mixed}> $pairs */
    public function __construct(public readonly array $pairs)
    {
    }

    /**
     * The pairs as a PHP array: scalar keys become array keys (a later duplicate wins), others
     * are serialised as their JSON.
     *
     * @return array<int|string, mixed>
     */
    public function toArray(): array
    {
        $array = [];
        foreach ($this->pairs as [$key, $value]) {
            $array[\is_int($key) || \is_string($key) ? $key : (string) json_encode($key instanceof Status ? $key->value : $key)] = $value;
        }

        return $array;
    }
}
