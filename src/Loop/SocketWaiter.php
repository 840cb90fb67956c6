<?php

declare(strict_types=1);

namespace Spindle\Loop;

use Revolt\EventLoop;
use Revolt\EventLoop\Suspension;

/**
 * Suspends the calling fiber until a socket is readable or writable, with one pair of
 * event-loop callbacks per socket that are enabled for each wait and disabled after it, rather
 * than a callback (and its closures) registered and cancelled per wait: a connection waits once
 * per statement. The MySQL, HTTP and DNS clients wait through it.
 *
 * The loop's callbacks hold this object, not the connection, so a connection dropped without
 * close() is still destroyed; it must call cancel() before closing the socket.
 */
final class SocketWaiter
{
    private ?string $readId = null;
    private ?string $writeId = null;
    /** @var Suspension<mixed>|null the wait in progress */
    private ?Suspension $suspension = null;

    /** Seconds; a longer wait is a wait without limit. */
    public const LONGEST_WAIT = 365.0 * 86400.0;

    /** @param resource $stream */
    public function __construct(private $stream)
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
        $id = $write
            ? $this->writeId ??= EventLoop::onWritable($this->stream, $this->ready(...))
            : $this->readId ??= EventLoop::onReadable($this->stream, $this->ready(...));
        EventLoop::enable($id);
        $delay = $deadline === null ? null : max(0.0, $deadline - hrtime(true) / 1e9);
        // A limit beyond a year (ATTR_TIMEOUT => PHP_INT_MAX, INF) means none: the event loop's
        // stream_select() cannot take such a number of seconds.
        $timerId = $delay === null || !($delay <= self::LONGEST_WAIT) ? null : EventLoop::delay($delay, $this->expired(...));
        $this->suspension = $suspension;
        try {
            return (bool) $suspension->suspend();
        } finally {
            $this->suspension = null;
            EventLoop::disable($id);
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
        }
        if ($this->writeId !== null) {
            EventLoop::cancel($this->writeId);
            $this->writeId = null;
        }
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
