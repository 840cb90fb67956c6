<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Server;

use Revolt\EventLoop;
use Revolt\EventLoop\Suspension;

/**
 * Something a test waits for in the event loop (a request reaching the app, a log line): the
 * code where it happens calls happen(); the test's fiber suspends in wait() until it has
 * happened, or fails at the deadline, so that tests order events by the events themselves, never
 * by a fixed sleep.
 */
final class Awaited
{
    private bool $happened = false;
    private ?Suspension $waiting = null;

    public function __construct(private readonly string $what)
    {
    }

    public function happen(): void
    {
        $this->happened = true;
        $waiting = $this->waiting;
        $this->waiting = null;
        $waiting?->resume();
    }

    public function happened(): bool
    {
        return $this->happened;
    }

    /** Returns once it has happened (at once if it already has); throws after $timeout seconds. */
    public function wait(float $timeout = 5.0): void
    {
        if ($this->happened) {
            return;
        }
        $suspension = EventLoop::getSuspension();
        $this->waiting = $suspension;
        $what = $this->what;
        $timer = EventLoop::delay($timeout, static function () use ($suspension, $timeout, $what): void {
            $suspension->throw(new \RuntimeException(\sprintf('Waited %.1f s for %s', $timeout, $what)));
        });
        try {
            $suspension->suspend();
        } finally {
            EventLoop::cancel($timer);
            $this->waiting = null;
        }
    }
}
