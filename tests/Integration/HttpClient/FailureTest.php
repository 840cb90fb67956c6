<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\HttpClient;

use PHPUnit\Framework\TestCase;
use Revolt\EventLoop;
use Spindle\HttpClient\ConnectionLost;
use Spindle\HttpClient\ConnectionPool;
use Spindle\HttpClient\HttpClient;
use Spindle\HttpClient\HttpClientException;
use Spindle\HttpClient\Options;
use Spindle\HttpClient\Request;
use Spindle\HttpClient\TimeoutException;
use Spindle\HttpClient\TimeoutKind;

/**
 * A misbehaving server costs only the request that called it a clear exception, and leaks no
 * connection or file descriptor.
 */
final class FailureTest extends TestCase
{
    private static ?FakeServer $server = null;

    public static function setUpBeforeClass(): void
    {
        self::$server = FakeServer::start();
    }

    public static function tearDownAfterClass(): void
    {
        self::$server?->stop();
        self::$server = null;
    }

    private static function url(string $path): string
    {
        return self::$server?->url($path) ?? '';
    }

    private static function fds(): int
    {
        return \count((array) \scandir('/proc/self/fd'));
    }

    public function testTimeoutsNameTheirKind(): void
    {
        $client = new HttpClient();
        try {
            $client->request(Request::create('GET', self::url('/stall')), new Options(idleTimeout: 0.2));
            self::fail('no timeout');
        } catch (TimeoutException $e) {
            self::assertSame(TimeoutKind::Idle, $e->kind);
        }
        try {
            $client->request(Request::create('GET', self::url('/stall-body')), new Options(timeout: 0.3))->body->contents();
            self::fail('no timeout');
        } catch (TimeoutException $e) {
            self::assertSame(TimeoutKind::Total, $e->kind);
        }
        // A full pool: waiting for a free connection counts against the connect timeout.
        $small = new HttpClient(new ConnectionPool(maxPerOrigin: 1));
        $stalled = $small->request(Request::create('GET', self::url('/stall-body')));
        try {
            $small->request(Request::create('GET', self::url('/hello')), new Options(connectTimeout: 0.2));
            self::fail('no timeout');
        } catch (TimeoutException $e) {
            self::assertSame(TimeoutKind::Connect, $e->kind);
        }
        $stalled->body->close();
        self::assertSame('hello', $small->request(Request::create('GET', self::url('/hello')))->body->contents());
        self::assertSame(['open' => 0, 'idle' => 0], $client->pool->stats());
    }

    public function testOtherRequestsGoOnWhileOneStalls(): void
    {
        $client = new HttpClient();
        $order = [];
        EventLoop::queue(static function () use ($client, &$order): void {
            try {
                $client->request(Request::create('GET', self::url('/stall')), new Options(timeout: 1.0));
            } catch (TimeoutException) {
                $order[] = 'stall timed out';
            }
        });
        EventLoop::queue(static function () use ($client, &$order): void {
            $order[] = $client->request(Request::create('GET', self::url('/hello')))->body->contents();
        });
        EventLoop::run();
        self::assertSame(['hello', 'stall timed out'], $order);
    }

    public function testAHugeBodyStreams(): void
    {
        $client = new HttpClient();
        $response = $client->request(Request::create('GET', self::url('/huge')));
        self::assertSame('2147483648', $response->header('content-length'));
        $read = 0;
        $before = \memory_get_usage();
        while ($read < 64 << 20 && ($piece = $response->body->read()) !== null) {
            $read += \strlen($piece);
        }
        self::assertGreaterThanOrEqual(64 << 20, $read);
        self::assertLessThan(16 << 20, \memory_get_usage() - $before);
        $response->body->close();
        self::assertSame(['open' => 0, 'idle' => 0], $client->pool->stats());
    }

    /** 10,000 requests by default, as issue 10 asks (SPINDLE_HTTP_FAILURES=N for fewer). */
    public function testNoDescriptorLeaksAfterManyFailingRequests(): void
    {
        $client = new HttpClient(new ConnectionPool(maxPerOrigin: 8, maxTotal: 16));
        $paths = ['/mid-body', '/garbage', '/stall-body', '/status?code=500', '/close'];
        $client->request(Request::create('GET', self::url('/hello')))->body->contents();
        $before = self::fds();
        $failures = 0;
        $n = (int) (\getenv('SPINDLE_HTTP_FAILURES') ?: 10000);
        for ($i = 0; $i < $n; ++$i) {
            $path = $paths[$i % 5];
            try {
                $response = $client->request(Request::create('GET', self::url($path)), new Options(timeout: $path === '/stall-body' ? 0.001 : 5.0));
                $response->body->contents();
            } catch (ConnectionLost|TimeoutException) {
                ++$failures;
            }
        }
        self::assertGreaterThan($n / 2, $failures);
        $client->pool->closeIdle();
        self::assertSame(['open' => 0, 'idle' => 0], $client->pool->stats());
        self::assertLessThanOrEqual($before, self::fds());
    }

    public function testRefusedConnectionsLeakNothing(): void
    {
        $client = new HttpClient();
        $before = self::fds();
        for ($i = 0; $i < 500; ++$i) {
            try {
                $client->request(Request::create('GET', 'http://127.0.0.1:1/'));
                self::fail('connected to port 1');
            } catch (HttpClientException $e) {
                self::assertStringContainsString('127.0.0.1:1', $e->getMessage());
            }
        }
        self::assertSame($before, self::fds());
        self::assertSame(['open' => 0, 'idle' => 0], $client->pool->stats());
    }
}
