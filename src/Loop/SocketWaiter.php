<?php

declare(strict_types=1);

namespace Spindle\Loop;

use Revolt\EventLoop;
use Revolt\EventLoop\Suspension;

/**
 * Suspends the calling fiber until a socket is readable or writable, with one pair of
 * event-loop callbacks per socket rather than a callback (and its closures) registered and
 * cancelled per wait: a connection waits once per statement. The MySQL, HTTP, DNS and
 * PostgreSQL clients wait through it.
 *
 * The write callback is enabled for each wait and disabled after it. The read callback, for a
 * waiter made with $keepReading, stays enabled after a wait and unreferenced (it does not keep
 * the loop running): a client that reads its answer leaves the socket unreadable, so the next
 * wait costs no enable, activation and disable in the loop. Should the socket become readable
 * while nothing waits (the peer closed it, a notification came), the callback disables itself
 * the first time it runs. The suspension of the last wait is kept: the loop hands out the same
 * one to the fiber's next wait rather than a new one.
 *
 * The loop's callbacks hold this object, not the connection, so a connection dropped without
 * close() is still destroyed; it must call cancel() before closing the socket (with
 * $keepReading the loop may still watch the socket between two waits).
 */
final class SocketWaiter
{
    private ?string $readId = null;
    private ?string $writeId = null;
    /** Whether the read callback is enabled (a kept one stays so between waits). */
    private bool $reading = false;
    /** @var Suspension<mixed>|null the wait in progress */
    private ?Suspension $suspension = null;
    /** @var Suspension<mixed>|null the last wait's: held so that the loop hands it out again */
    private ?Suspension $last = null; // @phpstan-ignore property.onlyWritten

    /** Seconds; a longer wait is a wait without limit. */
    public const LONGEST_WAIT = 365.0 * 86400.0;

    /** @param resource $stream */
    public function __construct(private $stream, private readonly bool $keepReading = false)
    {
    }

    /**
     * @param float|null $deadline hrtime in seconds, null for no limit
     *
     * @return bool false when the deadline passed first
     */
    public function wait(bool $write, ?float $deadline): bool
    {
        $suspension = EventLoop::getSuspension();
        if ($write) {
            $id = $this->writeId ??= EventLoop::onWritable($this->stream, $this->ready(...));
            EventLoop::enable($id);
        } else {
            $id = $this->readId ??= EventLoop::onReadable($this->stream, $this->readable(...));
            if (!$this->reading) {
                EventLoop::enable($id);
                $this->reading = true;
            }
            if ($this->keepReading) {
                EventLoop::reference($id);
            }
        }
        $timerId = null;
        if ($deadline !== null) {
            $delay = max(0.0, $deadline - hrtime(true) / 1e9);
            // A limit beyond a year (ATTR_TIMEOUT => PHP_INT_MAX, INF) means none: the event
            // loop's stream_select() cannot take such a number of seconds.
            $timerId = $delay <= self::LONGEST_WAIT ? EventLoop::delay($delay, $this->expired(...)) : null;
        }
        $this->suspension = $this->last = $suspension;
        try {
            return (bool) $suspension->suspend();
        } finally {
            $this->suspension = null;
            if ($write) {
                EventLoop::disable($id);
            } elseif ($this->keepReading) {
                EventLoop::unreference($id);
            } else {
                EventLoop::disable($id);
                $this->reading = false;
            }
            if ($timerId !== null) {
                EventLoop::cancel($timerId);
            }
        }
    }

    /** Removes the callbacks from the loop (before the socket is closed). */
    public function cancel(): void
    {
        if ($this->readId !== null) {
            EventLoop::cancel($this->readId);
            $this->readId = null;
            $this->reading = false;
        }
        if ($this->writeId !== null) {
            EventLoop::cancel($this->writeId);
            $this->writeId = null;
        }
        $this->last = null;
    }

    private function readable(string $id): void
    {
        if ($this->suspension === null) {
            // Readable while nothing waits (a kept callback): quiet until the next wait.
            EventLoop::disable($id);
            $this->reading = false;

            return;
        }
        $this->wake(true);
    }

    private function ready(): void
    {
        $this->wake(true);
    }

    private function expired(): void
    {
        $this->wake(false);
    }

    /** Resumes the waiting fiber once: whichever of readiness and timeout comes first. */
    private function wake(bool $ready): void
    {
        $suspension = $this->suspension;
        if ($suspension === null) {
            return;
        }
        $this->suspension = null;
        $suspension->resume($ready);
    }
}
