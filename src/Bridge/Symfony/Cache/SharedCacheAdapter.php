<?php

declare(strict_types=1);

namespace Spindle\Bridge\Symfony\Cache;

use Spindle\Server\SharedCache\SharedCache;
use Spindle\Server\SharedCache\Store;
use Symfony\Component\Cache\Adapter\AbstractAdapter;

/**
 * A Symfony cache pool on the cache every worker of the server shares (Server\SharedCache: APCu
 * or a shared memory segment): what one worker saves, the others read at once, with no server
 * in between. Outside `spindle serve` it holds the entries of its own process.
 *
 *     # config/packages/cache.yaml
 *     framework:
 *         cache:
 *             pools:
 *                 app.shared:
 *                     adapter: cache.adapter.spindle
 *     # config/services.yaml
 *     cache.adapter.spindle:
 *         class: Spindle\Bridge\Symfony\Cache\SharedCacheAdapter
 *         abstract: true
 *         arguments: ['', 0]
 *         tags: [{ name: cache.pool }]
 */
final class SharedCacheAdapter extends AbstractAdapter
{
    private readonly Store $store;

    public function __construct(string $namespace = '', int $defaultLifetime = 0, ?Store $store = null)
    {
        parent::__construct($namespace, $defaultLifetime);
        $this->store = $store ?? SharedCache::store();
    }

    /**
     * @param array<int, string> $ids
     *
     * @return array<string, mixed>
     */
    protected function doFetch(array $ids): iterable
    {
        $found = [];
        foreach ($ids as $id) {
            $value = $this->store->fetch($id, $hit);
            if ($hit) {
                $found[$id] = $value;
            }
        }

        return $found;
    }

    protected function doHave(string $id): bool
    {
        $this->store->fetch($id, $hit);

        return $hit;
    }

    protected function doClear(string $namespace): bool
    {
        return $this->store->clear($namespace);
    }

    /** @param array<int, string> $ids */
    protected function doDelete(array $ids): bool
    {
        foreach ($ids as $id) {
            $this->store->delete($id);
        }

        return true;
    }

    /**
     * @param array<string, mixed> $values
     *
     * @return array<int, string> the ids that could not be stored
     */
    protected function doSave(array $values, int $lifetime): array
    {
        $failed = [];
        foreach ($values as $id => $value) {
            if (!$this->store->set((string) $id, $value, (float) $lifetime)) {
                $failed[] = (string) $id;
            }
        }

        return $failed;
    }
}
