<?php

declare(strict_types=1);

namespace Spindle\Database\Pdo;

use Spindle\Database\Mysql\PreparedStatement;
use Spindle\Database\Mysql\StreamingConnection;

/**
 * What a PostgreSQL Pdo talks to: one session of its own (PgsqlSession), or the session its
 * running request holds from a worker's pool (Pool\PgsqlRequestConnection). The statement, fetch
 * and error code of Spindle\Database\Pdo runs over either; what only a PostgreSQL session has
 * (numbered statements, COPY, NOTIFY, large objects, server parameters) goes through here.
 *
 * @internal
 */
interface PgsqlLink extends StreamingConnection
{
    /** A statement whose placeholders are $1 … $count already; nothing goes to the server yet. */
    public function prepareNumbered(string $numbered, int $count): PreparedStatement;

    /** A scrollable statement's cursor name: numbered with the statements, as pdo_pgsql does. */
    public function cursorName(): string;

    /** The last error the Pdo's session reported (pdo_pgsql shows it in every errorInfo()). */
    public function lastError(): ?DriverError;

    public function setLastError(?DriverError $error): void;

    /** Whether statements are unnamed (PDO::PGSQL_ATTR_DISABLE_PREPARES). */
    public function disablesPrepares(): bool;

    public function setDisablePrepares(bool $disable): void;

    /** A server parameter (ParameterStatus) as a session of this link reported it, without a round trip. */
    public function parameter(string $name): ?string;

    /**
     * Runs $operation on the session alone (COPY, NOTIFY, large objects, what the server tells of
     * the session): a pooled link's request takes its session first if it holds none.
     *
     * @template T
     *
     * @param \Closure(PgsqlSession): T $operation
     *
     * @return T
     */
    public function withSession(\Closure $operation): mixed;

    /** The session the link holds now, if any (nothing is taken from a pool). */
    public function heldSession(): ?PgsqlSession;

    /**
     * The name of a type or table by its oid, as $lookup finds it, remembered for the link's life
     * (getColumnMeta()).
     *
     * @param \Closure(): ?string $lookup
     */
    public function catalogName(string $key, \Closure $lookup): ?string;
}
