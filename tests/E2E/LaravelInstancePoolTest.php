<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\InstanceMetricsReading;
use Spindle\Tests\E2E\Support\LaravelFixture;
use Spindle\Tests\E2E\Support\RawClient;

/**
 * A worker keeps as many app instances as requests that wait at the same time, not as many as
 * requests that arrive at once: a burst of requests that never wait runs on the instance that
 * serves them one after another, and instances a burst of waiting requests needed are let go
 * once the worker is quiet. Read from `spindle_app_instances` on --metrics.
 */
final class LaravelInstancePoolTest extends E2ETestCase
{
    use InstanceMetricsReading;

    /** @var array<string, string|false> */
    private array $savedEnv = [];

    protected function setUp(): void
    {
        LaravelFixture::useTestDatabase();
        foreach (['SPINDLE_WARM_INSTANCES' => '1', 'SPINDLE_INSTANCE_IDLE_TIMEOUT' => '1'] as $name => $value) {
            $this->savedEnv[$name] = \getenv($name);
            \putenv($name . '=' . $value);
        }
    }

    protected function tearDown(): void
    {
        foreach ($this->savedEnv as $name => $value) {
            \putenv($value === false ? $name : $name . '=' . $value);
        }
    }

    public function testABurstThatNeverWaitsDoesNotGrowThePoolAndWaitersInstancesAreLetGoWhenQuiet(): void
    {
        [$server, $metricsPort] = self::startWithMetrics(LaravelFixture::path(LaravelFixture::LARAVEL_8));
        self::assertSame('Hello from Laravel', self::fetch($server->port(), '/hello'));
        $before = self::instancesAfter($metricsPort, 1);

        // 32 connections, each with a request written before any is answered: the worker reads
        // them in one or a few wake-ups.
        $clients = [];
        for ($i = 0; $i < 32; ++$i) {
            $clients[] = $client = new RawClient($server->port());
            $client->send("GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
        }
        foreach ($clients as $client) {
            self::assertSame('Hello from Laravel', $client->readResponse()->body);
            $client->close();
        }
        $afterBurst = self::instancesAfter($metricsPort, 33);
        self::assertSame($before, $afterBurst, 'requests that never wait share the instance that served the one before');

        // Requests that wait at the same time need one instance each...
        $outputs = LaravelFixture::curlAll(\array_fill(0, 6, [$server->url('/overlap?tag=pool')]));
        self::assertCount(6, $outputs);
        self::assertGreaterThanOrEqual(6, self::instancesAfter($metricsPort, 39));
        // ...and once the worker is quiet, those beyond the warm one (and its spare) go: freed,
        // not only uncounted (the worker warns about a released instance still reachable; on
        // Laravel 8 PHP's shutdown functions held each one's exception bootstrapper).
        self::assertTrue(self::eventually(static fn (): bool => self::instances($metricsPort) <= $before, 15.0), 'instances left: ' . self::instances($metricsPort));
        self::assertSame('Hello from Laravel', self::fetch($server->port(), '/hello'));
        $server->stop();
        self::assertStringNotContainsString('was let go but is still referenced', $server->stderr());
    }

    public function testTheInstancesLaravel12LetsGoAreFreed(): void
    {
        LaravelFixture::useTestDatabase();
        [$server, $metricsPort] = self::startWithMetrics(LaravelFixture::path(LaravelFixture::LARAVEL_12));
        self::assertSame('Hello from Laravel', self::fetch($server->port(), '/hello'));
        $before = self::instancesAfter($metricsPort, 1);
        // Two bursts of requests that wait at once: each boots instances that go once it is
        // quiet; without each instance's own boot statics (SupportStatics::BOOTED) the first
        // burst's stayed reachable from artisan's bootstrappers and the queue's payload callbacks.
        for ($burst = 0; $burst < 2; ++$burst) {
            $outputs = LaravelFixture::curlAll(\array_fill(0, 6, [$server->url('/overlap?tag=pool')]));
            self::assertCount(6, $outputs);
            self::assertTrue(self::eventually(static fn (): bool => self::instances($metricsPort) <= $before, 15.0), 'instances left: ' . self::instances($metricsPort));
        }
        $server->stop();
        self::assertStringNotContainsString('was let go but is still referenced', $server->stderr());
    }

    public function testAReleasedInstanceThatAStaticStillHoldsIsNamedInAWarning(): void
    {
        [$server, $metricsPort] = self::startWithMetrics(LaravelFixture::path(LaravelFixture::LARAVEL_8));
        self::assertSame('Hello from Laravel', self::fetch($server->port(), '/hello'));
        $before = self::instancesAfter($metricsPort, 1);

        // Six requests wait at once, on six instances, and each puts its app in a static.
        $outputs = LaravelFixture::curlAll(\array_fill(0, 6, [$server->url('/hold-instance')]));
        $connections = [];
        foreach ($outputs as $output) {
            self::assertSame(1, \preg_match('/^held (\d+)$/', $output, $m), $output);
            $connections[] = (int) $m[1];
        }
        self::assertTrue(self::eventually(static fn (): bool => self::instances($metricsPort) <= $before, 15.0), 'instances left: ' . self::instances($metricsPort));
        self::assertTrue($server->waitForLog('was let go but is still referenced from App\\InstanceHolder::$apps[', 10.0), $server->stderr());
        // Held or not, the instances let go hold no database session: the six requests' sessions
        // were the worker's pool's, and all are back in it, free (none is held for an instance).
        self::assertTrue(self::eventually(static function () use ($metricsPort): bool {
            $text = self::fetch($metricsPort, '/metrics');

            return \preg_match('/^spindle_db_pool_sessions\{pool="mysql",state="busy"\} 0$/m', $text) === 1
                && \preg_match('/^spindle_db_pool_sessions\{pool="mysql",state="idle"\} ([1-9]\d*)$/m', $text) === 1;
        }, 10.0), self::fetch($metricsPort, '/metrics'));
        self::assertLessThanOrEqual(6, \count(\array_unique($connections)));
        self::assertSame('Hello from Laravel', self::fetch($server->port(), '/hello'));
        $server->stop();
    }
}
