<?php

declare(strict_types=1);

namespace Spindle\Loop\Driver\Epoll;

/**
 * One epoll instance, reached through libc with FFI: the interest list is keyed by descriptor, and
 * each registration carries a 64-bit key of the caller's choosing, which is what wait() reports.
 * Level-triggered: a descriptor that stays readable (or writable) is reported on every wait, as
 * select() would report it.
 */
final class Epoll
{
    public const IN = 0x001;
    public const OUT = 0x004;
    public const ERR = 0x008;
    public const HUP = 0x010;

    private const CTL_ADD = 1;
    private const CTL_DEL = 2;
    private const CTL_MOD = 3;
    private const CLOEXEC = 0x80000;
    private const EINTR = 4;
    private const EEXIST = 17;
    private const ENOENT = 2;
    private const EBADF = 9;
    private const EPERM = 1;

    /** Events taken from the kernel per wait; more ready descriptors are reported on the next. */
    private const BATCH = 1024;

    private int $fd;
    private readonly \FFI\CData $event;
    private readonly \FFI\CData $events;
    /** The event list seen as uint32_t words (see wait()). */
    private readonly \FFI\CData $words;
    private readonly int $wordsPerEvent;

    private function __construct(private readonly \FFI $libc)
    {
        $this->fd = $this->open();
        $this->event = $libc->new('struct epoll_event') ?? throw new EpollException('FFI cannot allocate an epoll_event');
        $this->events = $libc->new(\sprintf('struct epoll_event[%d]', self::BATCH)) ?? throw new EpollException('FFI cannot allocate the event list');
        $this->words = $libc->cast('uint32_t *', \FFI::addr($this->events)) ?? throw new EpollException('FFI cannot view the event list');
        $this->wordsPerEvent = \intdiv(\FFI::sizeof($this->event), 4);
    }

    /** @throws EpollException where libc's epoll cannot be loaded or created */
    public static function create(Libc $libc): self
    {
        return new self($libc->ffi);
    }

    /**
     * Registers $fd (or changes its registration when it is already there) with $events and $key;
     * false for a descriptor epoll cannot watch (a regular file, /dev/null), which select() reports
     * as always ready.
     */
    public function watch(int $fd, int $events, int $key, bool $added): bool
    {
        // The libc functions and C structure fields reached through FFI are unknown to PHPStan.
        $this->event->events = $events; // @phpstan-ignore property.notFound
        $this->event->data = $key; // @phpstan-ignore property.notFound
        $op = $added ? self::CTL_MOD : self::CTL_ADD;
        if ($this->ctl($op, $fd) === 0) {
            return true;
        }
        $errno = $this->errno();
        if ($errno === self::EPERM) {
            return false;
        }
        // ADD of a descriptor already there (its file was never closed), MOD of one that is not.
        $retry = match ($errno) {
            self::EEXIST => self::CTL_MOD,
            self::ENOENT => self::CTL_ADD,
            default => null,
        };
        if ($retry !== null && $this->ctl($retry, $fd) === 0) {
            return true;
        }
        throw new EpollException(\sprintf('epoll_ctl(%s) of descriptor %d failed: errno %d', $added ? 'MOD' : 'ADD', $fd, $this->errno()));
    }

    /** Removes $fd; a descriptor that is no longer there (closed) is not an error. */
    public function forget(int $fd): void
    {
        if ($this->ctl(self::CTL_DEL, $fd) !== 0 && !\in_array($this->errno(), [self::ENOENT, self::EBADF], true)) {
            throw new EpollException(\sprintf('epoll_ctl(DEL) of descriptor %d failed: errno %d', $fd, $this->errno()));
        }
    }

    /**
     * Waits up to $timeoutMs (-1: without limit) and returns the ready registrations, key => events;
     * none when a signal interrupted the wait.
     *
     * @return array<int, int>
     */
    public function wait(int $timeoutMs): array
    {
        /** @var int $count */
        $count = $this->libc->epoll_wait( // @phpstan-ignore method.notFound
$this->fd, $this->events, self::BATCH, $timeoutMs);
        if ($count < 0) {
            if ($this->errno() === self::EINTR) {
                return [];
            }
            throw new EpollException(\sprintf('epoll_wait failed: errno %d', $this->errno()));
        }
        // Read through a view of the list as 32-bit words, 3 per event on x86-64 (4 elsewhere):
        // a scalar read from it is a PHP int, where each field read from the struct would make an
        // object first. The keys are resource ids, below 2^32: the key's high half is not read.
        $words = $this->words;
        $step = $this->wordsPerEvent;
        $ready = [];
        for ($i = 0, $end = $count * $step; $i < $end; $i += $step) {
            /** @var int $key */
            $key = $words[$i + $step - 2];
            /** @var int $mask */
            $mask = $words[$i];
            $ready[$key] = $mask;
        }

        return $ready;
    }

    /** Drops every registration at once: a fresh instance replaces this one's. */
    public function reset(): void
    {
        $this->close();
        $this->fd = $this->open();
    }

    public function close(): void
    {
        if ($this->fd >= 0) {
            $this->libc->close($this->fd); // @phpstan-ignore method.notFound
            $this->fd = -1;
        }
    }

    public function __destruct()
    {
        $this->close();
    }

    private function open(): int
    {
        /** @var int $fd */
        $fd = $this->libc->epoll_create1(self::CLOEXEC); // @phpstan-ignore method.notFound
        if ($fd < 0) {
            throw new EpollException(\sprintf('epoll_create1 failed: errno %d', $this->errno()));
        }

        return $fd;
    }

    private function ctl(int $op, int $fd): int
    {
        /** @var int $result */
        $result = $this->libc->epoll_ctl( // @phpstan-ignore method.notFound
$this->fd, $op, $fd, \FFI::addr($this->event));

        return $result;
    }

    private function errno(): int
    {
        /** @var \FFI\CData $location */
        $location = $this->libc->__errno_location(); // @phpstan-ignore method.notFound

        return (int) $location[0];
    }
}
