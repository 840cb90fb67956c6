<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\Integration\Redis\RedisServer;

/**
 * The Symfony 5.4 fixture (Debian's Symfony, which packages no DoctrineBundle: see
 * Symfony74ClientsTest for DoctrineBundle) with cache.app and the sessions on `%env(REDIS_URL)%`
 * and FrameworkBundle's http_client, nothing about Spindle: under `spindle serve` they get
 * Spindle's clients, as on 7.4.
 */
final class SymfonyClientsTest extends SymfonyFixtureTestCase
{
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
        self::assertStringContainsString("Symfony: Spindle's clients for cache.app (Redis)", $server->stderr());
        self::assertStringContainsString('http_client (HTTP)', $server->stderr());
        self::assertStringContainsString("sessions use Spindle's storage (cookie PHPSESSID, Spindle\\Bridge\\Symfony\\Redis\\RedisSessionHandler)", $server->stderr());
        self::assertSame([
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

    /** @return array<string, mixed> */
    private static function json(ServerProcess $server, string $path, ?string $jar = null): array
    {
        $result = self::curl(['-s', ...($jar === null ? [] : ['-b', $jar, '-c', $jar]), $server->url($path)]);
        $json = \json_decode($result['out'], true);
        self::assertIsArray($json, $result['out'] . $server->stderr());

        return $json;
    }
}
