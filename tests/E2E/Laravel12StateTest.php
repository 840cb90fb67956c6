<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\LaravelFixture;
use Spindle\Tests\E2E\Support\ServerProcess;

/**
 * The state Laravel 10 to 12 added, on the Laravel 12 fixture app through one worker: the
 * Context repository, once(), defer(), the Number and Str hooks, Vite's CSP nonce and Carbon 3's
 * test time are each the request's own, in sequence and while requests overlap.
 *
 * @group frameworks
 */
final class Laravel12StateTest extends E2ETestCase
{
    private static function server(): ServerProcess
    {
        LaravelFixture::useTestDatabase();

        return self::sharedServer(LaravelFixture::path(LaravelFixture::LARAVEL_12), ['--workers=1']);
    }

    private static function body(string $path): string
    {
        $result = self::curl(['-s', self::server()->url($path)]);
        self::assertSame(0, $result['code'], $result['err']);

        return $result['out'];
    }

    /** @return array<string, mixed> */
    private static function json(string $path): array
    {
        $out = self::body($path);
        $data = \json_decode($out, true);
        self::assertIsArray($data, $out . "\n" . self::server()->stderr());

        return $data;
    }

    private static function deferredLog(): string
    {
        return LaravelFixture::path(LaravelFixture::LARAVEL_12) . '/storage/logs/deferred.log';
    }

    public function testContextAndSharedLogContextLastOneRequest(): void
    {
        self::assertSame('added alpha', self::body('/context/add/alpha'));
        self::assertSame(['visible' => [], 'hidden' => [], 'shared' => []], self::json('/context'));
    }

    public function testOnceIsComputedOncePerRequest(): void
    {
        $first = self::body('/once');
        $second = self::body('/once');
        self::assertMatchesRegularExpression('/^[0-9a-f]{16}$/', $first);
        self::assertMatchesRegularExpression('/^[0-9a-f]{16}$/', $second);
        self::assertNotSame($first, $second);
    }

    public function testNumberStrViteAndCarbonHooksLastOneRequest(): void
    {
        self::assertSame('hooks set', self::body('/hooks/set'));
        $after = self::json('/hooks');
        self::assertSame('en', $after['locale']);
        self::assertSame('USD', $after['currency']);
        self::assertNotSame('00000000-0000-0000-0000-000000000000', $after['uuid']);
        self::assertNotSame('xxxx', $after['random']);
        self::assertNull($after['nonce']);
        self::assertSame(\gmdate('Y-m-d'), $after['now']);
        self::assertSame(\gmdate('Y-m-d'), $after['carbon']);
    }

    public function testDeferredCallbacksRunAfterTheResponseInTheirOwnRequest(): void
    {
        $log = self::deferredLog();
        @\unlink($log);
        // The callback waits 1 s; the response does not.
        $started = \microtime(true);
        self::assertSame('deferred one', self::body('/defer/one?tag=first&wait=1'));
        self::assertLessThan(0.9, \microtime(true) - $started);
        // A second request while the first one's callback still waits.
        self::assertSame('deferred two', self::body('/defer/two?tag=second'));
        self::assertTrue(self::eventually(static fn (): bool => \substr_count((string) @\file_get_contents($log), "\n") === 2, 5.0));
        $lines = \explode("\n", \trim((string) \file_get_contents($log)));
        \sort($lines);
        self::assertSame(['one saw first one', 'two saw second two'], $lines);
    }

    public function testDeferredCallbacksOfAFailedRequestNeverRun(): void
    {
        $log = self::deferredLog();
        @\unlink($log);
        $failed = self::curl(['-s', '-o', '/dev/null', '-w', '%{http_code}', self::server()->url('/defer-failing/dropped')]);
        self::assertSame('503', $failed['out']);
        self::assertSame('deferred kept', self::body('/defer/kept?tag=next'));
        self::assertTrue(self::eventually(static fn (): bool => \str_contains((string) @\file_get_contents($log), 'kept saw'), 5.0));
        self::assertSame("kept saw next kept\n", \file_get_contents($log));
    }

    public function testTwentyFourLoggedInClientsOverlappingInOneWorkerStayApart(): void
    {
        $server = self::server();
        $log = LaravelFixture::path(LaravelFixture::LARAVEL_12) . '/storage/logs/overlap-deferred.log';
        @\unlink($log);
        $requests = [];
        $expected = [];
        $jars = [];
        for ($i = 1; $i <= 24; ++$i) {
            $jar = \tempnam(\sys_get_temp_dir(), 'spindle-laravel12-jar-');
            self::assertIsString($jar);
            $jars[] = $jar;
            $user = 'user-' . (200 + $i);
            self::assertSame('logged in as ' . $user, self::curl(['-s', '-b', $jar, '-c', $jar, $server->url('/login/' . (200 + $i))])['out']);
            self::assertSame('stored s' . $i, self::curl(['-s', '-b', $jar, '-c', $jar, $server->url('/session/put/s' . $i)])['out']);
            $tag = 't' . $i;
            $requests[] = ['-b', $jar, $server->url('/overlap12?tag=' . $tag)];
            $expected[] = ['context' => $tag, 'number' => $tag, 'once' => true, 'locale' => $tag, 'config' => $tag, 'user' => $user, 'session' => 's' . $i];
        }
        try {
            $outputs = LaravelFixture::curlAll($requests);
        } finally {
            foreach ($jars as $jar) {
                @\unlink($jar);
            }
        }
        $maxInFlight = 0;
        foreach ($outputs as $i => $output) {
            $steps = \json_decode($output, true);
            self::assertIsArray($steps, $output . "\n" . $server->stderr());
            self::assertCount(4, $steps);
            foreach ($steps as $step) {
                $maxInFlight = \max($maxInFlight, $step['in_flight']);
                unset($step['in_flight']);
                self::assertSame($expected[$i], $step, $output);
            }
        }
        // Most of them ran at the same time (curl starts them one after the other).
        self::assertGreaterThanOrEqual(12, $maxInFlight);
        // Each deferred callback ran once, after its response, and saw its own request.
        self::assertTrue(self::eventually(static fn (): bool => \substr_count((string) @\file_get_contents($log), "\n") >= 24, 10.0));
        $lines = \explode("\n", \trim((string) \file_get_contents($log)));
        \sort($lines);
        $want = \array_map(static fn (array $e): string => \sprintf('%s %s %s %s', $e['context'], $e['context'], $e['config'], $e['user']), $expected);
        \sort($want);
        self::assertSame($want, $lines);
    }
}
