<?php

declare(strict_types=1);

namespace Spindle\Server\SharedCache;

/**
 * The store of one process: what SharedCache gives outside a server (artisan, tests) and where
 * neither APCu nor shmop is available. Oldest written entries go first past $maxBytes (the sum
 * of the serialized values).
 */
final class MemoryStore implements Store
{
    /** @var array<string, array{0: string, 1: float}> serialized value and expiry (0: never), oldest first */
    private array $entries = [];
    private int $bytes = 0;
    private int $hits = 0;
    private int $misses = 0;
    private int $writes = 0;
    private int $evictions = 0;

    public function __construct(private readonly int $maxBytes = 33554432)
    {
    }

    /** @param-out bool $found */
    public function fetch(string $key, ?bool &$found = null): mixed
    {
        $entry = $this->entries[$key] ?? null;
        if ($entry === null || ($entry[1] > 0 && \microtime(true) >= $entry[1])) {
            $found = false;
            ++$this->misses;

            return null;
        }
        $found = true;
        ++$this->hits;

        return \unserialize($entry[0]);
    }

    public function set(string $key, mixed $value, float $ttl = 0.0): bool
    {
        return $this->write($key, \serialize($value), $ttl > 0 ? \microtime(true) + $ttl : 0.0);
    }

    public function add(string $key, mixed $value, float $ttl = 0.0): bool
    {
        $this->fetch($key, $found);

        return !$found && $this->set($key, $value, $ttl);
    }

    public function increment(string $key, int|float $by = 1): int|float
    {
        $value = $this->fetch($key, $found);
        if (!$found) {
            $this->set($key, $by);

            return $by;
        }
        $new = Increment::apply($value, $by);
        $this->write($key, \serialize($new), $this->entries[$key][1]);

        return $new;
    }

    public function delete(string $key): bool
    {
        $this->fetch($key, $found);
        $this->remove($key);

        return $found === true;
    }

    public function deleteIf(string $key, mixed $expected): bool
    {
        $value = $this->fetch($key, $found);

        return $found && $value === $expected && $this->delete($key);
    }

    public function clear(string $prefix = ''): bool
    {
        foreach (\array_keys($this->entries) as $key) {
            if ($prefix === '' || \str_starts_with((string) $key, $prefix)) {
                $this->remove((string) $key);
            }
        }

        return true;
    }

    public function backend(): string
    {
        return 'memory';
    }

    public function stats(): array
    {
        return ['hits' => $this->hits, 'misses' => $this->misses, 'writes' => $this->writes, 'evictions' => $this->evictions];
    }

    private function write(string $key, string $payload, float $expires): bool
    {
        if (\strlen($payload) > $this->maxBytes) {
            return false;
        }
        $this->remove($key);
        $this->entries[$key] = [$payload, $expires];
        $this->bytes += \strlen($payload);
        ++$this->writes;
        while ($this->bytes > $this->maxBytes) {
            $oldest = (string) \array_key_first($this->entries);
            $this->remove($oldest);
            ++$this->evictions;
        }

        return true;
    }

    private function remove(string $key): void
    {
        if (isset($this->entries[$key])) {
            $this->bytes -= \strlen($this->entries[$key][0]);
            unset($this->entries[$key]);
        }
    }
}
