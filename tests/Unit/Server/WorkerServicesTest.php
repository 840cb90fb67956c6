<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Server;

use PHPUnit\Framework\TestCase;
use Psr\Log\NullLogger;
use Revolt\EventLoop\Driver\StreamSelectDriver;
use Spindle\Bridge\BridgeServices;
use Spindle\Bridge\Pusher\PusherApp;
use Spindle\Bridge\Pusher\PusherServer;
use Spindle\Loop\ContextDriver;
use Spindle\Loop\Loop;
use Spindle\Server\ServerOptions;
use Spindle\Server\SharedCache\MemoryStore;
use Spindle\Server\Tasks\TaskClient;
use Spindle\Server\Worker;
use Spindle\Server\WorkerServices;

/**
 * The worker's services: one object per loop driver, each service made once, the same one from
 * every way in (the worker, Spindle\metrics(), the bridge's registry). Each test but the last
 * uses a driver of its own, so the process's services are not touched.
 */
final class WorkerServicesTest extends TestCase
{
    private static function driver(): ContextDriver
    {
        return new ContextDriver(new StreamSelectDriver());
    }

    public function testOneObjectPerDriverAndOneInstanceOfEachService(): void
    {
        $driver = self::driver();
        self::assertNull($driver->workerServices());
        $services = WorkerServices::of($driver);
        self::assertSame($services, $driver->workerServices());
        self::assertSame($services, WorkerServices::of($driver, new NullLogger()));
        self::assertSame($services->metrics(), $services->metrics());
        self::assertSame($services->ticks(), $services->ticks());
        self::assertSame($services->sharedCache(), $services->sharedCache());

        $other = WorkerServices::of(self::driver());
        self::assertNotSame($services, $other);
        self::assertNotSame($services->metrics(), $other->metrics());
        self::assertNotSame($services->ticks(), $other->ticks());
    }

    public function testAdoptedSharedCacheAndTaskWorkersReplaceTheDefaults(): void
    {
        $services = WorkerServices::of(self::driver());
        self::assertNull($services->taskClient(), 'without task workers, tasks run in place');
        $client = new TaskClient('/nonexistent/tasks.sock', $services->metrics());
        $services->useTaskWorkers($client);
        self::assertSame($client, $services->taskClient());

        $store = new MemoryStore(65536);
        $services->useSharedCache($store);
        self::assertSame($store, $services->sharedCache());
    }

    public function testStoppedTicksStartNoRun(): void
    {
        $services = WorkerServices::of(self::driver());
        $services->stopTicks(); // none made yet: nothing to stop, nothing made
        $ticks = $services->ticks();
        $ticks->every(1.0, static fn () => null, 'before');
        self::assertCount(1, $ticks->all());
        $services->stopTicks();
        self::assertSame([], $ticks->all());
        $ticks->every(1.0, static fn () => null, 'after');
        self::assertSame([], $ticks->all(), 'a tick asked for after the stop is not scheduled');
    }

    public function testTheBridgesServicesLiveInTheWorkersAndAreMadeOnce(): void
    {
        $services = WorkerServices::of(self::driver());
        self::assertNull($services->bridge());
        $bridge = BridgeServices::of($services);
        self::assertSame($bridge, $services->bridge());
        self::assertSame($bridge, BridgeServices::of($services));
        self::assertNotSame($bridge, BridgeServices::of(WorkerServices::of(self::driver())));
        self::assertNull($bridge->taskInstances());

        $pools = $bridge->sessionPools(new NullLogger());
        self::assertSame($pools, $bridge->sessionPools());
        self::assertNotSame([], $services->metrics()->collectFrom('spindle_db_pool'), 'the pools report into this worker\'s registry');

        $made = 0;
        $make = static function () use (&$made): PusherServer {
            ++$made;

            return new PusherServer([new PusherApp('1', 'key', 'secret')]);
        };
        $server = $bridge->pusherServer($make);
        self::assertSame($server, $bridge->pusherServer($make));
        self::assertSame(1, $made);
    }

    public function testAWorkerAndThePublicFunctionsShareTheProcesssServices(): void
    {
        $worker = new Worker(new ServerOptions('app.php'), new NullLogger());
        self::assertSame($worker->services(), WorkerServices::current());
        self::assertSame($worker->services(), WorkerServices::of(Loop::driver()));
        self::assertSame($worker->services()->metrics(), \Spindle\metrics());
        self::assertSame(42, \Spindle\task(static fn (int $x): int => $x * 2, 21), 'no task workers: the task runs here');
    }
}
