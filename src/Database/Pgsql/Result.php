<?php

declare(strict_types=1);

namespace Spindle\Database\Pgsql;

use Spindle\Database\Pgsql\Protocol\Field;

/**
 * The outcome of one statement: its columns (none for a statement that returns no rows), its
 * rows as the server sent them (text or binary per column, null for SQL NULL) and its command
 * tag ("INSERT 0 1", "SELECT 3"). values() and rows() decode them to PHP values.
 *
 * A command run with $phpTypes (Connection::query(), exchange()) has its text int and bool
 * columns as PHP int and bool already (pdo_pgsql's types, converted while the rows are read);
 * values() is for the other results.
 */
final class Result
{
    /**
     * @param list<Field>              $fields
     * @param list<list<string|int|bool|null>> $rows
     */
    public function __construct(
        public readonly array $fields,
        public readonly array $rows,
        public readonly string $tag,
    ) {
    }

    /** The rows counted in the command tag (inserted, updated, deleted, selected, copied), 0 for other commands. */
    public function affectedRows(): int
    {
        $space = strrpos($this->tag, ' ');
        if ($space === false) {
            return 0;
        }
        $last = substr($this->tag, $space + 1);

        return ctype_digit($last) ? (int) $last : 0;
    }

    public function command(): string
    {
        $space = strpos($this->tag, ' ');

        return $space === false ? $this->tag : substr($this->tag, 0, $space);
    }

    /**
     * The rows decoded (TypeDecoder): int, float, bool, string, null.
     *
     * @return list<list<mixed>>
     */
    public function values(): array
    {
        $decoded = [];
        foreach ($this->rows as $row) {
            $values = [];
            foreach ($row as $index => $value) {
                $field = $this->fields[$index];
                $values[] = $value === null || !\is_string($value) ? $value : TypeDecoder::decode($field->typeOid, $field->format, $value);
            }
            $decoded[] = $values;
        }

        return $decoded;
    }

    /**
     * The rows decoded, keyed by column name (a later column of the same name wins).
     *
     * @return list<array<string, mixed>>
     */
    public function assoc(): array
    {
        $names = array_map(static fn (Field $field): string => $field->name, $this->fields);

        return array_map(static fn (array $row): array => array_combine($names, $row), $this->values());
    }
}
