<?php

declare(strict_types=1);

namespace Spindle\Database\Pool;

use Revolt\EventLoop;
use Spindle\Database\Mysql\Connection;
use Spindle\Database\Mysql\PreparedStatement;
use Spindle\Loop\WaitQueue;

/**
 * Connections shared by the fibers of one worker. A fiber acquires a connection, holds it alone
 * and releases it; while all maxSize connections are lent out, further acquirers wait in FIFO
 * order (only their own fiber is suspended) until one comes back or waitTimeout passes.
 *
 *     $pool = new ConnectionPool(fn () => SocketConnection::connect($config), maxSize: 10);
 *     $rows = $pool->with(fn (PooledConnection $db) => $db->query('SELECT …')[0]->rows);
 *     $pool->transaction(function (PooledConnection $db): void { … });
 *     $pdo = Pdo::fromConnection($pool->acquire()); // back to the pool when $pdo is gone
 *
 * A connection that broke is closed and never handed out again. One released inside a
 * transaction is rolled back (in the background, so release() never waits) before it is reused,
 * and closed if that fails. Idle connections older than idleTimeout are closed when acquire()
 * next runs; one idle for pingAfter seconds or more is pinged before it is handed out, so a
 * connection the server dropped meanwhile is replaced instead of failing the caller's query.
 *
 * A fiber that acquires a second connection while it holds one can wait on itself: with a full
 * pool that ends in PoolTimeout.
 */
final class ConnectionPool
{
    private const SERVER_STATUS_IN_TRANS = 1;

    private PoolState $state = PoolState::Open;
    /** Connections held: idle, lent, being opened or being cleaned up. Never above maxSize. */
    private int $size = 0;
    /** @var list<IdleConnection> oldest first; reuse takes the newest */
    private array $idle = [];
    /** @var WaitQueue<Connection|null> a grant is a clean connection, or null: a free slot to open one in */
    private readonly WaitQueue $waiters;
    /** @var array<int, PooledConnection> the leases out now, by object id (for the growth check) */
    private array $lent = [];
    /** The timer that grows the pool past its core size while waiters wait (null: none running). */
    private ?string $growth = null;
    private readonly int $coreSize;
    /** Nanoseconds fibers spent in wait(), added up. */
    private int $waitedNs = 0;
    private int $timeouts = 0;

    /**
     * @param \Closure(): Connection $connect opens a new connection (called in the acquiring fiber)
     * @param float $waitTimeout seconds acquire() waits for a free connection (0: not at all; INF: forever)
     * @param float $idleTimeout seconds an idle connection is kept (INF: forever)
     * @param float $pingAfter seconds of idleness after which a connection is pinged before reuse (0: always; INF: never)
     * @param int|null $coreSize connections opened as callers ask; past them the pool opens more
     *                           (up to maxSize) only while a fiber waits and every connection lent
     *                           out has been in one call for $slowCall seconds or more (waiting on
     *                           slow queries, not lent to fibers that compute); null: maxSize
     */
    public function __construct(
        private readonly \Closure $connect,
        private readonly int $maxSize = 10,
        private readonly float $waitTimeout = 5.0,
        private readonly float $idleTimeout = 60.0,
        private readonly float $pingAfter = 1.0,
        ?int $coreSize = null,
        private readonly float $slowCall = 0.05,
    ) {
        $this->coreSize = $coreSize === null ? $maxSize : \max(1, \min($coreSize, $maxSize));
        if (\is_nan($slowCall) || $slowCall <= 0) {
            throw new \InvalidArgumentException('The pool\'s slow call threshold must be more than 0 seconds');
        }
        if ($maxSize < 1) {
            throw new \InvalidArgumentException(sprintf('A connection pool needs a maxSize of at least 1, %d given', $maxSize));
        }
        if (is_nan($waitTimeout) || $waitTimeout < 0) {
            throw new \InvalidArgumentException('The pool wait timeout must be 0 or more seconds (INF: wait forever)');
        }
        if (is_nan($idleTimeout) || $idleTimeout <= 0) {
            throw new \InvalidArgumentException('The pool idle timeout must be more than 0 seconds (INF: keep forever)');
        }
        if (is_nan($pingAfter) || $pingAfter < 0) {
            throw new \InvalidArgumentException('The pool ping interval must be 0 or more seconds (INF: never ping)');
        }
        $this->waiters = new WaitQueue();
    }

    /**
     * A connection for the calling fiber alone, until it is released: an idle healthy one, a new
     * one while the pool is below its core size, or else the first one released to this fiber's
     * turn. $nested: the caller holds another connection of this pool already (a second one for
     * the same request): it is served before the waiters, opening one up to maxSize, since
     * waiting behind them could be waiting on itself.
     *
     * @throws PoolTimeout after waitTimeout seconds without a free connection
     * @throws PoolClosed
     * @throws \Throwable what the connect closure throws (the slot is freed again)
     */
    public function acquire(bool $nested = false): PooledConnection
    {
        if ($this->state === PoolState::Closed) {
            throw new PoolClosed('The connection pool is closed');
        }
        // A caller that already holds a connection of this pool and waited behind others could
        // wait on itself: it goes first, and past the core size.
        if ($this->waiters->isEmpty() || $nested) {
            $connection = $this->takeIdle();
            if ($connection !== null) {
                return $this->lend($connection);
            }
            if ($this->size < ($nested ? $this->maxSize : $this->coreSize)) {
                ++$this->size;

                return $this->open();
            }
        }
        if ($this->size < $this->maxSize && $this->growth === null) {
            $this->growth = EventLoop::repeat($this->slowCall / 2, $this->grow(...));
            EventLoop::unreference($this->growth);
        }

        return $this->wait();
    }

    /**
     * Gives a connection back (idempotent; PooledConnection::release() and close() do the same).
     * A broken connection is closed and its place goes to the first waiter, which opens a new one;
     * one inside a transaction, or with statements left open, is cleaned up first.
     */
    public function release(PooledConnection $connection): void
    {
        $this->giveBack($connection, false);
    }

    /** Gives a connection back to be closed rather than reused (idempotent). */
    public function discard(PooledConnection $connection): void
    {
        $this->giveBack($connection, true);
    }

    /**
     * Runs $work with a connection of its own and releases it afterwards, whatever happens.
     *
     * @template T
     *
     * @param \Closure(PooledConnection): T $work
     *
     * @return T
     */
    public function with(\Closure $work): mixed
    {
        $connection = $this->acquire();
        try {
            return $work($connection);
        } finally {
            $this->release($connection);
        }
    }

    /**
     * Runs $work inside a transaction on one connection: BEGIN, $work, COMMIT. If $work throws,
     * the transaction is rolled back and the exception rethrown (a connection whose ROLLBACK
     * fails is discarded). The connection stays with this fiber throughout.
     *
     * @template T
     *
     * @param \Closure(PooledConnection): T $work
     *
     * @return T
     */
    public function transaction(\Closure $work): mixed
    {
        $connection = $this->acquire();
        try {
            $connection->query('BEGIN');
            try {
                $result = $work($connection);
            } catch (\Throwable $error) {
                try {
                    if (!$connection->isBroken()) {
                        $connection->query('ROLLBACK');
                    }
                } catch (\Throwable) {
                    $connection->discard();
                }
                throw $error;
            }
            $connection->query('COMMIT');

            return $result;
        } finally {
            $this->release($connection);
        }
    }

    public function stats(): PoolStats
    {
        $idle = \count($this->idle);

        // Every wait takes the next waiter number: their count is the number of waits.
        return new PoolStats($this->size, $idle, $this->size - $idle, $this->waiters->count(), $this->maxSize, $this->waiters->waits(), $this->waitedNs / 1e9, $this->timeouts);
    }

    /**
     * Closes the idle connections and stops handing out new ones: waiting fibers get PoolClosed,
     * and connections still lent out are closed when they are released.
     */
    public function close(): void
    {
        if ($this->state === PoolState::Closed) {
            return;
        }
        $this->state = PoolState::Closed;
        $idle = $this->idle;
        $this->idle = [];
        $this->size -= \count($idle);
        foreach ($idle as $entry) {
            self::closeQuietly($entry->connection);
        }
        $this->waiters->failAll(new PoolClosed('The connection pool was closed while this fiber waited for a connection'));
    }

    /** The newest healthy idle connection, after closing those past idleTimeout; null if none. */
    private function takeIdle(): ?Connection
    {
        $now = self::now();
        while ($this->idle !== [] && $now - $this->idle[0]->since > $this->idleTimeout) {
            $expired = array_shift($this->idle);
            $this->drop($expired->connection);
        }
        while (($entry = array_pop($this->idle)) !== null) {
            $connection = $entry->connection;
            if ($connection->isBroken()) {
                $this->drop($connection);
                continue;
            }
            if ($now - $entry->since >= $this->pingAfter) {
                // Counted in size but neither idle nor lent while the ping runs.
                try {
                    $connection->ping();
                } catch (\Throwable) {
                    $this->drop($connection);
                    $now = self::now();
                    continue;
                }
                if ($this->state === PoolState::Closed) {
                    $this->drop($connection);
                    throw new PoolClosed('The connection pool is closed');
                }
            }

            return $connection;
        }

        return null;
    }

    /** Opens a connection in a slot already counted in size. */
    private function open(): PooledConnection
    {
        try {
            $connection = ($this->connect)();
        } catch (\Throwable $e) {
            $this->freeSlot();
            throw $e;
        }
        if (!$connection instanceof Connection) {
            $this->freeSlot();
            throw new \TypeError(sprintf('The connection pool\'s connect closure must return a %s, %s returned', Connection::class, get_debug_type($connection)));
        }
        if ($this->state === PoolState::Closed) {
            $this->drop($connection);
            throw new PoolClosed('The connection pool was closed while a connection was being opened');
        }

        return $this->lend($connection);
    }

    private function lend(Connection $connection): PooledConnection
    {
        $lease = new PooledConnection($this, $connection);
        $this->lent[\spl_object_id($lease)] = $lease;

        return $lease;
    }

    /**
     * The growth timer: while fibers wait and the pool is below maxSize, one more connection when
     * every connection lent out has been in one call for slowCall seconds (its holders wait on
     * the server, so another connection lets a waiter run meanwhile). Connections lent to fibers
     * that compute between their queries never count as slow: more would only share the CPU.
     */
    private function grow(): void
    {
        if ($this->waiters->isEmpty() || $this->size >= $this->maxSize || $this->state === PoolState::Closed) {
            if ($this->growth !== null) {
                EventLoop::cancel($this->growth);
                $this->growth = null;
            }

            return;
        }
        if (\count($this->lent) < $this->size - \count($this->idle)) {
            return; // some are being opened or cleaned up: not all of them wait on the server
        }
        $now = \hrtime(true);
        foreach ($this->lent as $lease) {
            if ($lease->callSeconds($now) < $this->slowCall) {
                return;
            }
        }
        ++$this->size;
        if (!$this->waiters->grant(null)) {
            --$this->size;
        }
    }

    private function wait(): PooledConnection
    {
        if ($this->waitTimeout <= 0) {
            ++$this->timeouts;
            throw $this->timeout();
        }
        $since = \hrtime(true);
        try {
            $connection = $this->waiters->wait($this->waitTimeout, $this->timedOut(...), unclaimed: $this->unclaimed(...));
        } finally {
            $this->waitedNs += \hrtime(true) - $since;
        }

        return $connection !== null ? $this->lend($connection) : $this->open();
    }

    /** What was handed to a fiber that left its wait before taking it goes to the next one. */
    private function unclaimed(?Connection $connection): void
    {
        if ($connection !== null) {
            $this->checkIn($connection);
        } else {
            $this->freeSlot();
        }
    }

    private function timedOut(): PoolTimeout
    {
        ++$this->timeouts;

        return $this->timeout();
    }

    private function timeout(): PoolTimeout
    {
        return new PoolTimeout(sprintf(
            'No database connection became free within %s s: all %d connections of the pool are in use (%d more fibers waiting); raise maxSize or waitTimeout, or hold connections for shorter',
            self::seconds($this->waitTimeout),
            $this->maxSize,
            $this->waiters->count(),
        ));
    }

    private function giveBack(PooledConnection $lease, bool $discard): void
    {
        $detached = $lease->detach($this, $discard);
        if ($detached === null) {
            return;
        }
        unset($this->lent[\spl_object_id($lease)]);
        [$connection, $statements, $discard] = $detached;
        if ($discard) {
            $this->drop($connection);

            return;
        }
        $this->checkIn($connection, $statements);
    }

    /**
     * A connection back from a fiber: closed if it broke or the pool closed, cleaned up in the
     * background if it needs a ROLLBACK or statements closed, else handed to the first waiter or
     * kept idle.
     *
     * @param list<PreparedStatement> $statements
     */
    private function checkIn(Connection $connection, array $statements = []): void
    {
        if ($this->state === PoolState::Closed || $connection->isBroken()) {
            $this->drop($connection);

            return;
        }
        $inTransaction = ($connection->statusFlags() & self::SERVER_STATUS_IN_TRANS) !== 0;
        if (!$inTransaction && $statements === []) {
            $this->reuse($connection);

            return;
        }
        EventLoop::queue(function () use ($connection, $statements, $inTransaction): void {
            try {
                foreach ($statements as $statement) {
                    $connection->closeStatement($statement);
                }
                if ($inTransaction) {
                    $connection->query('ROLLBACK');
                }
            } catch (\Throwable) {
                $this->drop($connection);

                return;
            }
            if ($this->state === PoolState::Closed || $connection->isBroken()
                || ($connection->statusFlags() & self::SERVER_STATUS_IN_TRANS) !== 0) {
                $this->drop($connection);

                return;
            }
            $this->reuse($connection);
        });
    }

    /** A clean connection: to the first waiter, or idle. */
    private function reuse(Connection $connection): void
    {
        if (!$this->waiters->grant($connection)) {
            $this->idle[] = new IdleConnection($connection, self::now());
        }
    }

    /** Closes a connection the pool will not reuse and frees its slot. */
    private function drop(Connection $connection): void
    {
        self::closeQuietly($connection);
        $this->freeSlot();
    }

    /** A slot is free: it goes to the first waiter, which opens a connection in it. */
    private function freeSlot(): void
    {
        if ($this->state === PoolState::Closed || !$this->waiters->grant(null)) {
            --$this->size;
        }
    }

    private static function closeQuietly(Connection $connection): void
    {
        try {
            $connection->close();
        } catch (\Throwable) {
            // Closing is best effort: the connection is dropped either way.
        }
    }

    private static function seconds(float $seconds): string
    {
        return is_finite($seconds) ? rtrim(rtrim(sprintf('%.3f', $seconds), '0'), '.') : 'INF';
    }

    private static function now(): float
    {
        return hrtime(true) / 1e9;
    }
}
