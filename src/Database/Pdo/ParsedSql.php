<?php

declare(strict_types=1);

namespace Spindle\Database\Pdo;

/** The placeholders found in an SQL text, in order. */
final class ParsedSql
{
    /**
     * @param list<Placeholder> $placeholders
     * @param list<int>         $escapedQuestionMarks offsets of each "??" (PostgreSQL dialect only)
     */
    public function __construct(
        public readonly string $sql,
        public readonly array $placeholders,
        public readonly PlaceholderStyle $style,
        public readonly array $escapedQuestionMarks = [],
    ) {
    }

    /**
     * The text with every ":name" replaced by "?" (for server-side prepares of a named query), and
     * the name at each position.
     *
     * @return array{string, array<int, string>}
     */
    public function toPositional(): array
    {
        $sql = '';
        $names = [];
        $from = 0;
        foreach ($this->placeholders as $position => $placeholder) {
            $sql .= substr($this->sql, $from, $placeholder->offset - $from) . '?';
            $names[$position] = $placeholder->text;
            $from = $placeholder->end();
        }

        return [$sql . substr($this->sql, $from), $names];
    }
}
