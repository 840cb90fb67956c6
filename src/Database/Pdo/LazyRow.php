<?php

declare(strict_types=1);

namespace Spindle\Database\Pdo;

/**
 * The row PDO::FETCH_LAZY returns: a stand-in for PHP's PDORow, which PHP code can neither
 * create nor extend. Like a PDORow it is read by column name or number, as an offset or a
 * property (`$row['name']`, `$row[0]`, `$row->name`, `$row->{0}`), `queryString` gives the
 * statement's text, a column it does not have reads as null, and it cannot be written to.
 *
 * @implements \ArrayAccess<int|string, mixed>
 */
final class LazyRow implements \ArrayAccess
{
    /**
     * @param list<string> $names
     * @param list<mixed> $values
     *
     * @internal made by the statement
     */
    public function __construct(
        private readonly string $queryString,
        private readonly array $names,
        private readonly array $values,
    ) {
    }

    public function offsetExists(mixed $offset): bool
    {
        return $this->find($offset, false) !== null;
    }

    public function offsetGet(mixed $offset): mixed
    {
        return $this->find($offset, true);
    }

    public function offsetSet(mixed $offset, mixed $value): void
    {
        throw new \Error($offset === null ? 'Cannot append to PDORow offset' : 'Cannot write to PDORow offset');
    }

    public function offsetUnset(mixed $offset): void
    {
        throw new \Error('Cannot unset PDORow offset');
    }

    public function __get(string $name): mixed
    {
        return $this->find($name, true);
    }

    public function __isset(string $name): bool
    {
        return $this->find($name, false) !== null;
    }

    public function __set(string $name, mixed $value): void
    {
        throw new \Error('Cannot write to PDORow property');
    }

    public function __unset(string $name): void
    {
        throw new \Error('Cannot unset PDORow property');
    }

    /** @return array<string, mixed> what var_dump() shows of a PDORow */
    public function __debugInfo(): array
    {
        $shown = ['queryString' => $this->queryString];
        foreach ($this->names as $i => $name) {
            $shown[$name] = $this->values[$i] ?? null;
        }

        return $shown;
    }

    /** A column by number (an int or a numeric string) or name; queryString only when read. */
    private function find(mixed $offset, bool $reading): mixed
    {
        if (\is_int($offset) || (\is_string($offset) && ctype_digit($offset))) {
            return $this->values[(int) $offset] ?? null;
        }
        $name = \is_scalar($offset) ? (string) $offset : '';
        $index = array_search($name, $this->names, true);
        if ($index !== false) {
            return $this->values[$index] ?? null;
        }

        return $reading && $name === 'queryString' ? $this->queryString : null;
    }
}
