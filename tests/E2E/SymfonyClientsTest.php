<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\ServerProcess;
use Spindle\Tests\E2E\Support\SymfonyClientsTestCase;

/**
 * The Symfony 5.4 fixture (Debian's Symfony, DoctrineBundle 2.3 and DBAL 3 from the package
 * registry) configured as Symfony's recipes configure an app, with nothing about Spindle:
 * DoctrineBundle on `url: '%env(resolve:DATABASE_URL)%'` (a mysql:// URL), cache.app and the
 * sessions on `%env(REDIS_URL)%`, FrameworkBundle's http_client. Under `spindle serve` they get
 * Spindle's clients, as on 7.4 (Symfony74ClientsTest), although this DoctrineBundle knows no DBAL
 * middlewares: SpindleBundle gives the connection's configuration Spindle's middleware itself.
 *
 * @group frameworks
 */
final class SymfonyClientsTest extends SymfonyClientsTestCase
{
    protected static function nativeDriver(): string
    {
        return 'Doctrine\DBAL\Driver\PDO\MySQL\Driver';
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

    /**
     * A container bin/console warmed (DoctrineBundle's, without SpindleBundle) is built again by
     * the worker with Spindle's middleware in the connection's configuration; the console keeps
     * working on that container, with pdo_mysql.
     */
    public function testAContainerTheConsoleBuiltIsBuiltAgainWithSpindlesDriver(): void
    {
        // From an empty cache, as a fresh deploy starts. On 5.4, `cache:clear` keeps the container
        // a worker of an earlier test built (with SpindleBundle) beside the console's, as a legacy
        // container for running processes; after it, the worker started here found the bundle
        // already in its container every time and never rebuilt.
        self::removeDirectory(self::app() . '/var/cache');
        self::console(['cache:clear', '--no-warmup']);
        self::console(['cache:warmup']);
        self::assertFileExists(self::app() . '/var/cache/prod/App_KernelProdContainer.php');

        $server = ServerProcess::start(self::app(), ['--workers=1']);
        self::assertStringContainsString('(SpindleBundle added to the app\'s bundles, container rebuilt)', $server->stderr());
        self::assertSame('Spindle\Database\Pdo', self::json($server, '/clients/classes')['pdo']);
        $server->stop();

        self::assertStringContainsString('42', self::console(['doctrine:query:sql', 'SELECT 42']));
    }
}
