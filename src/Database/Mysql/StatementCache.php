<?php

declare(strict_types=1);

namespace Spindle\Database\Mysql;

/**
 * The server-side prepared statements one connection keeps after their users closed them, by SQL
 * text, so that a statement prepared again (Eloquent prepares each query it runs) is one
 * COM_STMT_EXECUTE instead of PREPARE, EXECUTE and CLOSE. MySQL and MariaDB prepare a kept
 * statement again by themselves when a table it reads changes, so a kept statement never goes
 * stale.
 *
 * Bounded: past $capacity statements, the least recently used one that nobody holds is closed on
 * the server (a statement still held by a PDOStatement is never closed under it; while every kept
 * statement is held, the cache grows past its bound until they are let go). Several holders of
 * one statement take turns on it, which is safe: a connection runs one command at a time, and
 * every execute sends its own parameters.
 *
 * @internal SocketConnection's
 */
final class StatementCache
{
    /** @var array<string, PreparedStatement> by SQL, least recently used first */
    private array $statements = [];
    /** @var array<int, int> holders of each kept statement, by statement id */
    private array $holders = [];

    public function __construct(
        private readonly int $capacity,
        private readonly StatementCacheStats $stats,
    ) {
    }

    /** The kept statement for $sql, now held once more; null when there is none (a miss). */
    public function take(string $sql): ?PreparedStatement
    {
        $statement = $this->statements[$sql] ?? null;
        if ($statement === null) {
            ++$this->stats->misses;

            return null;
        }
        // Most recently used last: unset and append.
        unset($this->statements[$sql]);
        $this->statements[$sql] = $statement;
        ++$this->holders[$statement->id];
        ++$this->stats->hits;

        return $statement;
    }

    /**
     * Keeps a statement just prepared (held once, by its preparer). Returns the kept statements
     * to close on the server to stay within the bound.
     *
     * @return list<PreparedStatement>
     */
    public function add(PreparedStatement $statement): array
    {
        $this->statements[$statement->sql] = $statement;
        $this->holders[$statement->id] = 1;
        $evicted = [];
        if (\count($this->statements) > $this->capacity) {
            foreach ($this->statements as $sql => $kept) {
                if ($this->holders[$kept->id] > 0) {
                    continue;
                }
                unset($this->statements[$sql], $this->holders[$kept->id]);
                $evicted[] = $kept;
                ++$this->stats->evictions;
                if (\count($this->statements) <= $this->capacity) {
                    break;
                }
            }
        }

        return $evicted;
    }

    /**
     * One holder let go of $statement. True when it is a kept statement (it stays prepared);
     * false when the cache does not know it (the caller closes it on the server).
     */
    public function release(PreparedStatement $statement): bool
    {
        if (($this->statements[$statement->sql] ?? null) !== $statement) {
            return false;
        }
        if ($this->holders[$statement->id] > 0) {
            --$this->holders[$statement->id];
        }

        return true;
    }

    /**
     * Forgets every kept statement nobody holds, and returns them (to close on the server: the
     * server's statement limit was reached).
     *
     * @return list<PreparedStatement>
     */
    public function evictIdle(): array
    {
        $evicted = [];
        foreach ($this->statements as $sql => $kept) {
            if ($this->holders[$kept->id] === 0) {
                unset($this->statements[$sql], $this->holders[$kept->id]);
                $evicted[] = $kept;
                ++$this->stats->evictions;
            }
        }

        return $evicted;
    }

    /** Forgets everything (the session was reset: the server dropped its statements). */
    public function clear(): void
    {
        $this->statements = [];
        $this->holders = [];
    }

    public function count(): int
    {
        return \count($this->statements);
    }
}
