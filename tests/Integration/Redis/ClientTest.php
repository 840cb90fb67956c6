<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\Redis;

use PHPUnit\Framework\TestCase;
use Revolt\EventLoop;
use Spindle\Redis\Lease;
use Spindle\Redis\Message;
use Spindle\Redis\Pipeline;
use Spindle\Redis\PhpRedisCompat;
use Spindle\Redis\RedisClient;
use Spindle\Redis\RedisConfig;
use Spindle\Redis\RedisError;
use Spindle\Redis\ServerException;

/** Spindle's Redis client against a private redis-server: fibers, pooling, sessions, auth. */
final class ClientTest extends TestCase
{
    private static ?RedisServer $server = null;

    public static function setUpBeforeClass(): void
    {
        self::$server = RedisServer::start(['--requirepass', 'secret']);
        $admin = RedisClient::fromUrl(self::url());
        $admin->execute('ACL', 'SETUSER', 'alice', 'on', '>wonderland', '~*', '+@all');
        $admin->close();
    }

    public static function tearDownAfterClass(): void
    {
        self::$server?->stop();
        self::$server = null;
    }

    protected function setUp(): void
    {
        $admin = RedisClient::fromUrl(self::url());
        $admin->execute('FLUSHALL');
        $admin->close();
    }

    public function testManyFibersShareOnePipelinedConnection(): void
    {
        $client = RedisClient::fromUrl(self::url());
        $client->execute('SET', 'counter', '0');
        $results = [];
        for ($fiber = 0; $fiber < 50; ++$fiber) {
            EventLoop::queue(static function () use ($client, $fiber, &$results): void {
                for ($i = 0; $i < 20; ++$i) {
                    $client->execute('INCR', 'counter');
                    $client->execute('SET', 'f' . $fiber, (string) $i);
                    $results[$fiber] = $client->execute('GET', 'f' . $fiber);
                }
            });
        }
        EventLoop::run();
        self::assertSame('1000', $client->execute('GET', 'counter'));
        self::assertSame(array_fill(0, 50, '19'), $results);
        self::assertSame(1, $client->connectionCount());
        self::assertSame(1, self::clientCount($client), 'one socket for all fifty fibers');
    }

    public function testBlockingCommandsWaitTogetherOnDedicatedConnections(): void
    {
        $client = RedisClient::fromUrl(self::url());
        $started = hrtime(true);
        $results = [];
        $blocked = 0;
        for ($i = 0; $i < 10; ++$i) {
            EventLoop::queue(static function () use ($client, $i, &$results): void {
                $results[$i] = $client->execute('BLPOP', 'queue' . $i, '1');
            });
        }
        EventLoop::queue(static function () use ($client, &$blocked): void {
            // While the ten wait, the shared connection still answers at once.
            $client->execute('PING');
            $deadline = hrtime(true) + 900_000_000;
            while ($blocked < 10 && hrtime(true) < $deadline) {
                $blocked = self::blockedClients($client);
            }
        });
        EventLoop::run();
        ksort($results);
        self::assertSame(array_fill(0, 10, null), $results);
        self::assertSame(10, $blocked, 'all ten BLPOPs were blocked in Redis at the same time');
        self::assertLessThan(5.0, (hrtime(true) - $started) / 1e9);
    }

    public function testABlockingCommandThatTimesOutWakesTheServerOnceAndOneAnsweredInTimeDoesNot(): void
    {
        $client = RedisClient::fromUrl(self::url());
        $admin = RedisClient::fromUrl(self::url());
        $admin->execute('CONFIG', 'RESETSTAT');
        // Three BLPOPs time out together: one PING wakes the server for all three.
        $results = [];
        for ($i = 0; $i < 3; ++$i) {
            EventLoop::queue(static function () use ($client, $i, &$results): void {
                $results[$i] = $client->execute('BLPOP', 'empty' . $i, '0.3');
            });
        }
        EventLoop::run();
        // In the order the BLPOPs were sent (they time out together, in any order).
        ksort($results);
        self::assertSame([null, null, null], $results);
        self::assertSame(1, self::pings($admin), 'the timed-out BLPOPs woke the server with one PING');

        // A BLPOP answered before its timeout leaves the server alone, also after the timeout.
        $admin->execute('CONFIG', 'RESETSTAT');
        $popped = null;
        EventLoop::queue(static function () use ($client, &$popped): void {
            $popped = $client->execute('BLPOP', 'jobs', '0.3');
        });
        EventLoop::queue(static fn () => $client->execute('RPUSH', 'jobs', 'job-1'));
        EventLoop::delay(0.5, static fn () => null);
        EventLoop::run();
        self::assertSame(['jobs', 'job-1'], $popped);
        self::assertSame(0, self::pings($admin));
        $client->close();
        $admin->close();
    }

    /** PING commands the server ran since its statistics were reset. */
    private static function pings(RedisClient $admin): int
    {
        $info = (string) $admin->execute('INFO', 'commandstats');

        return \preg_match('/^cmdstat_ping:calls=(\d+)/m', $info, $m) === 1 ? (int) $m[1] : 0;
    }

    public function testPoolIsBounded(): void
    {
        $client = new RedisClient(RedisConfig::fromArray(['host' => '127.0.0.1', 'port' => self::$server?->port, 'password' => 'secret', 'pool_size' => 2]));
        // The shared connection, which also wakes the server when the BLPOPs time out.
        $client->execute('PING');
        $maxOpen = 0;
        for ($i = 0; $i < 4; ++$i) {
            EventLoop::queue(static function () use ($client, &$maxOpen): void {
                $client->execute('BLPOP', 'nothing', '0.2');
                $maxOpen = max($maxOpen, $client->connectionCount());
            });
        }
        EventLoop::run();
        // The shared connection (open from the start) and the pool's two.
        self::assertLessThanOrEqual(3, $maxOpen);
    }

    public function testBlpopReceivesWhatAnotherFiberPushes(): void
    {
        $client = RedisClient::fromUrl(self::url());
        $popped = null;
        EventLoop::queue(static function () use ($client, &$popped): void {
            $popped = $client->execute('BLPOP', 'jobs', '5');
        });
        EventLoop::queue(static function () use ($client): void {
            $client->execute('RPUSH', 'jobs', 'job-1');
        });
        EventLoop::run();
        self::assertSame(['jobs', 'job-1'], $popped);
    }

    public function testPipelineAndTransaction(): void
    {
        $client = RedisClient::fromUrl(self::url());
        $replies = $client->pipeline()->add('SET', 'a', '1')->add('INCR', 'a')->add('LPUSH', 'a', 'x')->exec();
        self::assertEquals('OK', $replies[0]->value ?? null);
        self::assertSame(2, $replies[1]);
        self::assertInstanceOf(\Spindle\Redis\Protocol\ErrorReply::class, $replies[2]);

        $result = $client->transaction(static function (Pipeline $tx): void {
            $tx->add('INCR', 'n')->add('INCR', 'n')->add('GET', 'n');
        });
        self::assertSame([1, 2, '2'], $result);
    }

    public function testWatchAbortsOnConflict(): void
    {
        $client = RedisClient::fromUrl(self::url());
        $client->execute('SET', 'balance', '10');
        $result = $client->dedicated(static function (Lease $lease) use ($client): mixed {
            $lease->execute('WATCH', 'balance');
            $client->execute('SET', 'balance', '99'); // another writer, on the shared connection

            return $lease->connection->executeMany([['MULTI'], ['INCR', 'balance'], ['EXEC']])[2];
        });
        self::assertNull($result);
        self::assertSame('99', $client->execute('GET', 'balance'));
    }

    public function testSessionCommandsAreRefusedOnTheSharedConnection(): void
    {
        $this->expectException(RedisError::class);
        RedisClient::fromUrl(self::url())->execute('MULTI');
    }

    public function testSubscriptionIteratorSuspendsBetweenMessages(): void
    {
        $client = RedisClient::fromUrl(self::url());
        $received = [];
        EventLoop::queue(static function () use ($client, &$received): void {
            $subscription = $client->subscribe('news', 'sport');
            foreach ($subscription as $message) {
                \assert($message instanceof Message);
                $received[] = [$message->channel, $message->payload];
                if (\count($received) === 3) {
                    $subscription->close();
                }
            }
        });
        EventLoop::queue(static function () use ($client): void {
            while ((int) ($client->execute('PUBSUB', 'NUMSUB', 'sport')[1] ?? 0) === 0) {
                $client->execute('PING');
            }
            $client->execute('PUBLISH', 'news', 'one');
            $client->execute('PUBLISH', 'sport', 'two');
            $client->execute('PUBLISH', 'news', "three\0\r\n");
        });
        EventLoop::run();
        self::assertSame([['news', 'one'], ['sport', 'two'], ['news', "three\0\r\n"]], $received);
    }

    public function testPatternSubscriptionAndTimeout(): void
    {
        $client = RedisClient::fromUrl(self::url());
        $subscription = $client->psubscribe('user.*');
        self::assertNull($subscription->receive(0.05));
        $client->execute('PUBLISH', 'user.42', 'hello');
        $message = $subscription->receive(5);
        self::assertNotNull($message);
        self::assertSame(['user.42', 'hello', 'user.*'], [$message->channel, $message->payload, $message->pattern]);
        $subscription->close();
    }

    public function testAclUserDatabaseAndClientName(): void
    {
        $client = RedisClient::fromUrl('redis://alice:wonderland@127.0.0.1:' . self::$server?->port . '/3?name=spindle-test');
        $client->execute('SET', 'in-three', 'yes');
        self::assertSame('alice', $client->execute('ACL', 'WHOAMI'));
        self::assertSame('spindle-test', $client->execute('CLIENT', 'GETNAME'));
        $zero = RedisClient::fromUrl(self::url());
        self::assertNull($zero->execute('GET', 'in-three'));
        self::assertSame('yes', RedisClient::fromUrl(self::url() . '/3')->execute('GET', 'in-three'));
    }

    public function testWrongPasswordAndNoAuth(): void
    {
        try {
            RedisClient::fromUrl('redis://:wrong@127.0.0.1:' . self::$server?->port)->execute('PING');
            self::fail('no exception');
        } catch (ServerException $e) {
            self::assertSame('WRONGPASS', $e->kind());
        }
        try {
            RedisClient::fromUrl('redis://127.0.0.1:' . self::$server?->port)->execute('GET', 'x');
            self::fail('no exception');
        } catch (ServerException $e) {
            self::assertSame('NOAUTH', $e->kind());
        }
    }

    /** @requires extension redis */
    public function testNoAuthThrowsLikePhpRedis(): void
    {
        $native = new \Redis();
        $native->connect('127.0.0.1', (int) self::$server?->port);
        $ours = new PhpRedisCompat('redis://127.0.0.1:' . self::$server?->port);
        $outcomes = [];
        foreach ([$native, $ours] as $redis) {
            try {
                $outcomes[] = $redis->get('x');
            } catch (\RedisException $e) {
                $outcomes[] = [\get_class($e), $e->getMessage()];
            }
        }
        self::assertSame($outcomes[0], $outcomes[1]);
        self::assertSame(\RedisException::class, $outcomes[1][0] ?? null);
    }

    /** @requires extension redis */
    public function testLargeBinaryValueBothWays(): void
    {
        $size = 64 << 20;
        $value = str_repeat(random_bytes(1 << 16), $size >> 16);
        $ours = new PhpRedisCompat(self::url());
        self::assertTrue($ours->set('big', $value));
        $native = new \Redis();
        $native->connect('127.0.0.1', (int) self::$server?->port);
        $native->auth('secret');
        self::assertSame(md5($value), md5((string) $native->get('big')));
        $native->set('big2', $value . 'x');
        unset($value);
        $read = $ours->get('big2');
        self::assertSame($size + 1, \strlen((string) $read));
        self::assertSame('x', substr((string) $read, -1));
    }

    public function testATransactionLeftOpenByOneRequestIsNotInheritedByTheNext(): void
    {
        $redis = new PhpRedisCompat(RedisClient::fromUrl(self::url()));
        $redis->set('k', 'before');
        EventLoop::queue(static function () use ($redis): void {
            $redis->watch('k');
            $redis->multi()->set('k', 'never');
            // the request fails here: no exec(), no discard()
        });
        EventLoop::run();
        $seen = null;
        EventLoop::queue(static function () use ($redis, &$seen): void {
            $seen = [$redis->getMode(), $redis->get('k'), $redis->multi()->incr('n')->exec()];
        });
        EventLoop::run();
        self::assertSame([PhpRedisCompat::ATOMIC, 'before', [1]], $seen);
    }

    public function testResp3(): void
    {
        $client = RedisClient::fromUrl(self::url() . '?protocol=3');
        $client->execute('HSET', 'h', 'f', 'v');
        $map = $client->execute('HGETALL', 'h');
        self::assertInstanceOf(\Spindle\Redis\Protocol\Map::class, $map);
        self::assertSame(['f' => 'v'], $map->toArray());
        $client->execute('ZADD', 'z', '1.5', 'm');
        self::assertSame(1.5, $client->execute('ZSCORE', 'z', 'm'));
        $subscription = $client->subscribe('resp3');
        $client->execute('PUBLISH', 'resp3', 'pushed');
        self::assertSame('pushed', $subscription->receive(5)?->payload);
        $subscription->close();
        // Tracking invalidations arrive as push messages between replies, and are skipped.
        $client->execute('CLIENT', 'TRACKING', 'ON');
        $client->execute('GET', 'tracked');
        $client->execute('SET', 'tracked', '1');
        self::assertSame('1', $client->execute('GET', 'tracked'));
    }

    public function testConfigFromUrlAndArray(): void
    {
        $config = RedisConfig::fromUrl('rediss://bob:p%40ss@cache.internal:6380/2?timeout=1.5&read_timeout=3&name=web');
        self::assertSame(['cache.internal', 6380, true, 'bob', 'p@ss', 2, 'web', 1.5, 3.0], [$config->host, $config->port, $config->tls, $config->username, $config->password, $config->database, $config->clientName, $config->connectTimeout, $config->readTimeout]);
        $laravel = RedisConfig::fromArray(['host' => '10.0.0.1', 'password' => null, 'port' => '6379', 'database' => '1', 'read_timeout' => 0]);
        self::assertSame(['10.0.0.1', 6379, null, 1, 0.0], [$laravel->host, $laravel->port, $laravel->password, $laravel->database, $laravel->readTimeout]);
        self::assertSame('/run/redis.sock', RedisConfig::fromUrl('unix:///run/redis.sock')->unixSocket);
        $this->expectException(RedisError::class);
        RedisConfig::fromUrl('http://example.com');
    }

    private static function url(): string
    {
        return 'redis://:secret@127.0.0.1:' . self::$server?->port;
    }

    private static function clientCount(RedisClient $client): int
    {
        return \count(array_filter(explode("\n", trim((string) $client->execute('CLIENT', 'LIST')))));
    }

    private static function blockedClients(RedisClient $client): int
    {
        preg_match('/blocked_clients:(\d+)/', (string) $client->execute('INFO', 'clients'), $m);

        return (int) ($m[1] ?? 0);
    }
}
