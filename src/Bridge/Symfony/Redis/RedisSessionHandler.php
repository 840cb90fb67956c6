<?php

declare(strict_types=1);

namespace Spindle\Bridge\Symfony\Redis;

use Spindle\Redis\RedisClient;
use Symfony\Component\HttpFoundation\Session\Storage\Handler\AbstractSessionHandler;

/**
 * Symfony sessions in Redis through Spindle's fiber-aware client, stored as Symfony's
 * RedisSessionHandler stores them (`<prefix><id>` strings, SETEX with the session lifetime), so
 * the two can share sessions. Symfony's handler accepts only phpredis or Predis objects.
 *
 *     # config/packages/framework.yaml
 *     framework:
 *         session:
 *             handler_id: Spindle\Bridge\Symfony\Redis\RedisSessionHandler
 *     # config/services.yaml
 *     Spindle\Bridge\Symfony\Redis\RedisSessionHandler:
 *         arguments: ['@Spindle\Redis\RedisClient', { prefix: 'sf_s', ttl: 3600 }]
 *
 * Like Symfony's, it takes no lock: of two requests changing one session at once, the last
 * to finish wins.
 */
final class RedisSessionHandler extends AbstractSessionHandler
{
    private readonly string $prefix;
    private readonly ?int $ttl;

    /** @param array{prefix?: string, ttl?: int} $options as Symfony's RedisSessionHandler */
    public function __construct(private readonly RedisClient $redis, array $options = [])
    {
        $this->prefix = $options['prefix'] ?? 'sf_s';
        $this->ttl = $options['ttl'] ?? null;
    }

    public function close(): bool
    {
        return true;
    }

    protected function doRead(string $sessionId): string
    {
        $value = $this->redis->execute('GET', $this->prefix . $sessionId);

        return \is_string($value) ? $value : '';
    }

    protected function doWrite(string $sessionId, string $data): bool
    {
        $reply = $this->redis->execute('SETEX', $this->prefix . $sessionId, (string) $this->lifetime(), $data);

        return $reply instanceof \Spindle\Redis\Protocol\Status && $reply->isOk();
    }

    protected function doDestroy(string $sessionId): bool
    {
        $this->redis->execute('DEL', $this->prefix . $sessionId);

        return true;
    }

    public function updateTimestamp(string $sessionId, string $data): bool
    {
        return $this->redis->execute('EXPIRE', $this->prefix . $sessionId, (string) $this->lifetime()) === 1;
    }

    public function gc(int $maxLifetime): int
    {
        // Redis expires the keys itself.
        return 0;
    }

    private function lifetime(): int
    {
        return max(1, $this->ttl ?? (int) \ini_get('session.gc_maxlifetime'));
    }
}
