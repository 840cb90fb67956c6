<?php

declare(strict_types=1);

namespace Spindle\Database\Pgsql\Protocol;

final class CommandComplete
{
    /** @param string $tag e.g. "INSERT 0 3", "SELECT 10", "CREATE TABLE" */
    public function __construct(public readonly string $tag)
    {
    }

    /** The row count at the end of the tag (INSERT, UPDATE, DELETE, SELECT, MOVE, FETCH, COPY, MERGE), else 0. */
    public function rows(): int
    {
        $space = strrpos($this->tag, ' ');
        if ($space === false) {
            return 0;
        }
        $last = substr($this->tag, $space + 1);

        return ctype_digit($last) ? (int) $last : 0;
    }

    /** The command word: "INSERT", "SELECT", "CREATE TABLE" → "CREATE". */
    public function command(): string
    {
        $space = strpos($this->tag, ' ');

        return $space === false ? $this->tag : substr($this->tag, 0, $space);
    }
}
