<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\ServerProcess;
use Spindle\Tests\E2E\Support\SymfonyClientsTestCase;

/**
 * The Symfony 7.4 fixture configured as Symfony's recipes configure an app, with nothing about
 * Spindle: DoctrineBundle on `url: '%env(DATABASE_URL)%'` (a mysql:// URL), cache.app and the
 * sessions on `%env(REDIS_URL)%`, FrameworkBundle's http_client. Under `spindle serve` each of
 * them gets Spindle's client (SpindleBundle, added by KernelWiring), so their waits suspend only
 * the request's fiber; SPINDLE_*_DRIVER=native keeps the app's own.
 *
 * @group frameworks
 */
final class Symfony74ClientsTest extends SymfonyClientsTestCase
{
    protected static function app(): string
    {
        return \dirname(__DIR__) . '/fixtures/symfony74-app';
    }

    /** DoctrineBundle 2.19 wraps the driver in Symfony's idle-connection middleware. */
    protected static function nativeDriver(): string
    {
        return 'Symfony\Bridge\Doctrine\Middleware\IdleConnection\Driver';
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

    /**
     * A deploy that warms the cache with bin/console leaves a container without SpindleBundle:
     * the worker builds it again, with it, in the same place, and the console keeps working on
     * that container with the app's own clients.
     */
    public function testAContainerTheConsoleBuiltIsBuiltAgainWithSpindlesClients(): void
    {
        // From an empty cache, as a fresh deploy starts, with no other server of this app
        // running: `cache:clear` keeps the container directory a worker of an earlier test built
        // (with SpindleBundle) as a legacy one beside the console's, and a running server (the
        // other tests' shared one) may build the container again whenever it boots a kernel.
        // Either can make the server started below find the bundle already in its container
        // (it did once in a full suite run).
        self::stopSharedServers();
        self::removeDirectory(self::app() . '/var/cache');
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
}
