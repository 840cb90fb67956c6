<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Loop;

use PHPUnit\Framework\TestCase;
use Revolt\EventLoop;
use Spindle\Loop\SocketWaiter;

final class SocketWaiterTest extends TestCase
{
    /** @var list<resource> */
    private array $streams = [];

    protected function tearDown(): void
    {
        foreach ($this->streams as $stream) {
            if (\is_resource($stream)) {
                fclose($stream);
            }
        }
        $this->streams = [];
    }

    /** @return array{resource, resource} */
    private function pair(): array
    {
        $pair = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
        self::assertIsArray($pair);
        [$a, $b] = $pair;
        stream_set_blocking($a, false);
        $this->streams[] = $a;
        $this->streams[] = $b;

        return [$a, $b];
    }

    public function testWaitsInAFiberUntilReadableThenAgainWithTheSameCallback(): void
    {
        [$a, $b] = $this->pair();
        $waiter = new SocketWaiter($a);
        $results = [];
        EventLoop::queue(static function () use ($waiter, $a, &$results): void {
            for ($i = 0; $i < 3; ++$i) {
                $results[] = $waiter->wait(false, null);
                $results[] = fread($a, 10);
            }
        });
        $writes = 0;
        EventLoop::repeat(0.001, static function (string $id) use ($b, &$writes): void {
            fwrite($b, (string) $writes);
            if (++$writes === 3) {
                EventLoop::cancel($id);
            }
        });
        $before = EventLoop::getIdentifiers();
        EventLoop::run();
        self::assertSame([true, '0', true, '1', true, '2'], $results);
        // The timer is gone; one readable callback stays registered (disabled) for the next
        // wait, the same for all three waits.
        $left = array_values(array_diff(EventLoop::getIdentifiers(), $before));
        self::assertCount(1, $left);
        self::assertFalse(EventLoop::isEnabled($left[0]));
        $waiter->cancel();
        self::assertSame([], array_values(array_diff(EventLoop::getIdentifiers(), $before)));
    }

    public function testADeadlineThatPassesFirstGivesFalse(): void
    {
        [$a] = $this->pair();
        $waiter = new SocketWaiter($a);
        $before = EventLoop::getIdentifiers();
        $result = null;
        EventLoop::queue(static function () use ($waiter, &$result): void {
            $result = $waiter->wait(false, hrtime(true) / 1e9 + 0.01);
        });
        EventLoop::run();
        $waiter->cancel();
        self::assertFalse($result);
        self::assertSame([], array_values(array_diff(EventLoop::getIdentifiers(), $before)), 'no callback or timer left behind');
    }

    public function testWaitsOutsideAFiberByRunningTheLoop(): void
    {
        [$a, $b] = $this->pair();
        $waiter = new SocketWaiter($a);
        $before = EventLoop::getIdentifiers();
        EventLoop::delay(0.001, static function () use ($b): void {
            fwrite($b, 'x');
        });
        self::assertTrue($waiter->wait(false, null));
        self::assertSame('x', fread($a, 10));
        self::assertTrue($waiter->wait(true, null), 'writable');
        $waiter->cancel();
        self::assertSame([], array_values(array_diff(EventLoop::getIdentifiers(), $before)));
    }

    public function testTheLoopDoesNotKeepAWaiterWhoseOwnerIsGone(): void
    {
        [$a] = $this->pair();
        $waiter = new SocketWaiter($a);
        $owner = new \stdClass();
        $owner->waiter = $waiter;
        self::assertTrue($owner->waiter->wait(true, null));
        $gone = \WeakReference::create($owner);
        unset($owner);
        self::assertNull($gone->get(), 'the callbacks hold the waiter, not what owns it');
        $waiter->cancel();
    }

    public function testAKeptReadCallbackStaysEnabledButLetsTheLoopEnd(): void
    {
        [$a, $b] = $this->pair();
        $waiter = new SocketWaiter($a, keepReading: true);
        $before = EventLoop::getIdentifiers();
        $results = [];
        EventLoop::queue(static function () use ($waiter, $a, &$results): void {
            for ($i = 0; $i < 3; ++$i) {
                $results[] = $waiter->wait(false, null);
                $results[] = fread($a, 10);
            }
        });
        $writes = 0;
        EventLoop::repeat(0.001, static function (string $id) use ($b, &$writes): void {
            fwrite($b, (string) $writes);
            if (++$writes === 3) {
                EventLoop::cancel($id);
            }
        });
        // run() returns: between waits the callback does not keep the loop running.
        EventLoop::run();
        self::assertSame([true, '0', true, '1', true, '2'], $results);
        $left = array_values(array_diff(EventLoop::getIdentifiers(), $before));
        self::assertCount(1, $left, 'one readable callback for all three waits');
        self::assertTrue(EventLoop::isEnabled($left[0]), 'kept enabled for the next wait');
        self::assertFalse(EventLoop::isReferenced($left[0]), 'but not holding the loop');
        $waiter->cancel();
        self::assertSame([], array_values(array_diff(EventLoop::getIdentifiers(), $before)));
    }

    public function testAKeptReadCallbackThatFiresWhileNothingWaitsGoesQuietUntilTheNextWait(): void
    {
        [$a, $b] = $this->pair();
        $waiter = new SocketWaiter($a, keepReading: true);
        $before = EventLoop::getIdentifiers();
        EventLoop::delay(0.001, static function () use ($b): void {
            fwrite($b, 'x');
        });
        self::assertTrue($waiter->wait(false, null));
        self::assertSame('x', fread($a, 10));
        [$id] = array_values(array_diff(EventLoop::getIdentifiers(), $before));
        self::assertTrue(EventLoop::isEnabled($id));

        // Data nobody waits for: the callback runs once and disables itself (no busy loop:
        // the socket stays readable until the next wait reads it).
        fwrite($b, 'y');
        $ticks = 0;
        $ticker = EventLoop::repeat(0.001, static function (string $tickerId) use ($id, &$ticks): void {
            if (++$ticks === 200 || !EventLoop::isEnabled($id)) {
                EventLoop::cancel($tickerId);
            }
        });
        EventLoop::run();
        self::assertFalse(EventLoop::isEnabled($id), 'disabled after firing with nothing waiting');
        self::assertLessThan(200, $ticks);

        // The next wait enables it again and finds the data at once.
        $result = null;
        EventLoop::queue(static function () use ($waiter, $a, &$result): void {
            $result = $waiter->wait(false, null) ? fread($a, 10) : false;
        });
        EventLoop::run();
        self::assertSame('y', $result);
        self::assertTrue(EventLoop::isEnabled($id));
        EventLoop::cancel($ticker);
        $waiter->cancel();
        self::assertSame([], array_values(array_diff(EventLoop::getIdentifiers(), $before)));
    }
}
