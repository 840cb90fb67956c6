<?php

declare(strict_types=1);

namespace Spindle\Server\SharedCache;

use Psr\Log\LoggerInterface;
use Spindle\Server\WorkerServices;
use Spindle\Metrics\Family;
use Spindle\Metrics\MetricType;

/**
 * The cache shared by all workers of one server, and where it lives:
 *
 * - APCu when it is enabled (apc.enable_cli=1 for the CLI): its segment exists from PHP's start.
 * - otherwise a shmop segment the master makes before it forks (ShmStore), with its lock
 *   (ProcessLock): both live in the kernel only, and go when the last process of the server
 *   exits, however it ends (nothing is left in the temporary directory, even after a SIGKILL).
 * - otherwise (neither extension, or outside a server) a store of this process only.
 *
 * SPINDLE_CACHE_BACKEND=apcu|shm|memory chooses one; SPINDLE_CACHE_SIZE (bytes, or with K, M or
 * G) is the size limit (default 32M). The master calls prepare() once before its first fork and
 * each worker adopt() on the result; the app reaches the worker's store with store().
 */
final class SharedCache
{
    private const DEFAULT_SIZE = 33554432;

    private function __construct(private readonly Store $store)
    {
    }

    /**
     * In the master, before it forks: makes the shared store (null: nothing to share). A segment
     * the system refuses (its shared memory limits) is logged, and each worker then keeps a store
     * of its own.
     */
    public static function prepare(?LoggerInterface $logger = null): ?self
    {
        $backend = self::env('SPINDLE_CACHE_BACKEND') ?? 'auto';
        $size = self::size(self::env('SPINDLE_CACHE_SIZE'));
        if (($backend === 'auto' || $backend === 'apcu') && ApcuStore::available()) {
            return new self(new ApcuStore($size));
        }
        if (($backend === 'auto' || $backend === 'shm') && \function_exists('shmop_open')) {
            try {
                return new self(ShmStore::create($size));
            } catch (\RuntimeException $e) {
                $logger?->warning($e->getMessage() . ': each worker keeps a cache of its own');

                return null;
            }
        }
        if (!\in_array($backend, ['auto', 'apcu', 'shm', 'memory'], true)) {
            throw new \InvalidArgumentException(\sprintf('SPINDLE_CACHE_BACKEND must be apcu, shm or memory, got %s', $backend));
        }

        return null;
    }

    /**
     * In a worker: its store is this one, and its counts go into the worker's metrics as
     * `spindle_shared_cache_operations_total{operation}` (hit, miss, write, eviction).
     */
    public function adopt(WorkerServices $services): void
    {
        $store = $this->store;
        $services->useSharedCache($store);
        $services->metrics()->collectWith('spindle_shared_cache', static function () use ($store): array {
            $stats = $store->stats();
            $samples = [];
            foreach (['hit' => 'hits', 'miss' => 'misses', 'write' => 'writes', 'eviction' => 'evictions'] as $label => $key) {
                $samples[$label] = (float) $stats[$key];
            }

            return [new Family('spindle_shared_cache_operations_total', MetricType::Counter, 'Operations on the cache the workers share (' . $store->backend() . '): hits, misses, writes, evictions of a full index bucket', ['operation'], [], $samples)];
        });
    }

    /** The worker's shared store (WorkerServices::sharedCache()); outside a server, one of this process only. */
    public static function store(): Store
    {
        return WorkerServices::current()->sharedCache();
    }

    /** A store of this process only, of SPINDLE_CACHE_SIZE: a worker's without a shared one. */
    public static function processStore(): Store
    {
        return new MemoryStore(self::size(self::env('SPINDLE_CACHE_SIZE')));
    }

    private static function env(string $name): ?string
    {
        $value = \getenv($name);

        return \is_string($value) && $value !== '' ? $value : null;
    }

    /** Bytes from "64M", "512K", "1G" or a number; the default when null. */
    public static function size(?string $value): int
    {
        if ($value === null) {
            return self::DEFAULT_SIZE;
        }
        if (\preg_match('/^\s*(\d+)\s*([KMG]?)i?B?\s*$/i', $value, $m) !== 1) {
            throw new \InvalidArgumentException(\sprintf('SPINDLE_CACHE_SIZE must be a size such as 64M, got %s', $value));
        }

        return (int) $m[1] * (['' => 1, 'K' => 1024, 'M' => 1048576, 'G' => 1073741824][\strtoupper($m[2])]);
    }
}
