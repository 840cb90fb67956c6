<?php

declare(strict_types=1);

namespace Spindle\Loop;

use Spindle\Loop\Driver\Epoll\EpollException;
use Spindle\Loop\Driver\EpollDriver;

/**
 * Which driver a worker's loop runs on (`--event-loop`, `SPINDLE_EVENT_LOOP`): select() (Revolt's
 * own choice, as without this option) or epoll (EpollDriver). Auto takes select() while it can
 * hold the connections asked for, because it answers a request faster when few connections are
 * open (docs/benchmarks.md), and epoll beyond that where it can run.
 */
enum EventLoopKind: string
{
    case Auto = 'auto';
    case Select = 'select';
    case Epoll = 'epoll';

    /**
     * The most connections auto leaves to select(): a worker's descriptors include its listener,
     * the master's channel, logs and the app's own (database, files), and select() cannot watch one
     * numbered 1024 or above.
     */
    public const SELECT_CONNECTIONS = 1000;

    /** The connections a worker holds by default with epoll (if the descriptor limit allows). */
    public const EPOLL_CONNECTIONS = 10000;

    /** The concrete driver for a worker holding $maxConnections (null: the default for the driver). */
    public function resolve(?int $maxConnections): self
    {
        return match ($this) {
            self::Auto => $maxConnections !== null && $maxConnections > self::SELECT_CONNECTIONS && self::epollProblem() === null ? self::Epoll : self::Select,
            default => $this,
        };
    }

    /** The connection cap a worker on this driver holds when none was asked for. */
    public function defaultConnections(): int
    {
        return $this === self::Epoll ? self::EPOLL_CONNECTIONS : 512;
    }

    /** Why epoll cannot run in this process, or null where it can. */
    public static function epollProblem(): ?string
    {
        try {
            EpollDriver::check();

            return null;
        } catch (EpollException $e) {
            return $e->getMessage();
        }
    }
}
