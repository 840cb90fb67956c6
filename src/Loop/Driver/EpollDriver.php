<?php

declare(strict_types=1);

namespace Spindle\Loop\Driver;

use Revolt\EventLoop\Internal\AbstractDriver;
use Revolt\EventLoop\Internal\DriverCallback;
use Revolt\EventLoop\Internal\SignalCallback;
use Revolt\EventLoop\Internal\StreamReadableCallback;
use Revolt\EventLoop\Internal\StreamWritableCallback;
use Revolt\EventLoop\Internal\TimerCallback;
use Revolt\EventLoop\Internal\TimerQueue;
use Revolt\EventLoop\UnsupportedFeatureException;
use Spindle\Loop\Driver\Epoll\Epoll;
use Spindle\Loop\Driver\Epoll\EpollException;
use Spindle\Loop\Driver\Epoll\Libc;
use Spindle\Loop\Driver\Epoll\StreamDescriptors;

/**
 * A Revolt driver on Linux's epoll, reached through FFI, for workers that hold more connections
 * than select() can watch (descriptors numbered 1024 and above).
 *
 * Level-triggered, as select() is: a stream that stays readable has its callbacks called on
 * every tick. Registrations are keyed by the stream's resource id, which PHP never reuses, and
 * not by its descriptor, which the kernel does reuse: the key travels with each registration and
 * comes back with its events. Interest changes are written to epoll once per tick, just before
 * the wait, so a callback disabled and enabled again within a tick costs nothing.
 *
 * A stream closed while its callbacks are enabled is let go by the kernel with its descriptor;
 * when that number comes back for a new stream, the new stream takes it over (see apply()). If a
 * closed stream's file lives on elsewhere (a child process inherited it), the kernel keeps
 * reporting it under the old key: the epoll instance is then made afresh from the live streams.
 *
 * Timers are Revolt's TimerQueue, the wait rounded up to the next millisecond so that it never
 * ends before the first timer is due; signals are PHP's (pcntl): a signal ends the wait (EINTR)
 * and its callbacks are queued on the next tick.
 *
 * Data PHP has already buffered for a stream does not wake this driver, as with Revolt's ev and
 * uv drivers: Spindle's streams are unbuffered (stream_set_read_buffer($s, 0)).
 */
final class EpollDriver extends AbstractDriver
{
    private readonly Libc $libc;
    private readonly Epoll $epoll;
    private readonly StreamDescriptors $descriptorOf;
    private readonly TimerQueue $timers;

    /** @var array<int, resource> resource id => stream, for streams with a callback enabled */
    private array $streams = [];
    /** @var array<int, array<string, StreamReadableCallback>> */
    private array $readCallbacks = [];
    /** @var array<int, array<string, StreamWritableCallback>> */
    private array $writeCallbacks = [];
    /** @var array<int, int> resource id => its descriptor, for streams registered with epoll */
    private array $descriptors = [];
    /** @var array<int, int> resource id => the events it is registered for */
    private array $registered = [];
    /** @var array<int, int> descriptor => the resource id registered under it */
    private array $owners = [];
    /** @var array<int, int> resource id => events, for streams epoll cannot watch (regular files): always ready, as select() has them */
    private array $alwaysReady = [];
    /** @var array<int, int> resource ids whose callbacks changed since the last wait */
    private array $changed = [];

    /** @var array<int, array<string, SignalCallback>> */
    private array $signalCallbacks = [];
    /** @var list<int> signals received, waiting for the next tick */
    private array $signalsReceived = [];
    private readonly bool $signalHandling;

    /** @throws EpollException where epoll cannot be used (see isSupported()) */
    public function __construct()
    {
        parent::__construct();
        $this->libc = Libc::load();
        $this->epoll = Epoll::create($this->libc);
        $this->descriptorOf = StreamDescriptors::load();
        $this->timers = new TimerQueue();
        $this->signalHandling = \function_exists('pcntl_signal') && \function_exists('pcntl_signal_dispatch');
    }

    /**
     * Throws unless this process can run the driver: Linux, ext-ffi allowed here, libc's epoll, and
     * a PHP whose resource table FFI can read.
     *
     * @throws EpollException saying what is missing
     */
    public static function check(): void
    {
        Epoll::create(Libc::load())->close();
        StreamDescriptors::load();
    }

    /**
     * Raises the process's soft limit on open descriptors toward its hard limit so that it can hold
     * $wanted; returns the limit now in force (which select() could never use past 1024).
     */
    public function raiseDescriptorLimit(int $wanted): int
    {
        return $this->libc->raiseDescriptorLimit($wanted);
    }

    public function __destruct()
    {
        foreach ($this->signalCallbacks as $callbacks) {
            foreach ($callbacks as $callback) {
                $this->deactivate($callback);
            }
        }
        $this->epoll->close();
    }

    /** @throws UnsupportedFeatureException without the pcntl extension */
    #[\Override]
    public function onSignal(int $signal, \Closure $closure): string
    {
        if (!$this->signalHandling) {
            throw new UnsupportedFeatureException('Signal callbacks need the pcntl extension');
        }

        return parent::onSignal($signal, $closure);
    }

    #[\Override]
    public function getHandle(): mixed
    {
        return null;
    }

    #[\Override]
    protected function now(): float
    {
        return (float) \hrtime(true) / 1_000_000_000;
    }

    #[\Override]
    protected function dispatch(bool $blocking): void
    {
        if ($this->signalHandling) {
            \pcntl_signal_dispatch();
            foreach ($this->signalsReceived as $signal) {
                foreach ($this->signalCallbacks[$signal] ?? [] as $callback) {
                    $this->enqueueCallback($callback);
                }
                $blocking = false;
            }
            $this->signalsReceived = [];
        }

        $this->apply();
        $ready = $this->epoll->wait($blocking && $this->alwaysReady === [] ? $this->timeout() : 0) + $this->alwaysReady;
        $stale = false;
        foreach ($ready as $id => $events) {
            if (!isset($this->streams[$id]) || !\is_resource($this->streams[$id])) {
                // A closed stream: epoll still has it only if its file lives on elsewhere.
                $stale = $stale || !isset($this->alwaysReady[$id]);
                unset($this->alwaysReady[$id]);
                continue;
            }
            if (($events & (Epoll::IN | Epoll::ERR | Epoll::HUP)) !== 0) {
                foreach ($this->readCallbacks[$id] ?? [] as $callback) {
                    $this->enqueueCallback($callback);
                }
            }
            if (($events & (Epoll::OUT | Epoll::ERR | Epoll::HUP)) !== 0) {
                foreach ($this->writeCallbacks[$id] ?? [] as $callback) {
                    $this->enqueueCallback($callback);
                }
            }
        }
        if ($stale) {
            $this->rebuild();
        }

        $now = $this->now();
        while ($timer = $this->timers->extract($now)) {
            $this->enqueueCallback($timer);
        }
    }

    /** @param array<DriverCallback> $callbacks */
    #[\Override]
    protected function activate(array $callbacks): void
    {
        foreach ($callbacks as $callback) {
            if ($callback instanceof StreamReadableCallback || $callback instanceof StreamWritableCallback) {
                \assert(\is_resource($callback->stream));
                $id = (int) $callback->stream;
                $this->streams[$id] = $callback->stream;
                $this->changed[$id] = $id;
                if ($callback instanceof StreamReadableCallback) {
                    $this->readCallbacks[$id][$callback->id] = $callback;
                } else {
                    $this->writeCallbacks[$id][$callback->id] = $callback;
                }
            } elseif ($callback instanceof TimerCallback) {
                $this->timers->insert($callback);
            } elseif ($callback instanceof SignalCallback) {
                $this->watchSignal($callback);
            } else {
                throw new \Error('Unknown callback type ' . $callback::class);
            }
        }
    }

    #[\Override]
    protected function deactivate(DriverCallback $callback): void
    {
        if ($callback instanceof StreamReadableCallback || $callback instanceof StreamWritableCallback) {
            $id = (int) $callback->stream;
            if ($callback instanceof StreamReadableCallback) {
                unset($this->readCallbacks[$id][$callback->id]);
                if (($this->readCallbacks[$id] ?? []) === []) {
                    unset($this->readCallbacks[$id]);
                }
            } else {
                unset($this->writeCallbacks[$id][$callback->id]);
                if (($this->writeCallbacks[$id] ?? []) === []) {
                    unset($this->writeCallbacks[$id]);
                }
            }
            $this->changed[$id] = $id;
        } elseif ($callback instanceof TimerCallback) {
            $this->timers->remove($callback);
        } elseif ($callback instanceof SignalCallback) {
            $this->unwatchSignal($callback);
        } else {
            throw new \Error('Unknown callback type ' . $callback::class);
        }
    }

    /** Writes the interest changes since the last wait to epoll. */
    private function apply(): void
    {
        foreach ($this->changed as $id) {
            $wanted = (isset($this->readCallbacks[$id]) ? Epoll::IN : 0) | (isset($this->writeCallbacks[$id]) ? Epoll::OUT : 0);
            $had = $this->registered[$id] ?? 0;
            $stream = $this->streams[$id] ?? null;
            unset($this->alwaysReady[$id]);
            if ($wanted === 0 || $stream === null || !\is_resource($stream)) {
                // Nothing wanted, or the stream was closed (and its descriptor with it).
                $this->unregister($id, $stream !== null && \is_resource($stream));
                if ($wanted === 0) {
                    unset($this->streams[$id]);
                }
                continue;
            }
            if ($wanted === $had) {
                continue;
            }
            $fd = $this->descriptors[$id] ??= $this->descriptorOf->of($stream);
            $owner = $this->owners[$fd] ?? null;
            if ($owner !== null && $owner !== $id) {
                // The descriptor was a stream's that was closed with callbacks enabled: its number
                // came back for this one. The old registration went with the old file.
                unset($this->registered[$owner], $this->descriptors[$owner]);
                $had = 0;
            }
            if (!$this->epoll->watch($fd, $wanted, $id, $had !== 0)) {
                $this->alwaysReady[$id] = $wanted;
                unset($this->descriptors[$id]);
                continue;
            }
            $this->owners[$fd] = $id;
            $this->registered[$id] = $wanted;
        }
        $this->changed = [];
    }

    private function unregister(int $id, bool $open): void
    {
        $fd = $this->descriptors[$id] ?? null;
        if ($fd !== null && ($this->owners[$fd] ?? null) === $id) {
            if ($open) {
                $this->epoll->forget($fd);
            }
            unset($this->owners[$fd]);
        }
        unset($this->registered[$id], $this->descriptors[$id]);
    }

    /** A fresh epoll instance with the open streams registered again (see the class comment). */
    private function rebuild(): void
    {
        $this->epoll->reset();
        $this->changed = \array_keys($this->streams);
        $this->changed = \array_combine($this->changed, $this->changed);
        $this->registered = [];
        $this->descriptors = [];
        $this->owners = [];
        $this->apply();
    }

    /** Milliseconds until the first timer is due, rounded up; -1 without timers. */
    private function timeout(): int
    {
        $expiration = $this->timers->peek();
        if ($expiration === null) {
            return -1;
        }
        $ms = ($expiration - $this->now()) * 1000;

        return $ms > 0 ? (int) \ceil($ms) : 0;
    }

    private function watchSignal(SignalCallback $callback): void
    {
        if (!isset($this->signalCallbacks[$callback->signal])) {
            if (!@\pcntl_signal($callback->signal, $this->receiveSignal(...))) {
                throw new UnsupportedFeatureException(\sprintf('Cannot watch signal %d: %s', $callback->signal, \error_get_last()['message'] ?? 'pcntl_signal() failed'));
            }
        }
        $this->signalCallbacks[$callback->signal][$callback->id] = $callback;
    }

    private function unwatchSignal(SignalCallback $callback): void
    {
        unset($this->signalCallbacks[$callback->signal][$callback->id]);
        if (($this->signalCallbacks[$callback->signal] ?? null) === []) {
            unset($this->signalCallbacks[$callback->signal]);
            @\pcntl_signal($callback->signal, \SIG_DFL);
        }
    }

    /** PHP's signal handler: the callbacks run on the next tick, not inside pcntl_signal_dispatch(). */
    private function receiveSignal(int $signal): void
    {
        $this->signalsReceived[] = $signal;
    }
}
