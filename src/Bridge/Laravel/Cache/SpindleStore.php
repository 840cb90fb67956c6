<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel\Cache;

use Illuminate\Contracts\Cache\Lock;
use Illuminate\Contracts\Cache\LockProvider;
use Illuminate\Contracts\Cache\Store as LaravelStore;
use Spindle\Server\SharedCache\Store;

/**
 * Laravel's cache store `spindle` (`'stores' => ['spindle' => ['driver' => 'spindle']]` in
 * config/cache.php, then `Cache::store('spindle')`): the cache every worker of the server shares
 * (Server\SharedCache), with the semantics of Laravel's array store. add() and increment() are
 * atomic across workers, and so are its locks.
 */
final class SpindleStore implements LaravelStore, LockProvider
{
    public function __construct(
        private readonly Store $store,
        private readonly string $prefix = '',
    ) {
    }

    /** @param string $key */
    public function get($key): mixed
    {
        return $this->store->fetch($this->prefix . $key);
    }

    /**
     * @param array<int, string> $keys
     *
     * @return array<string, mixed>
     */
    public function many(array $keys): array
    {
        $values = [];
        foreach ($keys as $key) {
            $values[$key] = $this->store->fetch($this->prefix . $key);
        }

        return $values;
    }

    /**
     * @param string $key
     * @param int $seconds
     */
    public function put($key, $value, $seconds): bool
    {
        return $this->store->set($this->prefix . $key, $value, (float) \max(0, $seconds));
    }

    /**
     * @param array<string, mixed> $values
     * @param int $seconds
     */
    public function putMany(array $values, $seconds): bool
    {
        $stored = true;
        foreach ($values as $key => $value) {
            $stored = $this->put((string) $key, $value, $seconds) && $stored;
        }

        return $stored;
    }

    /**
     * Stores $value unless $key holds something: atomic across workers (Laravel's Repository
     * uses it for Cache::add()).
     *
     * @param string $key
     * @param int $seconds
     */
    public function add($key, mixed $value, $seconds): bool
    {
        return $this->store->add($this->prefix . $key, $value, (float) \max(0, $seconds));
    }

    /**
     * @param string $key
     * @param int|float $value
     */
    public function increment($key, $value = 1): int|float
    {
        return $this->store->increment($this->prefix . $key, $value);
    }

    /**
     * @param string $key
     * @param int|float $value
     */
    public function decrement($key, $value = 1): int|float
    {
        return $this->store->increment($this->prefix . $key, $value * -1);
    }

    /** @param string $key */
    public function forever($key, $value): bool
    {
        return $this->store->set($this->prefix . $key, $value);
    }

    /** @param string $key */
    public function forget($key): bool
    {
        return $this->store->delete($this->prefix . $key);
    }

    /** Empties the whole shared cache (as Laravel's array store empties itself). */
    public function flush(): bool
    {
        return $this->store->clear();
    }

    public function getPrefix(): string
    {
        return $this->prefix;
    }

    /**
     * @param string $name
     * @param int $seconds
     * @param string|null $owner
     */
    public function lock($name, $seconds = 0, $owner = null): Lock
    {
        return new SpindleLock($this->store, $this->prefix . 'lock:' . $name, $seconds, $owner);
    }

    /**
     * @param string $name
     * @param string $owner
     */
    public function restoreLock($name, $owner): Lock
    {
        return $this->lock($name, 0, $owner);
    }
}
