<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\InstanceMetricsReading;
use Spindle\Tests\E2E\Support\RawClient;
use Spindle\Tests\E2E\Support\SymfonyFixtureTestCase;

/**
 * A Symfony worker keeps as many kernels as requests that wait at the same time, and lets go of
 * those a burst needed once it is quiet (SPINDLE_INSTANCE_IDLE_TIMEOUT), keeping the first:
 * read from `spindle_app_instances` on --metrics, on the Symfony 7.4 fixture.
 *
 * @group frameworks
 */
final class SymfonyKernelPoolTest extends SymfonyFixtureTestCase
{
    use InstanceMetricsReading;

    private string|false $savedTimeout = false;

    protected static function app(): string
    {
        return \dirname(__DIR__) . '/fixtures/symfony74-app';
    }

    protected function setUp(): void
    {
        $this->savedTimeout = \getenv('SPINDLE_INSTANCE_IDLE_TIMEOUT');
        \putenv('SPINDLE_INSTANCE_IDLE_TIMEOUT=1');
    }

    protected function tearDown(): void
    {
        \putenv($this->savedTimeout === false ? 'SPINDLE_INSTANCE_IDLE_TIMEOUT' : 'SPINDLE_INSTANCE_IDLE_TIMEOUT=' . $this->savedTimeout);
    }

    public function testKernelsABurstOfWaitingRequestsNeededAreLetGoWhenQuiet(): void
    {
        [$server, $metricsPort] = self::startWithMetrics(static::app());
        self::assertSame('Hello World', self::fetch($server->port(), '/hello'));
        self::assertSame(1, self::instancesAfter($metricsPort, 1));

        // Six requests that wait at once need a kernel each...
        $clients = [];
        for ($i = 0; $i < 6; ++$i) {
            $clients[] = $client = new RawClient($server->port());
            $client->send("GET /wait?ms=400&tag=t{$i} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
        }
        foreach ($clients as $i => $client) {
            $response = $client->readResponse();
            self::assertSame(200, $response->status, $response->body);
            self::assertStringContainsString("\"t{$i}\"", $response->body);
            $client->close();
        }
        self::assertGreaterThanOrEqual(6, self::instancesAfter($metricsPort, 7));
        // ...and once the worker is quiet, all but the first are shut down and let go.
        self::assertTrue(self::eventually(static fn (): bool => self::instances($metricsPort) === 1, 15.0), 'kernels left: ' . self::instances($metricsPort));
        self::assertSame('Hello World', self::fetch($server->port(), '/hello'));
        $server->stop();
        self::assertStringNotContainsString('ERROR', $server->stderr());
        self::assertStringNotContainsString('was let go but is still referenced', $server->stderr(), 'the kernels let go were freed');
    }

    public function testAKernelLetGoThatAStaticStillHoldsIsNamedInAWarning(): void
    {
        [$server, $metricsPort] = self::startWithMetrics(static::app());
        $clients = [];
        for ($i = 0; $i < 6; ++$i) {
            $clients[] = $client = new RawClient($server->port());
            $client->send("GET /hold-kernel?ms=400 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
        }
        foreach ($clients as $client) {
            $response = $client->readResponse();
            self::assertSame(200, $response->status, $response->body);
            $client->close();
        }
        self::assertGreaterThanOrEqual(6, self::instancesAfter($metricsPort, 6));
        self::assertTrue(self::eventually(static fn (): bool => self::instances($metricsPort) === 1, 15.0), 'kernels left: ' . self::instances($metricsPort));
        self::assertTrue($server->waitForLog('was let go but is still referenced from App\\Service\\KernelHolder::$kernels[', 10.0), $server->stderr());
        self::assertSame(1, \substr_count($server->stderr(), 'was let go but is still referenced'), 'said once per worker');
        self::assertSame('Hello World', self::fetch($server->port(), '/hello'));
        $server->stop();
    }
}
