<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\LaravelFixture;
use Spindle\Tests\E2E\Support\ServerProcess;
use Spindle\Tests\Integration\HttpClient\FakeServer;

/**
 * Under Spindle, a Laravel app's outgoing HTTP (the Http facade, Http::pool(), file_get_contents
 * on a URL) suspends only the request that waits: ten requests that each wait 1 s on another
 * service finish together in one worker. Bounds are generous: the machine is shared.
 */
final class LaravelHttpClientTest extends E2ETestCase
{
    private static ?FakeServer $remote = null;

    public static function tearDownAfterClass(): void
    {
        self::$remote?->stop();
        self::$remote = null;
        parent::tearDownAfterClass();
    }

    private static function remote(): FakeServer
    {
        return self::$remote ??= FakeServer::start();
    }

    private static function server(): ServerProcess
    {
        if (!\is_file('/usr/share/php/GuzzleHttp/Client.php')) {
            self::markTestSkipped('php-guzzlehttp-guzzle is not installed');
        }

        return self::sharedServer(LaravelFixture::path(), ['--workers=1']);
    }

    /** @return list<array<string, mixed>> */
    private static function tenAtOnce(string $route, string $remotePath): array
    {
        $server = self::server();
        $url = $server->url($route . '?url=' . \rawurlencode(self::remote()->url($remotePath)));
        $outputs = LaravelFixture::curlAll(\array_fill(0, 10, [$url]));
        $results = [];
        foreach ($outputs as $output) {
            $data = \json_decode($output, true);
            self::assertIsArray($data, $output . "\n" . $server->stderr());
            $results[] = $data;
        }
        self::assertCount(1, \array_unique(\array_column($results, 'pid')), 'one worker served them all');
        // The first to get its answer saw all ten waiting together (one after another, it would see one).
        self::assertSame(10, \max(\array_column($results, 'in_flight')), 'ten requests waiting 1 s each overlapped');

        return $results;
    }

    public function testTheHttpFacadeWaitsWithoutHoldingTheWorker(): void
    {
        foreach (self::tenAtOnce('/http/get', '/delay?ms=1000') as $result) {
            self::assertSame('done', $result['body']);
            self::assertSame('Spindle\Bridge\Laravel\HttpClient\SpindleFactory', $result['factory']);
        }
    }

    public function testFileGetContentsOnAUrlWaitsWithoutHoldingTheWorker(): void
    {
        foreach (self::tenAtOnce('/http/stream', '/delay?ms=1000') as $result) {
            self::assertSame('done', $result['body']);
        }
    }

    public function testHttpPoolRunsItsRequestsTogether(): void
    {
        $server = self::server();
        $started = \microtime(true);
        $output = self::curl([$server->url('/http/pool?url=' . \rawurlencode(self::remote()->url('/delay?ms=1000')))])['out'];
        self::assertSame(['done', 'done', 'done'], \json_decode($output, true), $server->stderr());
        self::assertLessThan(2.5, \microtime(true) - $started, 'three pooled requests of 1 s overlapped');
    }

    public function testWithOptionsRetryAndFakes(): void
    {
        $server = self::server();
        $echo = \json_decode(self::curl([$server->url('/http/options?url=' . \rawurlencode(self::remote()->url('/echo')))])['out'], true);
        self::assertIsArray($echo, $server->stderr());
        self::assertSame(['yes'], $echo['headers']['x-from-options']);
        self::assertSame([201, 'faked', 1], \json_decode(self::curl([$server->url('/http/fake')])['out'], true));
    }

    public function testFailuresReachTheAppAsWithGuzzlesOwnHandler(): void
    {
        $spindle = self::server();
        $errors = '/http/errors?base=' . \rawurlencode(self::remote()->url('/'));
        $ours = \json_decode(self::curl([$spindle->url($errors)])['out'], true);
        self::assertIsArray($ours, $spindle->stderr());
        \putenv('SPINDLE_HTTP_DRIVER=native');
        try {
            $native = ServerProcess::start(LaravelFixture::path(), ['--workers=1']);
        } finally {
            \putenv('SPINDLE_HTTP_DRIVER');
        }
        try {
            $theirs = \json_decode(self::curl([$native->url($errors)])['out'], true);
            self::assertIsArray($theirs, $native->stderr());
        } finally {
            $native->stop();
        }
        self::assertSame('Illuminate\Http\Client\ConnectionException', $ours['refused']['class']);
        self::assertSame(7, $ours['refused']['curl']);
        self::assertSame($theirs, $ours);
    }

    public function testTheOptOuts(): void
    {
        self::server();
        \putenv('SPINDLE_HTTP_DRIVER=native');
        \putenv('SPINDLE_URL_STREAMS=native');
        try {
            $server = ServerProcess::start(LaravelFixture::path(), ['--workers=1']);
        } finally {
            \putenv('SPINDLE_HTTP_DRIVER');
            \putenv('SPINDLE_URL_STREAMS');
        }
        try {
            $url = \rawurlencode(self::remote()->url('/hello'));
            $get = \json_decode(self::curl([$server->url('/http/get?url=' . $url)])['out'], true);
            self::assertIsArray($get, $server->stderr());
            self::assertSame(['hello', 'Illuminate\Http\Client\Factory'], [$get['body'], $get['factory']]);
            $stream = \json_decode(self::curl([$server->url('/http/stream?url=' . $url)])['out'], true);
            self::assertIsArray($stream, $server->stderr());
            self::assertSame('hello', $stream['body']);
        } finally {
            $server->stop();
        }
    }
}
