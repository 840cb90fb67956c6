<?php

declare(strict_types=1);

namespace Spindle\Database\Pool;

use Spindle\Database\Mysql\Connection;

/**
 * What a new session of one pool looks like, learned from the first one it opens: the server's
 * version and the status flags a session starts with (autocommit, NO_BACKSLASH_ESCAPES from the
 * sql_mode its setup chose). A RequestConnection answers with them while its task holds no
 * session.
 */
final class SessionBaseline
{
    public string $serverVersion = '';
    public int $statusFlags = 0;
    private bool $known = false;

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
        $this->known = true;
    }
}
