<?php

declare(strict_types=1);

namespace Spindle\Database\Pool;

use Spindle\Database\Mysql\Connection;
use Spindle\Database\Pdo\PgsqlSession;

/**
 * What a new session of one pool looks like, learned from the first one it opens: the server's
 * version and the status flags a session starts with (autocommit, NO_BACKSLASH_ESCAPES from the
 * sql_mode its setup chose), and a PostgreSQL session's server parameters (client_encoding,
 * standard_conforming_strings: what quoting needs). A RequestConnection answers with them while its task holds no
 * session.
 */
final class SessionBaseline
{
    /**
     * How many sessions of the pool each task (its root context) holds through its
     * RequestConnections: a task that holds one and asks for a second (two Laravel connections of
     * one configuration) must not wait behind tasks that wait for the one it holds.
     *
     * @var \WeakMap<object, int>
     */
    public \WeakMap $holders;
    public string $serverVersion = '';
    public int $statusFlags = 0;
    /** @var array<string, string> a PostgreSQL session's server parameters (ParameterStatus) */
    public array $parameters = [];
    private bool $known = false;

    public function __construct()
    {
        $this->holders = new \WeakMap();
    }

    public function isKnown(): bool
    {
        return $this->known;
    }

    /** Learns from $connection, just opened and set up (once). */
    public function learn(Connection $connection): void
    {
        if ($this->known) {
            return;
        }
        $this->serverVersion = $connection->serverVersion();
        $this->statusFlags = $connection->statusFlags();
        if ($connection instanceof PgsqlSession) {
            $this->parameters = $connection->connection->parameters();
        }
        $this->known = true;
    }
}
