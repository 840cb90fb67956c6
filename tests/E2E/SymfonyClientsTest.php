<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\Integration\Redis\RedisServer;

/**
 * The Symfony 5.4 fixture (Debian's Symfony, DoctrineBundle 2.3 and DBAL 3 from the package
 * registry) configured as Symfony's recipes configure an app, with nothing about Spindle:
 * DoctrineBundle on `url: '%env(resolve:DATABASE_URL)%'` (a mysql:// URL), cache.app and the
 * sessions on `%env(REDIS_URL)%`, FrameworkBundle's http_client. Under `spindle serve` they get
 * Spindle's clients, as on 7.4 (Symfony74ClientsTest), although this DoctrineBundle knows no DBAL
 * middlewares: SpindleBundle gives the connection's configuration Spindle's middleware itself.
 */
final class SymfonyClientsTest extends SymfonyFixtureTestCase
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

    public function testCacheSessionsAndHttpClientGetSpindlesClients(): void
    {
        $server = self::sharedServer(self::app(), ['--workers=1', '--concurrency=16']);
        self::assertStringContainsString("Symfony: Spindle's clients for doctrine.dbal.default_connection (DBAL), cache.app (Redis)", $server->stderr());
        self::assertStringContainsString('http_client (HTTP)', $server->stderr());
        self::assertStringContainsString("sessions use Spindle's storage (cookie PHPSESSID, Spindle\\Bridge\\Symfony\\Redis\\RedisSessionHandler)", $server->stderr());
        self::assertSame([
            'pdo' => 'Spindle\Database\Pdo',
            'driver' => 'Spindle\Bridge\Doctrine\Driver',
            'cache' => 'Spindle\Bridge\Symfony\Redis\RedisCacheAdapter',
            'http' => 'Spindle\HttpClient\Symfony\SpindleHttpClient',
        ], self::json($server, '/clients/classes'));

        $key = 'k' . \bin2hex(\random_bytes(4));
        self::assertSame(['key' => $key, 'hit' => false, 'value' => 'v1'], self::json($server, "/clients/cache?key=$key&value=v1"));
        self::assertSame(['key' => $key, 'hit' => true, 'value' => 'v1'], self::json($server, "/clients/cache?key=$key"));
        $jar = $this->cookieJar();
        $set = self::json($server, '/session/set?value=redis-54', $jar);
        self::assertSame('redis-54', self::json($server, '/session/get', $jar)['value']);

        $redis = new \Redis();
        self::assertNotNull(self::$redis);
        $redis->connect('127.0.0.1', self::$redis->port);
        self::assertCount(1, $redis->keys("*:$key"));
        self::assertStringContainsString('redis-54', (string) $redis->get('sf_s' . $set['id']));
    }

    public function testTenDoctrineSleepsOverlapInOneWorker(): void
    {
        $server = self::sharedServer(self::app(), ['--workers=1', '--concurrency=16']);
        self::json($server, '/clients/sleep?seconds=0');
        $started = \microtime(true);
        $bodies = LaravelFixture::curlAll(\array_fill(0, self::CONCURRENT, ['-s', $server->url('/clients/sleep?seconds=1')]));
        $elapsed = \microtime(true) - $started;
        foreach ($bodies as $body) {
            self::assertSame(['slept' => 1, 'result' => 0], \json_decode($body, true), $body . $server->stderr());
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
        self::assertSame('Doctrine\DBAL\Driver\PDO\MySQL\Driver', $classes['driver']);
        self::assertSame('Symfony\Component\Cache\Adapter\RedisAdapter', $classes['cache']);
        self::assertStringStartsWith('Symfony\Component\HttpClient\\', (string) $classes['http']);
        // DoctrineBundle's connection still answers, through pdo_mysql.
        self::assertSame(['slept' => 0, 'result' => 0], self::json($server, '/clients/sleep?seconds=0'));
        $server->stop();
    }

    public function testTenHttpClientRequestsOverlapInOneWorker(): void
    {
        $server = self::sharedServer(self::app(), ['--workers=1', '--concurrency=16']);
        $upstream = ServerProcess::start(ServerProcess::fixture('delay.php'), ['--workers=1']);
        $url = \rawurlencode($upstream->url('/slow?s=1'));
        $started = \microtime(true);
        $bodies = LaravelFixture::curlAll(\array_fill(0, 10, ['-s', $server->url("/clients/fetch?url=$url")]));
        $elapsed = \microtime(true) - $started;
        foreach ($bodies as $body) {
            $response = \json_decode($body, true);
            self::assertIsArray($response, $body . $server->stderr());
            self::assertSame(200, $response['status']);
        }
        // Ten one-second requests one after the other would take ten seconds.
        self::assertLessThan(4.0, $elapsed, $server->stderr());
        $upstream->stop();
    }

    /**
     * A container bin/console warmed (DoctrineBundle's, without SpindleBundle) is built again by
     * the worker with Spindle's middleware in the connection's configuration; the console keeps
     * working on that container, with pdo_mysql.
     */
    public function testAContainerTheConsoleBuiltIsBuiltAgainWithSpindlesDriver(): void
    {
        self::console(['cache:clear', '--no-warmup']);
        self::console(['cache:warmup']);
        self::assertFileExists(self::app() . '/var/cache/prod/App_KernelProdContainer.php');

        $server = ServerProcess::start(self::app(), ['--workers=1']);
        self::assertStringContainsString('(SpindleBundle added to the app\'s bundles, container rebuilt)', $server->stderr());
        self::assertSame('Spindle\Database\Pdo', self::json($server, '/clients/classes')['pdo']);
        $server->stop();

        self::assertStringContainsString('42', self::console(['doctrine:query:sql', 'SELECT 42']));
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
