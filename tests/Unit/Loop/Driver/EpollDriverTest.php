<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Loop\Driver;

use Revolt\EventLoop\Driver;
use Spindle\Loop\Driver\Epoll\StreamDescriptors;
use Spindle\Loop\Driver\EpollDriver;
use Spindle\Loop\EventLoopKind;

final class EpollDriverTest extends DriverContractTestCase
{
    protected function createDriver(): Driver
    {
        $problem = EventLoopKind::epollProblem();
        if ($problem !== null) {
            self::markTestSkipped($problem);
        }

        return new EpollDriver();
    }

    /**
     * A stream closed with its callback enabled: the kernel reuses its descriptor for the next
     * stream, whose callbacks alone run; cancelling the old callback later leaves the new one.
     */
    public function testAReusedDescriptorNeverReachesTheClosedStreamsCallback(): void
    {
        $descriptors = StreamDescriptors::load();
        [$a, $b] = $this->pair();
        $old = 0;
        $stale = $this->driver->unreference($this->driver->onReadable($a, static function () use (&$old): void {
            ++$old;
        }));
        $this->driver->defer(static fn () => null);
        self::assertFalse($this->runLoop());
        $fd = $descriptors->of($a);
        \fclose($a);
        \fclose($b);
        [$c, $d] = $this->pair();
        self::assertSame($fd, $descriptors->of($c), 'the kernel gave the closed descriptor to the new stream');
        $reads = [];
        $this->driver->onReadable($c, function (string $id, $stream) use (&$reads, $stale, $d): void {
            $reads[] = \fread($stream, 1);
            if (\count($reads) === 1) {
                // Cancelling the closed stream's callback must not take the new stream's registration.
                $this->driver->cancel($stale);
                \fwrite($d, 'y');
            } else {
                $this->driver->cancel($id);
            }
        });
        \fwrite($d, 'x');
        self::assertFalse($this->runLoop());
        self::assertSame(['x', 'y'], $reads);
        self::assertSame(0, $old);
    }

    /**
     * A closed stream whose file lives on through another descriptor (here a dup; in production a
     * child process's copy) stays in the kernel's interest list: its events must not reach its
     * callback, nor keep the loop spinning, and the other streams go on working.
     */
    public function testAClosedStreamWhoseFileLivesOnIsDropped(): void
    {
        $descriptors = StreamDescriptors::load();
        [$a, $b] = $this->pair();
        [$c, $d] = $this->pair();
        $dup = \fopen('php://fd/' . $descriptors->of($a), 'r');
        self::assertIsResource($dup);
        $old = 0;
        $this->driver->unreference($this->driver->onReadable($a, static function () use (&$old): void {
            ++$old;
        }));
        $this->driver->defer(static fn () => null);
        self::assertFalse($this->runLoop());
        \fclose($a);
        \fwrite($b, 'x');
        $read = null;
        $this->driver->onReadable($c, function (string $id, $stream) use (&$read): void {
            $read = \fread($stream, 1);
            $this->driver->cancel($id);
        });
        $this->driver->delay(0.01, static function () use ($d): void {
            \fwrite($d, 'y');
        });
        self::assertFalse($this->runLoop());
        \fclose($dup);
        self::assertSame('y', $read);
        self::assertSame(0, $old);
    }
}
