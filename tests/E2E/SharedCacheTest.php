<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\ServerProcess;

/**
 * The cache shared by all workers of a server (tests/fixtures/apps/shared-cache.php): what one
 * worker stores another reads at once, a recycled worker's replacement still sees it, the size
 * limit pushes out the oldest entries, and the APCu backend does the same.
 */
final class SharedCacheTest extends E2ETestCase
{
    /** @return array<mixed> */
    private static function call(ServerProcess $server, string $path): array
    {
        $response = self::rawRequest($server, self::get($path, "Connection: close\r\n"));
        self::assertSame(200, $response->status, $response->raw);

        return $response->json();
    }

    /**
     * @param array<string, string> $env
     * @param list<string> $options
     */
    private static function startWith(array $env, array $options): ServerProcess
    {
        foreach ($env as $name => $value) {
            \putenv("$name=$value");
        }
        try {
            return ServerProcess::start(ServerProcess::fixture('shared-cache.php'), $options);
        } finally {
            foreach ($env as $name => $value) {
                \putenv($name);
            }
        }
    }

    private static function assertSharedByTwoWorkers(ServerProcess $server, string $backend): void
    {
        $set = self::call($server, '/set?k=greeting&v=hello-' . \getmypid());
        self::assertSame($backend, $set['backend']);
        self::assertTrue($set['stored']);
        $pids = [];
        // Each connection lands on either worker: read until the other one answered too.
        for ($i = 0; $i < 200 && \count($pids) < 2; ++$i) {
            $get = self::call($server, '/get?k=greeting');
            self::assertTrue($get['found'], 'worker ' . $get['pid'] . ' sees the entry');
            self::assertSame('hello-' . \getmypid(), $get['value']);
            $pids[$get['pid']] = true;
        }
        self::assertCount(2, $pids, 'both workers answered');

        // Atomic increments from both workers.
        $values = [];
        for ($i = 0; $i < 20; ++$i) {
            $values[] = self::call($server, '/incr?k=counter')['value'];
        }
        self::assertSame(\range(1, 20), $values);
        self::assertTrue(self::call($server, '/add?k=once&v=1')['added']);
        for ($i = 0; $i < 5; ++$i) {
            self::assertFalse(self::call($server, '/add?k=once&v=2')['added']);
        }
    }

    public function testWhatOneWorkerStoresEveryWorkerReads(): void
    {
        $server = self::sharedServer(ServerProcess::fixture('shared-cache.php'), ['--workers=2', '--metrics=127.0.0.1:0']);
        self::assertSharedByTwoWorkers($server, 'shm');
        self::call($server, '/get?k=never-stored');

        // The workers' counts, summed by the master.
        self::assertSame(1, \preg_match('#Metrics on http://127\.0\.0\.1:(\d+)/metrics#', $server->stderr(), $m));
        $metrics = '';
        self::assertTrue(self::eventually(static function () use ($m, &$metrics): bool {
            $metrics = (string) @\file_get_contents('http://127.0.0.1:' . $m[1] . '/metrics');

            return \preg_match('/^spindle_shared_cache_operations_total\{operation="miss"\} [1-9]/m', $metrics) === 1;
        }, 5.0), $metrics);
        self::assertMatchesRegularExpression('/^spindle_shared_cache_operations_total\{operation="hit"\} [1-9]/m', $metrics);
        self::assertMatchesRegularExpression('/^spindle_shared_cache_operations_total\{operation="write"\} [1-9]/m', $metrics);
    }

    public function testTheApcuBackendIsSharedToo(): void
    {
        if (!\extension_loaded('apcu')) {
            self::fail('APCu is not installed: scripts/test installs php8.2-apcu');
        }
        // apc.enable_cli is a startup setting: an extra ini directory gives it to the server's PHP.
        $dir = \sys_get_temp_dir() . '/spindle-e2e-apcu-' . \getmypid();
        @\mkdir($dir);
        \file_put_contents($dir . '/99-spindle-test.ini', "apc.enable_cli=1\n");
        $scan = \getenv('PHP_INI_SCAN_DIR');
        $server = self::startWith(['PHP_INI_SCAN_DIR' => (\is_string($scan) && $scan !== '' ? $scan : \PHP_CONFIG_FILE_SCAN_DIR) . ':' . $dir], ['--workers=2']);
        try {
            self::assertSharedByTwoWorkers($server, 'apcu');
        } finally {
            $server->stop();
            @\unlink($dir . '/99-spindle-test.ini');
            @\rmdir($dir);
        }
    }

    public function testARecycledWorkersReplacementSeesTheCache(): void
    {
        $server = ServerProcess::start(ServerProcess::fixture('shared-cache.php'), ['--workers=1', '--max-requests=10']);
        try {
            $first = self::call($server, '/set?k=kept&v=across-recycles');
            $pid = $first['pid'];
            $seen = null;
            for ($i = 0; $i < 300; ++$i) {
                $get = self::call($server, '/get?k=kept');
                self::assertTrue($get['found'], 'after ' . $i . ' requests');
                self::assertSame('across-recycles', $get['value']);
                if ($get['pid'] !== $pid) {
                    $seen = $get['pid'];
                    break;
                }
            }
            self::assertNotNull($seen, 'the worker was replaced (--max-requests=10)');
        } finally {
            $server->stop();
        }
    }

    public function testTheSizeLimitPushesOutTheOldestEntries(): void
    {
        $server = self::startWith(['SPINDLE_CACHE_SIZE' => '256K'], ['--workers=2']);
        try {
            for ($from = 1; $from <= 1000; $from += 100) {
                self::call($server, '/fill?size=1000&from=' . $from . '&to=' . ($from + 99));
            }
            $all = self::call($server, '/count?from=1&to=1000')['count'];
            self::assertLessThanOrEqual(260, $all, '256 KiB hold about 250 entries of 1 KB');
            self::assertSame(0, self::call($server, '/count?from=1&to=200')['count'], 'the oldest went first');
            self::assertGreaterThanOrEqual(95, self::call($server, '/count?from=900&to=1000')['count'], 'the newest stayed');
            self::assertTrue(self::call($server, '/get?k=fill-1000')['found']);
        } finally {
            $server->stop();
        }
    }
}
