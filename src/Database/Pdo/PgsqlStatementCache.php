<?php

declare(strict_types=1);

namespace Spindle\Database\Pdo;

use Spindle\Database\Mysql\StatementCacheStats;
use Spindle\Database\Pgsql\Protocol\Field;

/**
 * The server-side statements a pooled PostgreSQL session keeps, by their text (placeholders
 * numbered), least recently used out first: a statement Eloquent prepares again is one Bind and
 * Execute instead of Parse, Bind, Describe and Execute (PgsqlSession::keepStatements()).
 *
 * @internal
 */
final class PgsqlStatementCache
{
    /** @var array<string, array{string, list<Field>}> server name and columns, by text, least recently used first */
    private array $kept = [];

    public function __construct(
        private readonly int $capacity,
        public readonly StatementCacheStats $stats,
    ) {
        if ($capacity < 1) {
            throw new \InvalidArgumentException(\sprintf('A statement cache needs a capacity of at least 1, %d given', $capacity));
        }
    }

    /** @return array{string, list<Field>}|null the kept statement of $sql (now the most recently used) */
    public function find(string $sql): ?array
    {
        $entry = $this->kept[$sql] ?? null;
        if ($entry !== null) {
            unset($this->kept[$sql]);
            $this->kept[$sql] = $entry;
        }

        return $entry;
    }

    /**
     * Keeps the statement just parsed as $name; returns the server name of the one that had to
     * go to stay within the capacity (the caller closes it), or null.
     *
     * @param list<Field> $fields
     */
    public function keep(string $sql, string $name, array $fields): ?string
    {
        unset($this->kept[$sql]);
        $this->kept[$sql] = [$name, $fields];
        if (\count($this->kept) <= $this->capacity) {
            return null;
        }
        $oldest = \array_key_first($this->kept);
        $evicted = $this->kept[$oldest][0];
        unset($this->kept[$oldest]);
        ++$this->stats->evictions;

        return $evicted;
    }

    public function forget(string $sql): void
    {
        unset($this->kept[$sql]);
    }

    public function clear(): void
    {
        $this->kept = [];
    }

    public function count(): int
    {
        return \count($this->kept);
    }
}
