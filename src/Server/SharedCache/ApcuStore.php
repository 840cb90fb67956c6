<?php

declare(strict_types=1);

namespace Spindle\Server\SharedCache;

/**
 * The shared cache in APCu (with apc.enable_cli=1 under the CLI): its segment is made when PHP
 * starts, before the master forks, so every worker of the server shares it. Keys get the prefix
 * "spindle:" so that clear() leaves the app's own APCu entries alone.
 *
 * The size limit: every 64 writes of a worker, the entries' memory (apcu_cache_info()) is
 * compared with $maxBytes; past it, the least recently used entries are removed until 90 % of it
 * is used. APCu itself clears everything when its segment (apc.shm_size) is full.
 */
final class ApcuStore implements Store
{
    private const PREFIX = 'spindle:';
    private const CHECK_EVERY = 64;

    private int $hits = 0;
    private int $misses = 0;
    private int $writes = 0;
    private int $evictions = 0;

    public function __construct(private readonly int $maxBytes = 33554432)
    {
    }

    public static function available(): bool
    {
        return \function_exists('apcu_enabled') && \apcu_enabled();
    }

    /** @param-out bool $found */
    public function fetch(string $key, ?bool &$found = null): mixed
    {
        $value = \apcu_fetch(self::PREFIX . $key, $success);
        $found = $success;
        $success ? ++$this->hits : ++$this->misses;

        return $success ? $value : null;
    }

    public function set(string $key, mixed $value, float $ttl = 0.0): bool
    {
        $this->wrote();

        return \apcu_store(self::PREFIX . $key, $value, $ttl > 0 ? (int) \ceil($ttl) : 0);
    }

    public function add(string $key, mixed $value, float $ttl = 0.0): bool
    {
        $added = \apcu_add(self::PREFIX . $key, $value, $ttl > 0 ? (int) \ceil($ttl) : 0);
        if ($added) {
            $this->wrote();
        }

        return $added;
    }

    public function increment(string $key, int|float $by = 1): int|float
    {
        $this->wrote();
        if (\is_int($by)) {
            // Atomic; a missing key is created with the step, for ever.
            $new = \apcu_inc(self::PREFIX . $key, $by, $success);
            if ($success && \is_int($new)) {
                return $new;
            }
        }
        // A value APCu cannot add to (a string, a float): read, add, write back with its expiry.
        $value = $this->fetch($key, $found);
        if (!$found) {
            \apcu_store(self::PREFIX . $key, $by);

            return $by;
        }
        $new = Increment::apply($value, $by);
        $info = \apcu_key_info(self::PREFIX . $key);
        $ttl = \is_array($info) && ($info['ttl'] ?? 0) > 0 ? \max(1, (int) $info['creation_time'] + (int) $info['ttl'] - \time()) : 0;
        \apcu_store(self::PREFIX . $key, $new, $ttl);

        return $new;
    }

    public function delete(string $key): bool
    {
        return (bool) \apcu_delete(self::PREFIX . $key);
    }

    public function deleteIf(string $key, mixed $expected): bool
    {
        $value = $this->fetch($key, $found);

        return $found && $value === $expected && $this->delete($key);
    }

    public function clear(string $prefix = ''): bool
    {
        $iterator = new \APCUIterator('/^' . \preg_quote(self::PREFIX . $prefix, '/') . '/', \APC_ITER_KEY);

        return (bool) \apcu_delete($iterator);
    }

    public function backend(): string
    {
        return 'apcu';
    }

    public function stats(): array
    {
        return ['hits' => $this->hits, 'misses' => $this->misses, 'writes' => $this->writes, 'evictions' => $this->evictions];
    }

    private function wrote(): void
    {
        if (++$this->writes % self::CHECK_EVERY === 0) {
            $this->evict();
        }
    }

    /** Past the limit, the least recently used entries go until 90 % of it is used. */
    private function evict(): void
    {
        $info = \apcu_cache_info(true);
        $used = \is_array($info) ? (int) ($info['mem_size'] ?? 0) : 0;
        if ($used <= $this->maxBytes) {
            return;
        }
        $entries = [];
        foreach (new \APCUIterator('/^' . \preg_quote(self::PREFIX, '/') . '/', \APC_ITER_KEY | \APC_ITER_ATIME | \APC_ITER_MEM_SIZE) as $entry) {
            $entries[] = [$entry['access_time'], $entry['mem_size'], $entry['key']];
        }
        \sort($entries);
        $target = (int) ($this->maxBytes * 0.9);
        foreach ($entries as [, $size, $key]) {
            if ($used <= $target) {
                break;
            }
            if (\apcu_delete($key)) {
                $used -= $size;
                ++$this->evictions;
            }
        }
    }
}
