<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\Integration\Redis\RedisServer;

/**
 * The Symfony 7.4 fixture configured as Symfony's recipes configure an app, with nothing about
 * Spindle: DoctrineBundle on `url: '%env(DATABASE_URL)%'` (a mysql:// URL), cache.app and the
 * sessions on `%env(REDIS_URL)%`, FrameworkBundle's http_client. Under `spindle serve` each of
 * them gets Spindle's client (SpindleBundle, added by KernelWiring), so their waits suspend only
 * the request's fiber; SPINDLE_*_DRIVER=native keeps the app's own.
 */
final class Symfony74ClientsTest extends SymfonyFixtureTestCase
{
    private const CONCURRENT = 10;

    private static ?RedisServer $redis = null;

    public static function setUpBeforeClass(): void
    {
        self::$redis = RedisServer::start();
        // Read by the fixture's config/packages/redis.php when its container is built.
        \putenv('REDIS_URL=' . self::$redis->url());
        parent::setUpBeforeClass();
    }

    public static function tearDownAfterClass(): void
    {
        parent::tearDownAfterClass();
        \putenv('REDIS_URL');
        self::$redis?->stop();
        self::$redis = null;
    }

    protected static function app(): string
    {
        return \dirname(__DIR__) . '/fixtures/symfony74-app';
    }

    public function testEveryStandardServiceGetsSpindlesClient(): void
    {
        $server = self::sharedServer(self::app(), ['--workers=1', '--concurrency=16']);
        self::assertStringContainsString("Symfony: Spindle's clients for doctrine.dbal.default_connection (DBAL), cache.app (Redis), cache.http_client.pool (Redis), http_client.transport (HTTP), session.abstract_handler (Redis sessions) (SpindleBundle added to the app's bundles", $server->stderr());
        self::assertSame([
            'pdo' => 'Spindle\Database\Pdo',
            'driver' => 'Symfony\Bridge\Doctrine\Middleware\IdleConnection\Driver',
            'cache' => 'Spindle\Bridge\Symfony\Redis\RedisCacheAdapter',
            'http' => 'Spindle\HttpClient\Symfony\SpindleHttpClient',
        ], self::json($server, '/clients/classes'));
    }

    public function testTenDoctrineSleepsOverlapInOneWorker(): void
    {
        $server = self::sharedServer(self::app(), ['--workers=1', '--concurrency=16']);
        self::json($server, '/clients/sleep?seconds=0');
        $started = \microtime(true);
        $bodies = LaravelFixture::curlAll(\array_fill(0, self::CONCURRENT, ['-s', $server->url('/clients/sleep?seconds=1')]));
        $elapsed = \microtime(true) - $started;
        foreach ($bodies as $body) {
            self::assertSame(['slept' => 1, 'result' => 0], \json_decode($body, true), $server->stderr());
        }
        // Ten one-second queries one after the other would take ten seconds.
        self::assertLessThan(4.0, $elapsed, $server->stderr());
        self::assertStringNotContainsString('blocked the event loop', $server->stderr());
    }

    public function testTheEnvironmentKeepsTheNativeClients(): void
    {
        \putenv('SPINDLE_MYSQL_DRIVER=native');
        \putenv('SPINDLE_REDIS_DRIVER=native');
        \putenv('SPINDLE_HTTP_DRIVER=native');
        try {
            $server = ServerProcess::start(self::app(), ['--workers=1']);
        } finally {
            \putenv('SPINDLE_MYSQL_DRIVER');
            \putenv('SPINDLE_REDIS_DRIVER');
            \putenv('SPINDLE_HTTP_DRIVER');
        }
        $classes = self::json($server, '/clients/classes');
        self::assertSame('PDO', $classes['pdo']);
        self::assertSame('Symfony\Component\Cache\Adapter\RedisAdapter', $classes['cache']);
        self::assertStringStartsWith('Symfony\Component\HttpClient\\', (string) $classes['http']);
        $server->stop();
    }

    public function testCachePoolStoresInRedisAsSymfonysAdapterDoes(): void
    {
        $server = self::sharedServer(self::app(), ['--workers=1', '--concurrency=16']);
        $key = 'k' . \bin2hex(\random_bytes(4));
        self::assertSame(['key' => $key, 'hit' => false, 'value' => 'v1'], self::json($server, "/clients/cache?key=$key&value=v1"));
        self::assertSame(['key' => $key, 'hit' => true, 'value' => 'v1'], self::json($server, "/clients/cache?key=$key"));

        // The server holds it under Symfony's key (<namespace>:<key>), marshalled as Symfony's would.
        $redis = new \Redis();
        self::assertNotNull(self::$redis);
        $redis->connect('127.0.0.1', self::$redis->port);
        $keys = $redis->keys("*:$key");
        self::assertCount(1, $keys);
        self::assertSame('v1', \unserialize((string) $redis->get($keys[0])));

        // A value Symfony's own adapter stored (the same container, SPINDLE_REDIS_DRIVER=native) reads back.
        \putenv('SPINDLE_REDIS_DRIVER=native');
        try {
            $native = ServerProcess::start(self::app(), ['--workers=1']);
        } finally {
            \putenv('SPINDLE_REDIS_DRIVER');
        }
        $other = $key . 'n';
        self::assertSame(['key' => $other, 'hit' => false, 'value' => 'v2'], self::json($native, "/clients/cache?key=$other&value=v2"));
        self::assertSame(['key' => $key, 'hit' => true, 'value' => 'v1'], self::json($native, "/clients/cache?key=$key"));
        $native->stop();
        self::assertSame(['key' => $other, 'hit' => true, 'value' => 'v2'], self::json($server, "/clients/cache?key=$other"));
    }

    public function testSessionsLiveInRedis(): void
    {
        $server = self::sharedServer(self::app(), ['--workers=1', '--concurrency=16']);
        self::assertStringContainsString("sessions use Spindle's storage (cookie PHPSESSID, Spindle\\Bridge\\Symfony\\Redis\\RedisSessionHandler)", $server->stderr());
        $jar = $this->cookieJar();
        $set = self::json($server, '/session/set?value=redis-session', $jar);
        self::assertSame('redis-session', $set['value']);
        self::assertSame('redis-session', self::json($server, '/session/get', $jar)['value']);

        $redis = new \Redis();
        self::assertNotNull(self::$redis);
        $redis->connect('127.0.0.1', self::$redis->port);
        $stored = $redis->get('sf_s' . $set['id']);
        self::assertIsString($stored);
        self::assertStringContainsString('redis-session', $stored);
        self::assertGreaterThan(0, $redis->ttl('sf_s' . $set['id']));
    }

    public function testTenHttpClientRequestsOverlapInOneWorker(): void
    {
        $server = self::sharedServer(self::app(), ['--workers=1', '--concurrency=16']);
        $upstream = ServerProcess::start(ServerProcess::fixture('delay.php'), ['--workers=1']);
        $url = \rawurlencode($upstream->url('/slow?s=1'));
        $started = \microtime(true);
        $bodies = LaravelFixture::curlAll(\array_fill(0, self::CONCURRENT, ['-s', $server->url("/clients/fetch?url=$url")]));
        $elapsed = \microtime(true) - $started;
        foreach ($bodies as $body) {
            $response = \json_decode($body, true);
            self::assertIsArray($response, $body . $server->stderr());
            self::assertSame(200, $response['status']);
            self::assertStringContainsString('"path":"\/slow"', (string) $response['body']);
        }
        self::assertLessThan(4.0, $elapsed, $server->stderr());
        $upstream->stop();
    }

    /**
     * A deploy that warms the cache with bin/console leaves a container without SpindleBundle:
     * the worker builds it again, with it, in the same place, and the console keeps working on
     * that container with the app's own clients.
     */
    public function testAContainerTheConsoleBuiltIsBuiltAgainWithSpindlesClients(): void
    {
        self::console(['cache:clear', '--no-warmup']);
        self::console(['cache:warmup']);
        $container = self::app() . '/var/cache/prod/App_KernelProdContainer.php';
        self::assertFileExists($container);

        $server = ServerProcess::start(self::app(), ['--workers=1']);
        self::assertStringContainsString('(SpindleBundle added to the app\'s bundles, container rebuilt)', $server->stderr());
        self::assertSame('Spindle\Database\Pdo', self::json($server, '/clients/classes')['pdo']);
        $server->stop();
        // Started again, the worker finds the container it built.
        $again = ServerProcess::start(self::app(), ['--workers=1']);
        self::assertStringContainsString('(SpindleBundle added to the app\'s bundles)', $again->stderr());
        $again->stop();

        self::assertStringContainsString('42', self::console(['dbal:run-sql', 'SELECT 42']));
    }

    /**
     * An app that lists SpindleBundle in config/bundles.php (for a cache warmed in a read-only
     * image) has it in the container bin/console builds, where its services stay native; the
     * workers use that container as it is.
     */
    public function testAnAppMayListTheBundleItself(): void
    {
        \putenv('FIXTURE_LISTS_SPINDLE_BUNDLE=1');
        try {
            self::console(['cache:clear', '--no-warmup']);
            self::console(['cache:warmup']);
            self::assertStringContainsString('42', self::console(['dbal:run-sql', 'SELECT 42']));
            $server = ServerProcess::start(self::app(), ['--workers=1']);
        } finally {
            \putenv('FIXTURE_LISTS_SPINDLE_BUNDLE');
        }
        self::assertStringContainsString('(listed in config/bundles.php)', $server->stderr());
        self::assertStringNotContainsString('container rebuilt', $server->stderr());
        self::assertSame('Spindle\Database\Pdo', self::json($server, '/clients/classes')['pdo']);
        $server->stop();
    }

    /** @param list<string> $arguments */
    private static function console(array $arguments): string
    {
        $process = \proc_open([\PHP_BINARY, 'bin/console', ...$arguments], [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['redirect', 1]], $pipes, self::app());
        self::assertIsResource($process);
        $output = (string) \stream_get_contents($pipes[1]);
        self::assertSame(0, \proc_close($process), $output);

        return $output;
    }

    /** @return array<string, mixed> */
    private static function json(ServerProcess $server, string $path, ?string $jar = null): array
    {
        $result = self::curl(['-s', ...($jar === null ? [] : ['-b', $jar, '-c', $jar]), $server->url($path)]);
        $json = \json_decode($result['out'], true);
        self::assertIsArray($json, $result['out'] . $server->stderr());

        return $json;
    }
}
