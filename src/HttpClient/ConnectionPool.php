<?php

declare(strict_types=1);

namespace Spindle\HttpClient;

use Revolt\EventLoop;
use Spindle\Loop\WaitQueue;

/**
 * Keep-alive connections by origin. A connection counts against its origin's limit and the total
 * from connect to close; one that is released goes idle only if its last response was read whole,
 * and is closed after $idleTimeout. When a limit is reached a request waits (its fiber suspended)
 * for a connection to be released or closed.
 */
final class ConnectionPool
{
    /** @var array<string, list<Connection>> idle connections by key, the most recent last */
    private array $idle = [];
    /** @var array<string, int> open connections (idle or in use) by key */
    private array $open = [];
    private int $total = 0;
    /**
     * Requests waiting for room, tagged with their key; a grant means "look again", and carries
     * the key it was meant for (null: any).
     *
     * @var WaitQueue<string|null>
     */
    private readonly WaitQueue $waiting;
    private ?string $sweeper = null;

    public function __construct(
        public readonly int $maxPerOrigin = 256,
        public readonly int $maxTotal = 512,
        public readonly float $idleTimeout = 30.0,
    ) {
        $this->waiting = new WaitQueue();
    }

    /**
     * An idle connection for $key, or a new one from $connect once the limits leave room.
     *
     * @param \Closure(): Connection $connect
     */
    public function acquire(string $key, \Closure $connect, ?float $deadline): Connection
    {
        while (true) {
            $now = \hrtime(true) / 1e9;
            $this->idle[$key] ??= [];
            while (($connection = \array_pop($this->idle[$key])) !== null) {
                if ($connection->isUsable() && $now - $connection->idleSince < $this->idleTimeout) {
                    return $connection;
                }
                $this->closeOpen($connection);
            }
            if (($this->open[$key] ?? 0) < $this->maxPerOrigin && ($this->total < $this->maxTotal || $this->evictIdle())) {
                $this->open[$key] = ($this->open[$key] ?? 0) + 1;
                ++$this->total;
                try {
                    return $connect();
                } catch (\Throwable $e) {
                    $this->forget($key);
                    throw $e;
                }
            }
            $this->waitForRoom($key, $deadline);
        }
    }

    /** Gives back a connection: kept idle when $reusable, else closed. */
    public function release(Connection $connection, bool $reusable): void
    {
        if (!$reusable || $connection->isClosed()) {
            $this->closeOpen($connection);

            return;
        }
        $connection->idleSince = \hrtime(true) / 1e9;
        $this->idle[$connection->key][] = $connection;
        if ($this->sweeper === null) {
            // The timer holds the pool weakly: a pool nobody uses any more is freed, with its connections.
            $pool = \WeakReference::create($this);
            $this->sweeper = EventLoop::unreference(EventLoop::repeat(\max(1.0, $this->idleTimeout / 2), static function (string $id) use ($pool): void {
                $alive = $pool->get();
                if ($alive === null) {
                    EventLoop::cancel($id);
                } else {
                    $alive->sweep();
                }
            }));
        }
        $this->wakeOne($connection->key);
    }

    /** @return array{open: int, idle: int} */
    public function stats(): array
    {
        return ['open' => $this->total, 'idle' => \array_sum(\array_map('count', $this->idle))];
    }

    /** Closes every idle connection. */
    public function closeIdle(): void
    {
        foreach ($this->idle as $connections) {
            foreach ($connections as $connection) {
                $this->closeOpen($connection);
            }
        }
        $this->idle = [];
    }

    private function closeOpen(Connection $connection): void
    {
        $connection->close();
        $this->forget($connection->key);
    }

    private function forget(string $key): void
    {
        $this->open[$key] = \max(0, ($this->open[$key] ?? 1) - 1);
        if ($this->open[$key] === 0) {
            unset($this->open[$key]);
        }
        $this->total = \max(0, $this->total - 1);
        $this->wakeOne(null);
    }

    private function evictIdle(): bool
    {
        foreach ($this->idle as $key => $connections) {
            if ($connections !== []) {
                $connection = \array_shift($connections);
                $this->idle[$key] = $connections;
                $this->closeOpen($connection);

                return true;
            }
        }

        return false;
    }

    private function waitForRoom(string $key, ?float $deadline): void
    {
        $this->waiting->wait(
            $deadline === null ? \INF : \max(0.0, $deadline - \hrtime(true) / 1e9),
            fn (): \Throwable => new TimeoutException(\sprintf('No connection to %s became free within the connect timeout (pool limits %d per origin, %d in total)', $key, $this->maxPerOrigin, $this->maxTotal), TimeoutKind::Connect),
            $key,
            // Room offered to a request that left its wait goes to the next one.
            $this->wakeOne(...),
        );
    }

    /** Resumes the first waiter for $key (or any waiter when $key is null). */
    private function wakeOne(?string $key): void
    {
        if ($key === null) {
            $this->waiting->grant(null);
        } else {
            $this->waiting->grantWhere(static fn (mixed $waitKey): bool => $waitKey === $key, $key);
        }
    }

    public function __destruct()
    {
        if ($this->sweeper !== null) {
            EventLoop::cancel($this->sweeper);
        }
        $this->closeIdle();
    }

    /** Closes the idle connections that timed out or that the server closed. */
    private function sweep(): void
    {
        $now = \hrtime(true) / 1e9;
        foreach ($this->idle as $key => $connections) {
            $keep = [];
            foreach ($connections as $connection) {
                if ($now - $connection->idleSince < $this->idleTimeout && $connection->isUsable()) {
                    $keep[] = $connection;
                } else {
                    $this->closeOpen($connection);
                }
            }
            $this->idle[$key] = $keep;
        }
        $this->idle = \array_filter($this->idle, static fn (array $connections): bool => $connections !== []);
        if ($this->idle === [] && $this->sweeper !== null) {
            EventLoop::cancel($this->sweeper);
            $this->sweeper = null;
        }
    }
}
