<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\LaravelFixture;
use Spindle\Tests\E2E\Support\ServerProcess;
use Spindle\Tests\Integration\Redis\RedisServer;

/**
 * The Laravel fixture app on Redis under Spindle: connections configured for phpredis use
 * Spindle's client (one opted out keeps phpredis), and the cache store (tags, locks, increment,
 * many/putMany), the redis session driver, the queue (push, later, pop, release), the throttle
 * middleware, pipeline/transaction/funnel/throttle/eval/scan all work — and ten requests
 * waiting in BLPOP overlap in one worker.
 *
 * @requires extension redis
 */
final class LaravelRedisTest extends E2ETestCase
{
    private static ?RedisServer $redis = null;
    /** @var list<string> */
    private array $jars = [];

    public static function setUpBeforeClass(): void
    {
        self::$redis = RedisServer::start();
        putenv('REDIS_PORT=' . self::$redis->port);
        putenv('SESSION_DRIVER=redis');
    }

    public static function tearDownAfterClass(): void
    {
        parent::tearDownAfterClass();
        putenv('REDIS_PORT');
        putenv('SESSION_DRIVER');
        self::$redis?->stop();
        self::$redis = null;
    }

    protected function tearDown(): void
    {
        foreach ($this->jars as $jar) {
            @unlink($jar);
        }
    }

    private static function server(): ServerProcess
    {
        LaravelFixture::useTestDatabase();

        return self::sharedServer(LaravelFixture::path(), ['--workers=1']);
    }

    /** @return array<string, mixed> */
    private static function json(string $path, ?string $jar = null): array
    {
        $server = self::server();
        $arguments = $jar === null ? [$server->url($path)] : ['-b', $jar, '-c', $jar, $server->url($path)];
        $response = self::curl($arguments, 30.0);
        $data = json_decode($response['out'], true);
        self::assertIsArray($data, $response['out'] . "\n" . $server->stderr());

        return $data;
    }

    public function testPhpRedisConnectionsUseSpindlesClientUnlessOptedOut(): void
    {
        $data = self::json('/redis/client');
        self::assertSame('Spindle\Redis\PhpRedisCompat', $data['default']);
        self::assertSame('Redis', $data['native']);
        self::assertSame('Redis', self::native('/redis/client')['default'], 'SPINDLE_REDIS_DRIVER=native');
    }

    /**
     * The same route on a server started with SPINDLE_REDIS_DRIVER=native (Laravel's phpredis).
     *
     * @return array<string, mixed>
     */
    private static function native(string $path): array
    {
        putenv('SPINDLE_REDIS_DRIVER=native');
        try {
            $server = self::sharedServer(LaravelFixture::path(), ['--workers=1', '--concurrency=4']);
        } finally {
            putenv('SPINDLE_REDIS_DRIVER');
        }
        $response = self::curl([$server->url($path)], 30.0);
        $data = json_decode($response['out'], true);
        self::assertIsArray($data, $response['out'] . "\n" . $server->stderr());

        return $data;
    }

    public function testArtisanCommandsKeepTheAppsClientUnlessSpindleIsConfigured(): void
    {
        self::assertSame('Redis', self::artisan(['redis:client']));
        putenv('REDIS_CLIENT=spindle');
        try {
            self::assertSame('Spindle\Redis\PhpRedisCompat', self::artisan(['redis:client']));
        } finally {
            putenv('REDIS_CLIENT');
        }
    }

    /** @param list<string> $arguments */
    private static function artisan(array $arguments): string
    {
        $process = proc_open([\PHP_BINARY, 'artisan', ...$arguments], [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['redirect', 1]], $pipes, LaravelFixture::path());
        self::assertIsResource($process);
        $output = (string) stream_get_contents($pipes[1]);
        self::assertSame(0, proc_close($process), $output);

        return trim($output);
    }

    public function testCacheStoreAsWithPhpRedis(): void
    {
        $data = self::json('/redis/cache');
        self::assertSame(self::native('/redis/cache'), $data);
        self::assertSame(['hello', ['a' => 1, 'b' => [2.5, true]], [1, 6, 4], ['m1' => 'one', 'm2' => '2', 'm3' => null], ['John', 'Anne'], [null, null], [true, false, true, true]],
            [$data['get'], $data['array'], $data['increment'], $data['many'], $data['tags'], $data['tags_flushed'], $data['lock']]);
        // The connection's prefix reached the server.
        $native = new \Redis();
        $native->connect('127.0.0.1', (int) self::$redis?->port);
        self::assertSame(1, $native->exists('fixture_fixture_cache:greeting'));
    }

    /** A connection configured with phpredis's serializer and compression stores phpredis's bytes. */
    public function testSerializerAndCompressionAsWithPhpRedis(): void
    {
        $data = self::json('/redis/packed');
        $native = self::native('/redis/packed');
        self::assertSame('Spindle\Redis\PhpRedisCompat', $data['client']);
        self::assertSame('Redis', $native['client']);
        unset($data['client'], $native['client']);
        self::assertSame($native, $data);
        self::assertSame(['a' => 1, 'b' => [2.5, true], 'text' => str_repeat('spindle ', 40)], $data['get']);
        self::assertSame([['x'], 7], [$data['hgetall']['f'], $data['hgetall']['g']]);
        self::assertSame(['one', ['two']], $data['lrange']);
        self::assertSame(['from' => 'lua'], $data['eval_get']);
        // igbinary then LZ4: phpredis's LZ4 header, and far fewer bytes than the value
        self::assertLessThan(120, \strlen($data['raw'][0]) / 2);
    }

    public function testRedisSessionDriver(): void
    {
        $jar = (string) tempnam(sys_get_temp_dir(), 'spindle-redis-jar-');
        $this->jars[] = $jar;
        self::assertSame(['stored' => 'blue', 'driver' => 'redis'], self::json('/redis/session/put/blue', $jar));
        self::assertSame(['value' => 'blue'], self::json('/redis/session/get', $jar));
        self::assertSame(['value' => 'none'], self::json('/redis/session/get'));
    }

    public function testQueuePushLaterPopReleaseAsWithPhpRedis(): void
    {
        $data = self::json('/redis/queue');
        self::assertSame(self::native('/redis/queue'), $data);
        self::assertSame(['n' => 1], $data['popped']);
        self::assertSame(2, $data['delayed_after_release']);
    }

    public function testThrottleMiddleware(): void
    {
        $server = self::server();
        $codes = [];
        for ($i = 0; $i < 4; ++$i) {
            $codes[] = trim(self::curl(['-o', '/dev/null', '-w', '%{http_code}', $server->url('/redis/throttled')])['out']);
        }
        self::assertSame(['200', '200', '200', '429'], $codes);
    }

    public function testConnectionHelpersAsWithPhpRedis(): void
    {
        $data = self::json('/redis/ops');
        self::assertSame(self::native('/redis/ops'), $data);
        self::assertSame([true, 2, '2'], $data['pipeline']);
        self::assertSame('funnel ran', $data['funnel']);
        self::assertSame('throttle ran', $data['throttle']);
    }

    public function testTenBlpopRequestsOverlapInOneWorker(): void
    {
        $server = self::server();
        self::json('/redis/client'); // the instance pool is warm
        $watcher = new \Redis();
        $watcher->connect('127.0.0.1', (int) self::$redis?->port);
        $started = microtime(true);
        $curls = [];
        for ($i = 0; $i < 10; ++$i) {
            $curls[] = proc_open(['curl', '--noproxy', '*', '-s', '--max-time', '30', $server->url('/redis/blpop?timeout=3')], [1 => ['pipe', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes);
            $outputs[$i] = $pipes[1];
        }
        // All ten were blocked in Redis at once: each waits 3 s, so that the ten overlap even when
        // a busy machine spreads their starts (nine app instances boot for them) over a second or two.
        $maxBlocked = 0;
        while (microtime(true) - $started < 20 && $maxBlocked < 10) {
            $maxBlocked = max($maxBlocked, (int) ($watcher->info('clients')['blocked_clients'] ?? 0));
        }
        $pids = [];
        foreach ($curls as $i => $process) {
            $data = json_decode((string) stream_get_contents($outputs[$i]), true);
            proc_close($process);
            self::assertIsArray($data, $server->stderr());
            self::assertNull($data['result']);
            $pids[$data['pid']] = true;
        }
        $elapsed = microtime(true) - $started;
        self::assertCount(1, $pids, 'one worker served them all');
        self::assertSame(10, $maxBlocked, 'all ten requests were blocked in BLPOP at the same time');
        // One after the other they would take 30 s.
        self::assertLessThan(10.0, $elapsed);
    }
}
