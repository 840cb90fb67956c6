<?php

declare(strict_types=1);

namespace Spindle\Database\Pool;

use Spindle\Database\Mysql\MysqlException;
use Spindle\Database\Mysql\PreparedStatement;
use Spindle\Database\Mysql\Result;
use Spindle\Database\Mysql\ResultStream;
use Spindle\Database\Mysql\StreamingConnection;
use Spindle\Loop\Context;
use Spindle\Loop\Loop;

/**
 * The connection of a Pdo that a framework keeps across requests (a Laravel connection's), backed
 * by a pool of sessions the worker's requests share. A request (a task, with the tasks it
 * starts) takes a session from the pool when it first talks to the database and keeps it until
 * it ends; then the session is reset to a new one's state (SocketConnection::resetSession(): an
 * open transaction rolled back and logged, variables, temporary tables, locks, statements and
 * LAST_INSERT_ID gone, the framework's setup run again) and goes back to the pool. A MySQL session
 * whose changes are tracked and that the task provably left as a new one (it only read:
 * SocketConnection::resetSessionIfChanged(), SessionChanges) goes back as it is, with its
 * prepared statements. A request
 * that finds every session taken waits its turn (ConnectionPool's FIFO, PoolTimeout at the end
 * of the wait).
 *
 * Outside any task (a framework's boot), the session is given back, reset, after each command
 * that leaves no transaction open.
 *
 * A statement prepared in one request and executed in a later one (on another session, or on
 * the same one since reset) is prepared again on the session of the request that executes it.
 */
final class RequestConnection implements StreamingConnection
{
    private const SERVER_STATUS_IN_TRANS = 1;

    /** @var array<int, PooledConnection> the session of each task that holds one, by its root context's id (0: no task) */
    private array $leases = [];
    /** The last task that used this connection, and its session: the usual case, without a lookup. */
    private ?Context $owner = null;
    private ?PooledConnection $current = null;
    /** @var \WeakMap<PreparedStatement, PooledConnection> the session each statement was prepared on */
    private \WeakMap $preparedOn;
    private bool $closed = false;

    public function __construct(
        private readonly ConnectionPool $pool,
        private readonly SessionBaseline $baseline,
        /** @var \Closure(string): void where warnings go (the worker's log) */
        private readonly \Closure $warn,
    ) {
        $this->preparedOn = new \WeakMap();
    }

    public function query(string $sql): array
    {
        $lease = $this->session();
        try {
            $results = $lease->query($sql);
        } finally {
            $this->afterCommand($lease);
        }

        return $results;
    }

    public function prepare(string $sql): PreparedStatement
    {
        $lease = $this->session();
        try {
            $statement = $lease->prepare($sql);
            $this->preparedOn[$statement] = $lease;
        } finally {
            $this->afterCommand($lease);
        }

        return $statement;
    }

    /**
     * A statement $prepare makes on this task's session (a PostgreSQL session's
     * prepareNumbered()).
     *
     * @param \Closure(\Spindle\Database\Mysql\Connection): PreparedStatement $prepare
     */
    public function prepareWith(\Closure $prepare): PreparedStatement
    {
        $lease = $this->session();
        try {
            $statement = $lease->prepareWith($prepare);
            $this->preparedOn[$statement] = $lease;
        } finally {
            $this->afterCommand($lease);
        }

        return $statement;
    }

    /**
     * Runs $operation on this task's session itself (taken from the pool if the task holds
     * none; outside any task given back afterwards, unless a transaction is open).
     *
     * @template T
     *
     * @param \Closure(\Spindle\Database\Mysql\Connection): T $operation
     *
     * @return T
     */
    public function withConnection(\Closure $operation): mixed
    {
        $lease = $this->session();
        try {
            return $lease->run($operation);
        } finally {
            $this->afterCommand($lease);
        }
    }

    /** The session the running task holds, lent connection itself, or null (nothing is taken). */
    public function heldConnection(): ?\Spindle\Database\Mysql\Connection
    {
        $lease = $this->held();
        if ($lease === null || $lease->isReleased()) {
            return null;
        }

        return $lease->run(static fn (\Spindle\Database\Mysql\Connection $connection): \Spindle\Database\Mysql\Connection => $connection);
    }

    public function execute(PreparedStatement $statement, array $params): array
    {
        $lease = $this->session();
        try {
            $results = $lease->execute($this->preparedFor($lease, $statement), $params);
        } finally {
            $this->afterCommand($lease);
        }

        return $results;
    }

    public function queryStream(string $sql): ResultStream
    {
        return $this->session()->queryStream($sql);
    }

    public function executeStream(PreparedStatement $statement, array $params): ResultStream
    {
        $lease = $this->session();

        return $lease->executeStream($this->preparedFor($lease, $statement), $params);
    }

    public function closeStatement(PreparedStatement $statement): void
    {
        $lease = $this->preparedOn[$statement] ?? null;
        unset($this->preparedOn[$statement]);
        // A session given back since was reset: the server forgot the statement already.
        if ($lease !== null && !$lease->isReleased()) {
            $lease->closeStatement($statement);
        }
    }

    public function ping(): void
    {
        $lease = $this->session();
        try {
            $lease->ping();
        } finally {
            $this->afterCommand($lease);
        }
    }

    public function serverVersion(): string
    {
        $this->learnBaseline();

        return $this->baseline->serverVersion;
    }

    public function connectionId(): int
    {
        return $this->session()->connectionId();
    }

    /** The flags of this task's session; a new session's (autocommit) while it holds none. */
    public function statusFlags(): int
    {
        $lease = $this->held();

        if ($lease !== null && !$lease->isReleased()) {
            return $lease->statusFlags();
        }
        $this->learnBaseline();

        return $this->baseline->statusFlags;
    }

    /** Before the pool opened its first session, one is opened to learn what a new one looks like. */
    private function learnBaseline(): void
    {
        if (!$this->baseline->isKnown()) {
            $lease = $this->session();
            $this->afterCommand($lease);
        }
    }

    public function isBroken(): bool
    {
        if ($this->closed) {
            return true;
        }
        $lease = $this->held();

        return $lease !== null && $lease->isBroken() && !$lease->isReleased();
    }

    /**
     * The Pdo is gone: a session held outside any task is discarded; a task's session goes back
     * when the task ends, as always.
     */
    public function close(): void
    {
        $this->closed = true;
        $lease = $this->leases[0] ?? null;
        if ($lease !== null) {
            unset($this->leases[0]);
            $lease->discard();
        }
    }

    /** The session of the running task (taken from the pool now if it holds none). */
    private function session(): PooledConnection
    {
        $context = Loop::context()?->root();
        if ($context !== null && $context === $this->owner && $this->current !== null) {
            return $this->current;
        }
        if ($this->closed) {
            throw new MysqlException('MySQL server has gone away: the connection was closed', 2006);
        }
        $key = $context === null ? 0 : \spl_object_id($context);
        $lease = $this->leases[$key] ?? null;
        if ($lease === null) {
            $holders = $this->baseline->holders;
            $lease = $this->leases[$key] = $this->pool->acquire($context !== null && ($holders[$context] ?? 0) > 0);
            if ($context !== null) {
                $holders[$context] = ($holders[$context] ?? 0) + 1;
                $context->onEnd(fn () => $this->end($key, $context));
            }
        }
        $this->owner = $context;
        $this->current = $context === null ? null : $lease;

        return $lease;
    }

    /** The session the running task holds, or null. */
    private function held(): ?PooledConnection
    {
        $context = Loop::context()?->root();
        if ($context !== null && $context === $this->owner) {
            return $this->current;
        }

        return $this->leases[$context === null ? 0 : \spl_object_id($context)] ?? null;
    }

    /** $statement as prepared on $lease: prepared again if it was prepared on another session. */
    private function preparedFor(PooledConnection $lease, PreparedStatement $statement): PreparedStatement
    {
        $on = $this->preparedOn[$statement] ?? null;
        if ($on === $lease) {
            return $statement;
        }
        $again = $lease->prepareAgain($statement);
        // The stale one is forgotten; its new twin closes when the session is given back.
        unset($this->preparedOn[$statement]);
        $this->preparedOn[$again] = $lease;

        return $again;
    }

    /** Outside any task, a session without an open transaction goes back after each command. */
    private function afterCommand(PooledConnection $lease): void
    {
        if ($this->current === $lease || ($this->leases[0] ?? null) !== $lease) {
            return;
        }
        if (!$lease->isBroken() && ($lease->statusFlags() & self::SERVER_STATUS_IN_TRANS) !== 0) {
            return;
        }
        unset($this->leases[0]);
        $this->giveBack($lease, 'outside a request');
    }

    /** The task holding $key's session ended (its end hook). */
    private function end(int $key, Context $context): void
    {
        $lease = $this->leases[$key] ?? null;
        unset($this->leases[$key]);
        $holders = $this->baseline->holders;
        if (($holders[$context] ?? 0) > 1) {
            --$holders[$context];
        } else {
            unset($holders[$context]);
        }
        if ($this->current === $lease) {
            $this->current = $this->owner = null;
        }
        if ($lease !== null) {
            $this->giveBack($lease, Loop::context()->label ?? 'a task');
        }
    }

    /** Resets $lease's session and gives it back; one that cannot be reset is closed. */
    private function giveBack(PooledConnection $lease, string $holder): void
    {
        if ($lease->isReleased()) {
            return;
        }
        if ($lease->isBroken()) {
            $lease->discard();

            return;
        }
        try {
            if (($lease->statusFlags() & self::SERVER_STATUS_IN_TRANS) !== 0) {
                ($this->warn)(\sprintf('%s left a database transaction open on its pooled session: rolled back', $holder));
            }
            $lease->resetSession(ifChanged: true);
        } catch (\Throwable $e) {
            ($this->warn)(\sprintf('Resetting a pooled database session after %s failed (%s): closed', $holder, $e->getMessage()));
            $lease->discard();

            return;
        }
        $lease->release();
    }
}
