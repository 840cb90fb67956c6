<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\LaravelFixture;
use Spindle\Tests\E2E\Support\ServerProcess;

/**
 * The worker features in a Laravel 12 app: the Concurrency facade with the `spindle` driver (tests/fixtures/laravel12-app,
 * config/concurrency.php): tasks' queries overlap, each on a connection of its own, and the
 * first error comes back to the request.
 *
 * @group frameworks
 */
final class Laravel12WorkerFeaturesTest extends E2ETestCase
{
    private static function server(): ServerProcess
    {
        LaravelFixture::useTestDatabase();

        return self::sharedServer(LaravelFixture::path(LaravelFixture::LARAVEL_12), ['--workers=1']);
    }

    public function testThreeOneSecondQueriesOverlap(): void
    {
        $server = self::server();
        self::assertServerAnswers($server, '/hello');
        $result = self::curl(['-s', $server->url('/concurrency/sleep')]);
        $data = \json_decode($result['out'], true);
        self::assertIsArray($data, $result['out'] . $server->stderr());
        self::assertSame('Spindle\Bridge\Laravel\ConcurrencyDriver', $data['driver']);
        self::assertSame(['a', 'b', 'c'], $data['keys']);
        self::assertSame(3, $data['connections'], 'each task has a connection of its own');
        self::assertLessThan(2.5, $data['elapsed'], 'one after another they take 3 s');
        \fwrite(\STDERR, \sprintf("\n[Concurrency::run spindle] 3 x SELECT SLEEP(1): %.3f s\n", $data['elapsed']));
        self::assertServerAnswers($server, '/hello');
    }

    public function testTheFirstErrorReachesTheRequest(): void
    {
        $server = self::server();
        $started = \microtime(true);
        $result = self::curl(['-s', $server->url('/concurrency/error')]);
        self::assertSame('DomainException: a task failed', $result['out'], $server->stderr());
        self::assertServerAnswers($server, '/hello');
        self::assertLessThan(10.0, \microtime(true) - $started);
    }

    public function testTicksOfTheConfigRunEachOnACleanInstance(): void
    {
        \putenv('SPINDLE_TEST_LARAVEL_TICK=1');
        LaravelFixture::useTestDatabase();
        try {
            $server = ServerProcess::start(LaravelFixture::path(LaravelFixture::LARAVEL_12), ['--workers=1']);
        } finally {
            \putenv('SPINDLE_TEST_LARAVEL_TICK');
        }
        try {
            $runs = [];
            self::assertTrue(self::eventually(static function () use ($server, &$runs): bool {
                $data = \json_decode(self::curl(['-s', $server->url('/ticks')])['out'], true);
                self::assertIsArray($data);
                self::assertSame('en', $data['locale'], 'a request never sees what a tick set');
                self::assertNull($data['mark']);
                $runs = $data['runs'];

                return \count($runs) >= 5;
            }, 15.0), 'the tick ran 5 times: ' . $server->stderr());
            foreach ($runs as $run) {
                self::assertSame('en', $run['locale'], 'each run starts on a reset instance');
                self::assertNull($run['mark']);
            }
        } finally {
            $server->stop();
        }
    }

    public function testTheSpindleCacheStoreBehavesAsTheArrayStore(): void
    {
        $server = self::server();
        $array = self::curl(['-s', $server->url('/cache/transcript?store=array')]);
        $spindle = self::curl(['-s', $server->url('/cache/transcript?store=spindle')]);
        $expected = \json_decode($array['out'], true);
        self::assertIsArray($expected, $array['out']);
        self::assertGreaterThan(40, \count($expected));
        self::assertSame(\json_encode($expected, \JSON_PRETTY_PRINT), \json_encode(\json_decode($spindle['out'], true), \JSON_PRETTY_PRINT), $server->stderr());
    }

    public function testTheSpindleCacheStoreIsSharedByTheWorkers(): void
    {
        LaravelFixture::useTestDatabase();
        $server = ServerProcess::start(LaravelFixture::path(LaravelFixture::LARAVEL_12), ['--workers=2']);
        try {
            $token = 'v' . \random_int(1, 1 << 30);
            self::assertSame('stored', self::curl(['-s', $server->url('/cache/shared/put/' . $token)])['out'], $server->stderr());
            $pids = [];
            for ($i = 0; $i < 200 && \count($pids) < 2; ++$i) {
                $data = \json_decode(self::curl(['-s', '-H', 'Connection: close', $server->url('/cache/shared/get')])['out'], true);
                self::assertIsArray($data);
                self::assertSame($token, $data['value'], 'worker ' . $data['pid']);
                $pids[$data['pid']] = true;
            }
            self::assertCount(2, $pids, 'both workers answered');
        } finally {
            $server->stop();
        }
    }

    public function testHashingGoesToTheTaskWorkersWhenThereAreSome(): void
    {
        $plain = self::curl(['-s', self::server()->url('/hash')]);
        $data = \json_decode($plain['out'], true);
        self::assertIsArray($data, $plain['out']);
        self::assertSame(0.0, (float) $data['tasks'], 'without task workers the hash is made here');
        self::assertTrue($data['check']);

        LaravelFixture::useTestDatabase();
        \putenv('SPINDLE_TASK_WORKERS=1');
        try {
            $server = ServerProcess::start(LaravelFixture::path(LaravelFixture::LARAVEL_12), ['--workers=1']);
        } finally {
            \putenv('SPINDLE_TASK_WORKERS');
        }
        try {
            $result = self::curl(['-s', $server->url('/hash')]);
            $data = \json_decode($result['out'], true);
            self::assertIsArray($data, $result['out'] . $server->stderr());
            self::assertStringStartsWith('$2y$11$', $data['hash']);
            self::assertSame('bcrypt', $data['info']);
            self::assertTrue($data['check']);
            self::assertFalse($data['wrong']);
            self::assertSame(3.0, (float) $data['tasks'], 'make and both checks ran in the task worker');
        } finally {
            $server->stop();
        }
    }
}
