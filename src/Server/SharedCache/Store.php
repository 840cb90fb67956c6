<?php

declare(strict_types=1);

namespace Spindle\Server\SharedCache;

/**
 * A cache shared by every worker of one server (see SharedCache for the backends). Values are
 * any serializable PHP value; keys are strings. Semantics follow Laravel's array store: an entry
 * past its expiry is gone; increment() of a missing key stores the step forever, and of an
 * existing one adds to its whole-number value and keeps its expiry.
 */
interface Store
{
    /**
     * The value under $key; $found tells a stored null or false from a miss.
     *
     * @param-out bool $found
     */
    public function fetch(string $key, ?bool &$found = null): mixed;

    /** Stores $value for $ttl seconds (0: forever). False when the value cannot be stored (too large). */
    public function set(string $key, mixed $value, float $ttl = 0.0): bool;

    /** Stores $value only if $key holds nothing (or something expired): atomic across workers. */
    public function add(string $key, mixed $value, float $ttl = 0.0): bool;

    /** Adds $by to the value under $key (atomic across workers) and returns the new value. */
    public function increment(string $key, int|float $by = 1): int|float;

    public function delete(string $key): bool;

    /** Deletes $key only while it holds $expected (a lock's owner releasing it): atomic. */
    public function deleteIf(string $key, mixed $expected): bool;

    /** Removes every entry whose key starts with $prefix (every entry for ''). */
    public function clear(string $prefix = ''): bool;

    /** apcu, shm or memory (this process only). */
    public function backend(): string;

    /** @return array{hits: int, misses: int, writes: int, evictions: int} this process's counts */
    public function stats(): array;
}
