<?php

declare(strict_types=1);

namespace Spindle\Database\Pool;

use Spindle\Database\Mysql\Connection;
use Spindle\Database\Mysql\PreparedStatement;
use Spindle\Database\Mysql\Result;
use Spindle\Database\Mysql\ResultStream;
use Spindle\Database\Mysql\SocketConnection;
use Spindle\Database\Mysql\StreamingConnection;
use Spindle\Database\Pdo\PgsqlSession;

/**
 * A connection lent by a ConnectionPool to one fiber. It is a Connection itself, so it can be
 * used directly or wrapped: `Spindle\Database\Pdo::fromConnection($lease)` gives a Pdo that
 * returns the connection to the pool when the Pdo and its statements are gone.
 *
 * release() (and close(), which means the same for a lease) gives the connection back; after
 * that every call throws ConnectionReleased, so a stale lease can never reach a connection that
 * now serves another fiber. Server-side statements prepared through the lease and not closed are
 * closed when it goes back. Other session state (user variables, SET SESSION, temporary tables)
 * stays with the connection for its next holder, unless resetSession() cleared it.
 *
 * Over a connection that streams (SocketConnection), the lease streams too; over one that does
 * not, a streamed command's answer is read whole first.
 */
final class PooledConnection implements StreamingConnection
{
    private LeaseState $state = LeaseState::Held;
    /** Calls through this lease that are still running (another fiber may be inside one). */
    private int $calls = 0;
    /** hrtime (ns) when the call under way began; 0 between calls. */
    private int $callSince = 0;
    /** Whether the pending release discards the connection. */
    private bool $discardOnRelease = false;
    /** @var array<int, PreparedStatement> statements prepared through this lease, by object id */
    private array $statements = [];

    /** @internal Made by ConnectionPool. */
    public function __construct(
        private readonly ConnectionPool $pool,
        private readonly Connection $connection,
    ) {
    }

    /** Gives the connection back to its pool (idempotent). */
    public function release(): void
    {
        $this->pool->release($this);
    }

    /**
     * Gives the connection back to be closed instead of reused (idempotent): for a connection
     * whose session state is no longer trusted.
     */
    public function discard(): void
    {
        $this->pool->discard($this);
    }

    /**
     * How long the call under way has been waiting on the connection (seconds); 0 between calls
     * (while its holder computes). The pool grows past its core size only while every session
     * lent out waits long on the server.
     */
    public function callSeconds(int $now): float
    {
        return $this->callSince === 0 ? 0.0 : ($now - $this->callSince) / 1e9;
    }

    /** Whether the lease was released (or discarded). */
    public function isReleased(): bool
    {
        return $this->state !== LeaseState::Held;
    }

    public function query(string $sql): array
    {
        $this->enter();
        try {
            return $this->connection->query($sql);
        } finally {
            $this->leave();
        }
    }

    public function prepare(string $sql): PreparedStatement
    {
        $this->enter();
        try {
            $statement = $this->connection->prepare($sql);
            $this->statements[spl_object_id($statement)] = $statement;

            return $statement;
        } finally {
            $this->leave();
        }
    }

    /**
     * $statement (prepared through another lease) prepared again on this one: the same text, and
     * for a PostgreSQL session the same numbered placeholders.
     */
    public function prepareAgain(PreparedStatement $statement): PreparedStatement
    {
        $connection = $this->connection;
        if (!$connection instanceof PgsqlSession) {
            return $this->prepare($statement->sql);
        }

        return $this->prepareWith(static fn (): PreparedStatement => $connection->prepareNumbered($statement->sql, \count($statement->params)));
    }

    /**
     * A statement $prepare makes on this lease's connection (a PostgreSQL session's
     * prepareNumbered()), closed with the others when the lease ends.
     *
     * @param \Closure(Connection): PreparedStatement $prepare
     */
    public function prepareWith(\Closure $prepare): PreparedStatement
    {
        $this->enter();
        try {
            $statement = $prepare($this->connection);
            $this->statements[spl_object_id($statement)] = $statement;

            return $statement;
        } finally {
            $this->leave();
        }
    }

    /**
     * Runs $operation on the lent connection itself (a PostgreSQL session's COPY, NOTIFY and
     * large objects), as a call of this lease.
     *
     * @template T
     *
     * @param \Closure(Connection): T $operation
     *
     * @return T
     */
    public function run(\Closure $operation): mixed
    {
        $this->enter();
        try {
            return $operation($this->connection);
        } finally {
            $this->leave();
        }
    }

    /**
     * @param list<mixed> $params
     *
     * @return non-empty-list<Result>
     */
    public function execute(PreparedStatement $statement, array $params): array
    {
        $this->enter();
        try {
            return $this->connection->execute($statement, $params);
        } finally {
            $this->leave();
        }
    }

    /**
     * @param list<mixed> $params
     */
    public function executeStream(PreparedStatement $statement, array $params): ResultStream
    {
        $this->enter();
        try {
            return $this->connection instanceof StreamingConnection
                ? $this->connection->executeStream($statement, $params)
                : ResultStream::ofResults($this->connection->execute($statement, $params));
        } finally {
            $this->leave();
        }
    }

    public function queryStream(string $sql): ResultStream
    {
        $this->enter();
        try {
            return $this->connection instanceof StreamingConnection
                ? $this->connection->queryStream($sql)
                : ResultStream::ofResults($this->connection->query($sql));
        } finally {
            $this->leave();
        }
    }

    /**
     * Makes the session as a new one (SocketConnection::resetSession() and
     * PgsqlSession::resetSession(): no transaction, variables, temporary tables, locks or
     * prepared statements), for the lease's next holder. A connection that cannot reset (neither
     * of those) is discarded instead, when the lease ends.
     *
     * With $ifChanged, a MySQL session that tracks its changes (SocketConnection::
     * trackSessionChanges()) and is known unchanged is left as it is, its prepared statements
     * with it.
     *
     * @throws \Spindle\Database\Mysql\MysqlException the connection then broke
     */
    public function resetSession(bool $ifChanged = false): void
    {
        $this->enter();
        try {
            if (!$this->connection instanceof SocketConnection && !$this->connection instanceof PgsqlSession) {
                $this->discardOnRelease = true;

                return;
            }
            if ($ifChanged && $this->connection instanceof SocketConnection) {
                if (!$this->connection->resetSessionIfChanged()) {
                    // Kept: the statements left open are closed when the lease ends (a kept
                    // statement then stays prepared in the connection's cache).
                    return;
                }
            } else {
                $this->connection->resetSession();
            }
            // The server dropped them: nothing to close when the lease ends.
            $this->statements = [];
        } finally {
            $this->leave();
        }
    }

    /** Closes a statement; after the lease ended it does nothing (the pool closed it then). */
    public function closeStatement(PreparedStatement $statement): void
    {
        if ($this->state !== LeaseState::Held) {
            return;
        }
        unset($this->statements[spl_object_id($statement)]);
        $this->enter();
        try {
            $this->connection->closeStatement($statement);
        } finally {
            $this->leave();
        }
    }

    public function ping(): void
    {
        $this->enter();
        try {
            $this->connection->ping();
        } finally {
            $this->leave();
        }
    }

    public function serverVersion(): string
    {
        $this->held();

        return $this->connection->serverVersion();
    }

    public function connectionId(): int
    {
        $this->held();

        return $this->connection->connectionId();
    }

    public function statusFlags(): int
    {
        $this->held();

        return $this->connection->statusFlags();
    }

    /** True once the connection broke, and once the lease ended (it must not be used then either). */
    public function isBroken(): bool
    {
        return $this->state !== LeaseState::Held || $this->connection->isBroken();
    }

    /** Ends the lease: the connection goes back to the pool, as release() does. */
    public function close(): void
    {
        $this->pool->release($this);
    }

    /**
     * @internal ConnectionPool's side of release(): ends the lease. Returns the connection and the
     * statements to close, or null if the lease had already ended. A release asked for while a
     * call through the lease runs is carried out when that call returns.
     *
     * @return array{Connection, list<PreparedStatement>, bool}|null connection, open statements, discard
     */
    public function detach(ConnectionPool $pool, bool $discard): ?array
    {
        if ($pool !== $this->pool) {
            throw new \InvalidArgumentException('This pooled connection belongs to another pool');
        }
        if ($this->state === LeaseState::Released) {
            return null;
        }
        $this->discardOnRelease = $this->discardOnRelease || $discard;
        if ($this->calls > 0) {
            $this->state = LeaseState::Releasing;

            return null;
        }
        $this->state = LeaseState::Released;
        $statements = array_values($this->statements);
        $this->statements = [];

        return [$this->connection, $statements, $this->discardOnRelease];
    }

    private function held(): void
    {
        if ($this->state !== LeaseState::Held) {
            throw new ConnectionReleased('This pooled connection was released to its pool and may now serve another fiber; acquire a new one');
        }
    }

    private function enter(): void
    {
        $this->held();
        if (++$this->calls === 1) {
            $this->callSince = \hrtime(true);
        }
    }

    private function leave(): void
    {
        if (--$this->calls === 0) {
            $this->callSince = 0;
        }
        if ($this->calls === 0 && $this->state === LeaseState::Releasing) {
            // The release asked for during the call (its discard choice was recorded then).
            $this->pool->release($this);
        }
    }
}
