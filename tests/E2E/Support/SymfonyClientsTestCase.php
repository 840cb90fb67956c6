<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E\Support;

use Spindle\Tests\Integration\Redis\RedisServer;

/**
 * What both Symfony fixtures' standard services do under `spindle serve` with nothing about
 * Spindle in their configuration: DoctrineBundle's connection and FrameworkBundle's http_client
 * wait without holding up the worker, and SPINDLE_*_DRIVER=native keeps the app's own clients.
 * A private redis-server backs cache.app and the sessions (`REDIS_URL`). Each fixture's own
 * class adds what differs between the two Symfony and DoctrineBundle versions.
 */
abstract class SymfonyClientsTestCase extends SymfonyFixtureTestCase
{
    protected const CONCURRENT = 10;

    protected static ?RedisServer $redis = null;

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

    /** The DBAL driver class of DoctrineBundle's connection with SPINDLE_MYSQL_DRIVER=native. */
    abstract protected static function nativeDriver(): string;

    public function testTenDoctrineSleepsOverlapInOneWorker(): void
    {
        $server = self::sharedServer(static::app(), ['--workers=1', '--concurrency=16']);
        self::json($server, '/clients/sleep?seconds=0');
        $logged = \strlen($server->stderr());
        $started = \microtime(true);
        $bodies = LaravelFixture::curlAll(\array_fill(0, self::CONCURRENT, ['-s', $server->url('/clients/sleep?seconds=1')]));
        $elapsed = \microtime(true) - $started;
        foreach ($bodies as $body) {
            self::assertSame(['slept' => 1, 'result' => 0], \json_decode($body, true), $body . $server->stderr());
        }
        // Ten one-second queries one after the other would take ten seconds.
        self::assertLessThan(4.0, $elapsed, $server->stderr());
        self::assertNoRequestHeldTheLoop(\substr($server->stderr(), $logged), 0.9);
    }

    public function testTheEnvironmentKeepsTheNativeClients(): void
    {
        \putenv('SPINDLE_MYSQL_DRIVER=native');
        \putenv('SPINDLE_REDIS_DRIVER=native');
        \putenv('SPINDLE_HTTP_DRIVER=native');
        try {
            $server = ServerProcess::start(static::app(), ['--workers=1']);
        } finally {
            \putenv('SPINDLE_MYSQL_DRIVER');
            \putenv('SPINDLE_REDIS_DRIVER');
            \putenv('SPINDLE_HTTP_DRIVER');
        }
        $classes = self::json($server, '/clients/classes');
        self::assertSame('PDO', $classes['pdo']);
        self::assertSame(static::nativeDriver(), $classes['driver']);
        self::assertSame('Symfony\Component\Cache\Adapter\RedisAdapter', $classes['cache']);
        self::assertStringStartsWith('Symfony\Component\HttpClient\\', (string) $classes['http']);
        // DoctrineBundle's connection still answers, through pdo_mysql.
        self::assertSame(['slept' => 0, 'result' => 0], self::json($server, '/clients/sleep?seconds=0'));
        $server->stop();
    }

    public function testTenHttpClientRequestsOverlapInOneWorker(): void
    {
        $server = self::sharedServer(static::app(), ['--workers=1', '--concurrency=16']);
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
        // Ten one-second requests one after the other would take ten seconds.
        self::assertLessThan(4.0, $elapsed, $server->stderr());
        $upstream->stop();
    }

    /** @param list<string> $arguments */
    protected static function console(array $arguments): string
    {
        $process = \proc_open([\PHP_BINARY, 'bin/console', ...$arguments], [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['redirect', 1]], $pipes, static::app());
        self::assertIsResource($process);
        $output = (string) \stream_get_contents($pipes[1]);
        self::assertSame(0, \proc_close($process), $output);

        return $output;
    }

    /** @return array<string, mixed> */
    protected static function json(ServerProcess $server, string $path, ?string $jar = null): array
    {
        $result = self::curl(['-s', ...($jar === null ? [] : ['-b', $jar, '-c', $jar]), $server->url($path)]);
        $json = \json_decode($result['out'], true);
        self::assertIsArray($json, $result['out'] . $server->stderr());

        return $json;
    }
}
