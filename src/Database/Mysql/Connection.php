<?php

declare(strict_types=1);

namespace Spindle\Database\Mysql;

/**
 * One MySQL/MariaDB connection. Inside a fiber every call suspends only that fiber while it
 * waits for the server; outside a fiber it runs the event loop until the answer is there (so it
 * simply works synchronously). One statement at a time per connection.
 */
interface Connection
{
    /**
     * COM_QUERY (text protocol). A statement that returns several result sets (CALL, multi
     * statements) gives one Result per set, in order.
     *
     * @return non-empty-list<Result>
     *
     * @throws MysqlException
     */
    public function query(string $sql): array;

    /** @throws MysqlException */
    public function prepare(string $sql): PreparedStatement;

    /**
     * COM_STMT_EXECUTE (binary protocol). Parameters: null, bool, int, float, string (sent as
     * given; binary-safe).
     *
     * @param list<mixed> $params
     *
     * @return non-empty-list<Result>
     *
     * @throws MysqlException
     */
    public function execute(PreparedStatement $statement, array $params): array;

    public function closeStatement(PreparedStatement $statement): void;

    /** @throws MysqlException */
    public function ping(): void;

    /** The server's version string, e.g. "10.11.6-MariaDB-0+deb12u1". */
    public function serverVersion(): string;

    /** Server-side connection id (for KILL). */
    public function connectionId(): int;

    /** The server status flags of the last OK/EOF (SERVER_STATUS_IN_TRANS = 1, AUTOCOMMIT = 2, …). */
    public function statusFlags(): int;

    /** Whether the connection broke (it must then never be used again). */
    public function isBroken(): bool;

    public function close(): void;
}
