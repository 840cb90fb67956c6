<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Loop\Driver;

use PHPUnit\Framework\TestCase;
use Revolt\EventLoop\Driver;

/**
 * What Spindle expects of any loop driver it runs on, run against each (StreamSelectDriverTest,
 * EpollDriverTest). Every loop ends by itself: a safety timer stops it if a callback never came.
 */
abstract class DriverContractTestCase extends TestCase
{
    protected Driver $driver;
    /** @var list<resource> */
    private array $streams = [];

    abstract protected function createDriver(): Driver;

    protected function setUp(): void
    {
        $this->driver = $this->createDriver();
    }

    protected function tearDown(): void
    {
        foreach ($this->driver->getIdentifiers() as $id) {
            $this->driver->cancel($id);
        }
        foreach ($this->streams as $stream) {
            if (\is_resource($stream)) {
                \fclose($stream);
            }
        }
        $this->streams = [];
    }

    /** @return array{resource, resource} */
    protected function pair(): array
    {
        $pair = \stream_socket_pair(\STREAM_PF_UNIX, \STREAM_SOCK_STREAM, \STREAM_IPPROTO_IP);
        self::assertIsArray($pair);
        foreach ($pair as $stream) {
            \stream_set_blocking($stream, false);
            \stream_set_read_buffer($stream, 0);
            $this->streams[] = $stream;
        }

        return $pair;
    }

    /** Runs the loop; a safety timer ends it after $seconds and reports whether it had to. */
    protected function runLoop(float $seconds = 5.0): bool
    {
        $expired = false;
        $safety = $this->driver->unreference($this->driver->delay($seconds, function () use (&$expired): void {
            $expired = true;
            $this->driver->stop();
        }));
        $this->driver->run();
        $this->driver->cancel($safety);

        return $expired;
    }

    public function testReadableCallbackRunsWhileDataWaitsAndStopsOnceCancelled(): void
    {
        [$a, $b] = $this->pair();
        \fwrite($b, 'abc');
        $reads = [];
        $this->driver->onReadable($a, function (string $id, $stream) use (&$reads): void {
            $reads[] = \fread($stream, 1);
            if (\count($reads) === 3) {
                $this->driver->cancel($id);
            }
        });
        self::assertFalse($this->runLoop());
        self::assertSame(['a', 'b', 'c'], $reads);
    }

    public function testManyStreamsReadableAtOnceEachRunTheirOwnCallback(): void
    {
        $reads = [];
        for ($i = 0; $i < 40; ++$i) {
            [$a, $b] = $this->pair();
            \fwrite($b, (string) $i);
            $this->driver->onReadable($a, function (string $id, $stream) use (&$reads, $i): void {
                $reads[$i] = \fread($stream, 10);
                $this->driver->cancel($id);
            });
        }
        self::assertFalse($this->runLoop());
        \ksort($reads);
        self::assertSame(\array_map('strval', \range(0, 39)), $reads);
    }

    /** A regular file is always ready for select(); epoll cannot watch one and must say the same. */
    public function testARegularFileIsAlwaysReadableAndWritable(): void
    {
        $file = \fopen('php://temp/maxmemory:0', 'r+');
        self::assertIsResource($file);
        \fwrite($file, 'abc');
        \rewind($file);
        $events = [];
        $this->driver->onReadable($file, function (string $id, $stream) use (&$events): void {
            $events[] = 'read:' . \fread($stream, 3);
            $this->driver->cancel($id);
        });
        $this->driver->onWritable($file, function (string $id) use (&$events): void {
            $events[] = 'write';
            $this->driver->cancel($id);
        });
        self::assertFalse($this->runLoop());
        \sort($events);
        self::assertSame(['read:abc', 'write'], $events);
        \fclose($file);
    }

    public function testWritableCallbackRunsForASocketWithRoom(): void
    {
        [$a] = $this->pair();
        $calls = 0;
        $this->driver->onWritable($a, function (string $id) use (&$calls): void {
            ++$calls;
            $this->driver->cancel($id);
        });
        self::assertFalse($this->runLoop());
        self::assertSame(1, $calls);
    }

    public function testReadAndWriteInterestOnOneStreamBothFireAndEachCanBeDisabled(): void
    {
        [$a, $b] = $this->pair();
        $events = [];
        $read = $this->driver->onReadable($a, function (string $id, $stream) use (&$events): void {
            $events[] = 'read:' . \fread($stream, 10);
            $this->driver->cancel($id);
        });
        $write = $this->driver->onWritable($a, function (string $id) use (&$events, $b): void {
            $events[] = 'write';
            $this->driver->disable($id);
            \fwrite($b, 'x');
        });
        self::assertFalse($this->runLoop());
        self::assertSame(['write', 'read:x'], $events);
        self::assertFalse($this->driver->isEnabled($write));
        self::assertNotContains($read, $this->driver->getIdentifiers());
        // Enabled again, the writable callback comes back; the stream's other interest is gone.
        $this->driver->enable($write);
        self::assertFalse($this->runLoop());
        self::assertSame(['write', 'read:x', 'write'], $events);
    }

    public function testADisabledCallbackWaitsUntilEnabled(): void
    {
        [$a, $b] = $this->pair();
        \fwrite($b, 'x');
        $order = [];
        $read = $this->driver->disable($this->driver->onReadable($a, function (string $id, $stream) use (&$order): void {
            $order[] = 'read';
            \fread($stream, 1);
            $this->driver->cancel($id);
        }));
        $this->driver->delay(0.01, function () use (&$order, $read): void {
            $order[] = 'enable';
            $this->driver->enable($read);
        });
        self::assertFalse($this->runLoop());
        self::assertSame(['enable', 'read'], $order);
    }

    public function testDisableAndEnableWithinOneTickKeepTheCallback(): void
    {
        [$a, $b] = $this->pair();
        $reads = 0;
        $read = $this->driver->onReadable($a, function (string $id, $stream) use (&$reads): void {
            \fread($stream, 1);
            if (++$reads === 2) {
                $this->driver->cancel($id);
            }
        });
        $this->driver->defer(function () use ($read, $b): void {
            $this->driver->disable($read);
            $this->driver->enable($read);
            \fwrite($b, 'xy');
        });
        self::assertFalse($this->runLoop());
        self::assertSame(2, $reads);
    }

    public function testACancelledCallbackNeverRuns(): void
    {
        [$a, $b] = $this->pair();
        \fwrite($b, 'x');
        $called = false;
        $this->driver->cancel($this->driver->onReadable($a, static function () use (&$called): void {
            $called = true;
        }));
        $this->driver->delay(0.01, static fn () => null);
        self::assertFalse($this->runLoop());
        self::assertFalse($called);
    }

    public function testTimersRunInTheOrderTheyAreDueAndDeferredCallbacksFirst(): void
    {
        $order = [];
        foreach ([0.03, 0.001, 0.02, 0.002, 0.0] as $delay) {
            $this->driver->delay($delay, static function () use (&$order, $delay): void {
                $order[] = $delay;
            });
        }
        $this->driver->defer(static function () use (&$order): void {
            $order[] = 'defer';
        });
        self::assertFalse($this->runLoop());
        self::assertSame(['defer', 0.0, 0.001, 0.002, 0.02, 0.03], $order);
    }

    public function testATimerIsNotCalledBeforeItIsDue(): void
    {
        $start = \hrtime(true);
        $at = 0;
        $this->driver->delay(0.005, static function () use (&$at): void {
            $at = \hrtime(true);
        });
        self::assertFalse($this->runLoop());
        // A lower bound only: the wait is rounded up, never down.
        self::assertGreaterThanOrEqual(5_000_000, $at - $start);
    }

    public function testARepeatingTimerRunsUntilCancelled(): void
    {
        $ticks = 0;
        $this->driver->repeat(0.001, function (string $id) use (&$ticks): void {
            if (++$ticks === 5) {
                $this->driver->cancel($id);
            }
        });
        self::assertFalse($this->runLoop());
        self::assertSame(5, $ticks);
    }

    public function testAStreamClosedAndCancelledInItsCallbackLeavesTheOthersWorking(): void
    {
        [$a, $b] = $this->pair();
        [$c, $d] = $this->pair();
        \fwrite($b, 'x');
        $events = [];
        $this->driver->onReadable($a, function (string $id, $stream) use (&$events, $d): void {
            $events[] = 'a';
            \fclose($stream);
            $this->driver->cancel($id);
            \fwrite($d, 'y');
        });
        $this->driver->onReadable($c, function (string $id, $stream) use (&$events): void {
            $events[] = 'c:' . \fread($stream, 1);
            $this->driver->cancel($id);
        });
        self::assertFalse($this->runLoop());
        self::assertSame(['a', 'c:y'], $events);
    }

    public function testThePeerClosingMakesTheStreamReadable(): void
    {
        [$a, $b] = $this->pair();
        $read = null;
        $this->driver->onReadable($a, function (string $id, $stream) use (&$read): void {
            $read = \fread($stream, 10);
            $this->driver->cancel($id);
        });
        $this->driver->defer(static function () use ($b): void {
            \fclose($b);
        });
        self::assertFalse($this->runLoop());
        self::assertSame('', $read);
    }

    public function testASignalRunsItsCallback(): void
    {
        if (!\function_exists('posix_kill')) {
            self::markTestSkipped('needs posix');
        }
        $received = null;
        $this->driver->onSignal(\SIGUSR2, function (string $id, int $signal) use (&$received): void {
            $received = $signal;
            $this->driver->cancel($id);
        });
        $this->driver->defer(static function (): void {
            \posix_kill(\getmypid(), \SIGUSR2);
        });
        self::assertFalse($this->runLoop());
        self::assertSame(\SIGUSR2, $received);
    }

    /** The signal comes from another process while the loop waits with nothing else to do. */
    public function testASignalEndsAWaitThatHasNothingElseToDo(): void
    {
        $received = null;
        $this->driver->onSignal(\SIGUSR2, function (string $id, int $signal) use (&$received): void {
            $received = $signal;
            $this->driver->stop();
        });
        // Never readable: the loop waits on it until the signal comes.
        [$a] = $this->pair();
        $this->driver->onReadable($a, static fn () => null);
        // Started once the loop runs: the handler is installed when the loop starts, not before.
        $kill = null;
        $this->driver->defer(static function () use (&$kill): void {
            $kill = \proc_open(['kill', '-USR2', (string) \getmypid()], [], $pipes);
        });
        self::assertFalse($this->runLoop());
        self::assertIsResource($kill);
        \proc_close($kill);
        self::assertSame(\SIGUSR2, $received);
    }
}
