<?php

declare(strict_types=1);

namespace Spindle\Bridge\Symfony\Redis;

use Spindle\Redis\RedisClient;
use Symfony\Component\Cache\Adapter\AbstractAdapter;
use Symfony\Component\Cache\Marshaller\DefaultMarshaller;
use Symfony\Component\Cache\Marshaller\MarshallerInterface;

/**
 * A Symfony cache pool on Spindle's fiber-aware Redis client: what Symfony's RedisAdapter does
 * (same keys, same marshalling, SET/SETEX in one pipeline, MGET to fetch), except that a wait on
 * Redis suspends only the request's fiber. Symfony's own RedisAdapter accepts only \Redis,
 * \RedisArray, \RedisCluster or Predis objects, so it cannot take Spindle's client.
 *
 *     # config/services.yaml
 *     Spindle\Redis\RedisClient:
 *         factory: ['Spindle\Redis\RedisClient', 'fromUrl']
 *         arguments: ['%env(REDIS_URL)%']
 *     cache.adapter.spindle_redis:
 *         class: Spindle\Bridge\Symfony\Redis\RedisCacheAdapter
 *         abstract: true
 *         arguments: ['@Spindle\Redis\RedisClient', '', 0]
 *         tags: [{ name: cache.pool, provider: 'Spindle\Redis\RedisClient' }]
 */
final class RedisCacheAdapter extends AbstractAdapter
{
    private readonly MarshallerInterface $marshaller;

    public function __construct(private readonly RedisClient $redis, string $namespace = '', int $defaultLifetime = 0, ?MarshallerInterface $marshaller = null)
    {
        parent::__construct($namespace, $defaultLifetime);
        $this->marshaller = $marshaller ?? new DefaultMarshaller();
    }

    /**
     * @param array<int, string> $ids
     *
     * @return array<string, mixed>
     */
    protected function doFetch(array $ids): iterable
    {
        if ($ids === []) {
            return [];
        }
        $ids = array_values($ids);
        $values = $this->redis->execute('MGET', ...$ids);
        $found = [];
        foreach (\is_array($values) ? $values : [] as $i => $value) {
            if (\is_string($value)) {
                $found[$ids[$i]] = $this->marshaller->unmarshall($value);
            }
        }

        return $found;
    }

    protected function doHave(string $id): bool
    {
        return $this->redis->execute('EXISTS', $id) === 1;
    }

    protected function doClear(string $namespace): bool
    {
        $cursor = '0';
        do {
            $reply = $this->redis->execute('SCAN', $cursor, 'MATCH', addcslashes($namespace, '*?[]\\') . '*', 'COUNT', '1000');
            if (!\is_array($reply) || !\is_array($reply[1] ?? null)) {
                return false;
            }
            $cursor = (string) $reply[0];
            if ($reply[1] !== []) {
                $this->redis->execute('DEL', ...array_map('strval', $reply[1]));
            }
        } while ($cursor !== '0');

        return true;
    }

    /** @param array<int, string> $ids */
    protected function doDelete(array $ids): bool
    {
        if ($ids !== []) {
            $this->redis->execute('DEL', ...array_values($ids));
        }

        return true;
    }

    /**
     * @param array<string, mixed> $values
     *
     * @return array<int, string> the ids that failed
     */
    protected function doSave(array $values, int $lifetime): array
    {
        $failed = [];
        $values = $this->marshaller->marshall($values, $failed);
        $failed = array_values(array_map('strval', $failed ?? []));
        if ($values === []) {
            return $failed;
        }
        $pipeline = $this->redis->pipeline();
        foreach ($values as $id => $value) {
            $lifetime > 0 ? $pipeline->add('SETEX', (string) $id, (string) $lifetime, $value) : $pipeline->add('SET', (string) $id, $value);
        }
        $ids = array_keys($values);
        foreach ($pipeline->exec() ?? [] as $i => $reply) {
            if (!$reply instanceof \Spindle\Redis\Protocol\Status || !$reply->isOk()) {
                $failed[] = (string) $ids[$i];
            }
        }

        return $failed;
    }
}
