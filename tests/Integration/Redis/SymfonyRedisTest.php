<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\Redis;

use PHPUnit\Framework\TestCase;
use Revolt\EventLoop;
use Spindle\Bridge\Symfony\Redis\RedisCacheAdapter;
use Spindle\Bridge\Symfony\Redis\RedisSessionHandler;
use Spindle\Redis\RedisClient;

/** Symfony's cache pool and session handler over Spindle's Redis client, against redis-server. */
final class SymfonyRedisTest extends TestCase
{
    private static ?RedisServer $server = null;

    public static function setUpBeforeClass(): void
    {
        self::$server = RedisServer::start();
    }

    public static function tearDownAfterClass(): void
    {
        self::$server?->stop();
        self::$server = null;
    }

    public function testCachePool(): void
    {
        $redis = RedisClient::fromUrl((string) self::$server?->url());
        $pool = new RedisCacheAdapter($redis, 'app', 0);
        $item = $pool->getItem('user.1');
        self::assertFalse($item->isHit());
        $pool->save($item->set(['name' => 'Ada', 'age' => 36])->expiresAfter(60));
        $pool->saveDeferred($pool->getItem('other')->set('deferred'));
        self::assertTrue($pool->commit());
        self::assertSame(['name' => 'Ada', 'age' => 36], $pool->getItem('user.1')->get());
        self::assertTrue($pool->hasItem('other'));
        self::assertSame('computed', $pool->get('contract', static fn (): string => 'computed'));
        self::assertGreaterThan(50, $redis->execute('TTL', 'app:user.1'));
        self::assertTrue($pool->deleteItem('other'));
        self::assertFalse($pool->hasItem('other'));
        $redis->execute('SET', 'foreign', 'kept');
        self::assertTrue($pool->clear());
        self::assertFalse($pool->getItem('user.1')->isHit());
        self::assertSame('kept', $redis->execute('GET', 'foreign'));
    }

    public function testCachePoolFromConcurrentFibers(): void
    {
        $pool = new RedisCacheAdapter(RedisClient::fromUrl((string) self::$server?->url()), 'fibers');
        $seen = [];
        for ($i = 0; $i < 20; ++$i) {
            EventLoop::queue(static function () use ($pool, $i, &$seen): void {
                $pool->save($pool->getItem('k' . $i)->set($i));
                $seen[$i] = $pool->getItem('k' . $i)->get();
            });
        }
        EventLoop::run();
        ksort($seen);
        self::assertSame(range(0, 19), $seen);
    }

    public function testSessionHandler(): void
    {
        $redis = RedisClient::fromUrl((string) self::$server?->url());
        $handler = new RedisSessionHandler($redis, ['prefix' => 'sess_', 'ttl' => 120]);
        self::assertTrue($handler->open('', 'PHPSESSID'));
        self::assertSame('', $handler->read('abc'));
        self::assertTrue($handler->write('abc', 'data|s:1:"x";'));
        self::assertSame('data|s:1:"x";', $handler->read('abc'));
        self::assertGreaterThan(100, $redis->execute('TTL', 'sess_abc'));
        self::assertTrue($handler->updateTimestamp('abc', 'data|s:1:"x";'));
        self::assertTrue($handler->destroy('abc'));
        self::assertNull($redis->execute('GET', 'sess_abc'));
        self::assertTrue($handler->close());
    }
}
