<?php

declare(strict_types=1);

namespace Spindle\Database\Pdo;

use Spindle\Database\Mysql\ColumnDefinition;
use Spindle\Database\Mysql\MysqlException;
use Spindle\Database\Pgsql\TypeDecoder;
use Spindle\Database\Mysql\Protocol\ColumnType as MysqlType;
use Spindle\Database\Mysql\Result;
use Spindle\Database\Mysql\ResultStream;

/**
 * The cursor of a statement: the answer of an execute as a stream of result sets, the current
 * set (buffered rows, or rows read as they are fetched), its columns and names, the columns bound
 * to it, and one row's values as PDO hands them out (ORACLE_NULLS, STRINGIFY_FETCHES, bound
 * types). StatementCore holds one; FetchModes builds rows from it.
 *
 * @internal
 */
final class Cursor
{
    /** The server prepared the statement: results come in the binary protocol. */
    public bool $serverPrepared = false;

    /** @var array<int|string, BoundParam>|null columns bound with bindColumn(), by name or position */
    public ?array $columns = null;

    public bool $executed = false;

    /** pdo_pgsql's scrollable cursor (ATTR_CURSOR => CURSOR_SCROLL): each row is a FETCH. */
    public ?ScrollCursor $scroll = null;

    public ?Result $result = null;

    /** The answer: the result sets after the current one are read by nextRowset(). */
    public ?ResultStream $stream = null;

    /** Unbuffered (MYSQL_ATTR_USE_BUFFERED_QUERY off): rows come from the stream as fetched. */
    public bool $streamingRows = false;

    /** @var array<int, int> text protocol: FLOAT/DOUBLE columns with declared decimals, by index */
    public array $fixedDecimals = [];

    public int $nextRow = 0;

    /** @var list<int|float|string|null> */
    public array $row = [];

    public int $columnCount = 0;

    /**
     * What mysqlnd reports as the field count of a server-side statement: that of the prepare,
     * then of the last result set; an OK result (the status after CALL) leaves it as it is.
     */
    public int $fieldCount = 0;

    /** @var array<int, ColumnDefinition> columns of the current result whose values ColumnType::mysqlndValue() adjusts */
    public array $adjusted = [];

    /** @var list<ColumnDefinition> the columns $adjusted was computed for */
    public array $adjustedFor = [];

    public int $rowCount = 0;

    /** @var list<string>|null column names after ATTR_CASE; null until described */
    public ?array $names = null;

    /**
     * @var list<array{int, int}> length and decimals of each column when the names were taken:
     *                            getColumnMeta() reports them, like the names, as first described
     */
    public array $describedSizes = [];

    // Not readonly: a readonly property's first write takes the slow path, once per statement.
    public function __construct(
        private Handle $handle,
        private StatementStatus $status,
    ) {
    }

    /**
     * Moves to the first (or the next) result set of the answer. Buffered, its rows are read
     * now (mysql_store_result()) and the sets after it stay on the wire until nextRowset(), as
     * with pdo_mysql; unbuffered, rows are read as they are fetched and rowCount() is 0.
     *
     * @throws MysqlException the answer's error in place of this result
     */
    public function takeNextResult(bool $next = false): bool
    {
        $stream = $this->stream;
        if ($stream === null) {
            return false;
        }
        $set = $next ? $stream->nextSet() : $stream->current();
        if ($set === null) {
            return false;
        }
        if ($set->columns !== []) {
            $this->handle->lastInsertId = '0';
            $rows = $this->streamingRows ? [] : $stream->restOfSet();
            // A set read whole may end with a summary that holds these very rows (PgsqlSession).
            $summary = $set->summary;
            $this->result = $summary !== null && $summary->rows === $rows && $summary->columns === $set->columns ? $summary : new Result($set->columns, $rows);
            $this->nextRow = 0;
            $this->rowCount = \count($rows);
            $this->fieldCount = \count($set->columns);
            $this->setColumnCount($this->fieldCount);
            if ($set->columns !== $this->adjustedFor && $this->handle->dialect === Dialect::Mysql) {
                // A statement run again usually gets the very same column list (the connection
                // reuses it): look at its types once.
                $this->adjusted = ColumnType::adjustedColumns($set->columns);
                $this->adjustedFor = $set->columns;
                $this->fixedDecimals = [];
                foreach ($set->columns as $index => $column) {
                    if (($column->type === MysqlType::Float->value || $column->type === MysqlType::Double->value) && $column->decimals < 31) {
                        $this->fixedDecimals[$index] = $column->decimals;
                    }
                }
            }

            return true;
        }
        $result = $set->summary ?? new Result();
        $this->handle->lastInsertId = (string) $result->lastInsertId;
        $this->result = null;
        $this->rowCount = $result->affectedRows;
        $this->adjusted = [];
        $this->adjustedFor = [];
        if ($this->serverPrepared) {
            $this->setColumnCount($this->fieldCount);
        }

        return true;
    }

    public function freeResult(): void
    {
        $this->result = null;
        $this->row = [];
        $this->dropStream();
    }

    /**
     * Reads and drops what is left of a streamed answer.
     *
     * @throws MysqlException its error, when $report
     */
    public function dropStream(bool $report = false): void
    {
        $stream = $this->stream;
        $this->stream = null;
        if ($stream === null) {
            return;
        }
        try {
            $stream->drain();
        } catch (MysqlException $error) {
            if ($report) {
                throw $error;
            }
        }
    }

    /** A different column count drops the described names (php_pdo_stmt_set_column_count). */
    public function setColumnCount(int $count): void
    {
        if ($this->names !== null && $count !== $this->columnCount) {
            $this->names = null;
        }
        $this->columnCount = $count;
    }

    /** Column names for fetching: the server's, "table.column" with ATTR_FETCH_TABLE_NAMES, then ATTR_CASE. */
    public function describe(): bool
    {
        if ($this->columnCount > 0 && $this->result === null) {
            return false;
        }
        [$names, $sizes] = $this->handle->describe($this->result === null ? [] : $this->result->columns, $this->columnCount);
        $this->names = $names;
        $this->describedSizes = $sizes;
        foreach ($names as $index => $name) {
            if (isset($this->columns[$name])) {
                $this->columns[$name]->position = $index;
            }
        }

        return true;
    }

    public function nextRowset(): bool
    {
        if ($this->handle->dialect === Dialect::Pgsql) {
            $this->handle->raise($this->status, 'IM001', 'driver does not support multiple rowsets', 'PDOStatement::nextRowset');

            return false;
        }
        $this->status->errorCode = SqlState::NONE;
        $this->names = null;
        $this->columnCount = 0;
        $this->result = null;
        $this->row = [];
        try {
            $more = $this->takeNextResult(true);
        } catch (MysqlException $error) {
            [$this->status->errorCode, $this->status->driverError] = Handle::fromMysql($error);
            $this->stream = null;
            $this->executed = false;
            $this->handle->report($this->status, 'PDOStatement::nextRowset');

            return false;
        }
        if (!$more) {
            $this->stream = null;
            $this->executed = false;

            return false;
        }
        $this->describe();

        return true;
    }

    /** Frees the result; a streamed answer is read to its end, and its error reported. */
    public function closeCursor(): bool
    {
        $this->status->errorCode = SqlState::NONE;
        try {
            $this->dropStream(true);
        } catch (MysqlException $error) {
            [$this->status->errorCode, $this->status->driverError] = Handle::fromMysql($error);
            $this->freeResult();
            $this->executed = false;
            $this->handle->report($this->status, 'PDOStatement::closeCursor');

            return false;
        }
        $this->freeResult();
        $this->executed = false;

        return true;
    }

    public function rowCount(): int
    {
        return $this->rowCount;
    }

    public function columnCount(): int
    {
        return $this->columnCount;
    }

    /** @return array<string, mixed>|false */
    public function columnMeta(int $column): array|false
    {
        if ($column < 0) {
            throw new \ValueError('PDOStatement::getColumnMeta(): Argument #1 ($column) must be greater than or equal to 0');
        }
        $this->status->errorCode = SqlState::NONE;
        if ($this->result === null || $column >= $this->columnCount) {
            return false;
        }
        if ($this->names === null) {
            $this->describe();
        }
        $definition = $this->result->columns[$column];
        if ($this->handle->dialect === Dialect::Pgsql) {
            return PgsqlColumnMeta::describe($this->handle, $definition, $this->names[$column] ?? $definition->name);
        }
        $meta = [];
        $native = ColumnType::nativeName($definition->type);
        if ($native !== null) {
            $meta['native_type'] = $native;
        }
        $meta['pdo_type'] = ColumnType::pdoType($definition->type);
        $meta['flags'] = ColumnType::flagNames($definition->flags);
        $meta['table'] = $definition->table;
        $meta['name'] = $this->names[$column] ?? $definition->name;
        [$meta['len'], $meta['precision']] = $this->describedSizes[$column] ?? [$definition->length, $definition->decimals];

        return $meta;
    }

    /** do_fetch_common(): the next row, with bound columns updated. */
    public function advance(): bool
    {
        if ($this->scroll !== null) {
            $row = $this->executed ? $this->scroll->fetch($this->handle, $this->status) : null;
            if ($row === null) {
                return false;
            }
        } elseif ($this->streamingRows) {
            $row = $this->streamedRow();
            if ($row === null) {
                return false;
            }
        } elseif (!$this->executed || $this->result === null || $this->nextRow >= \count($this->result->rows)) {
            return false;
        } else {
            $row = $this->result->rows[$this->nextRow++];
        }
        foreach ($this->adjusted as $index => $column) {
            if ($row[$index] !== null) {
                $row[$index] = ColumnType::mysqlndValue($row[$index], $column);
            }
        }
        $this->row = $row;
        if ($this->names === null && !$this->describe()) {
            return false;
        }
        foreach ($this->columns ?? [] as $column) {
            if ($column->position >= 0) {
                $column->value = $this->value($column->position, $column->type);
            }
        }

        return true;
    }

    /**
     * The next row of the streamed result set, null at its end or on an error (then the
     * statement's error, reported by the fetch).
     *
     * @return list<int|float|string|null>|null
     */
    public function streamedRow(): ?array
    {
        if (!$this->executed || $this->result === null || $this->stream === null) {
            return null;
        }
        try {
            return $this->stream->nextRow();
        } catch (MysqlException $error) {
            [$this->status->errorCode, $this->status->driverError] = Handle::fromMysql($error);

            return null;
        }
    }

    /** fetch_value(): one column of the current row, with ORACLE_NULLS, STRINGIFY_FETCHES and a bound type. */
    public function value(int $column, ?int $type = null): mixed
    {
        if ($column < 0) {
            throw new \ValueError('Column index must be greater than or equal to 0');
        }
        if ($column >= $this->columnCount) {
            throw new \ValueError('Invalid column index');
        }
        $value = $this->row[$column] ?? null;
        if ($value === '' && $this->handle->oracleNulls === \PDO::NULL_EMPTY_STRING) {
            $value = null;
        }
        if ($this->handle->stringify) {
            $type = \PDO::PARAM_STR;
        }
        if ($type !== null && $value !== null) {
            $value = match ($type) {
                \PDO::PARAM_INT => (int) $value,
                \PDO::PARAM_BOOL => (bool) $value,
                // The server's text of a FLOAT(M,D) is fixed-point ("2.60"), and the text
                // protocol hands it over as it is.
                \PDO::PARAM_STR => match (true) {
                    \is_float($value) && !$this->serverPrepared && isset($this->fixedDecimals[$column]) => sprintf('%.' . $this->fixedDecimals[$column] . 'F', $value),
                    // STRINGIFY_FETCHES gives false as "0", as a driver without booleans would.
                    $value === false => $this->handle->stringify ? '0' : '',
                    \is_resource($value) => (string) stream_get_contents($value),
                    default => (string) $value,
                },
                \PDO::PARAM_NULL => null,
                \PDO::PARAM_LOB => match (true) {
                    \is_string($value) => self::memoryStream($value),
                    // pdo_pgsql: an oid column fetched as a LOB is the large object's stream.
                    \is_int($value) && $this->handle->dialect === Dialect::Pgsql && $this->result?->columns[$column]->type === TypeDecoder::OID => PgsqlLargeObjects::openForFetch($this->handle, $value) ?? $value,
                    default => $value,
                },
                default => $value,
            };
        }
        if ($value === null && $this->handle->oracleNulls === \PDO::NULL_TO_STRING) {
            $value = '';
        }

        return $value;
    }

    /**
     * Whether the next row can be fetched without do_fetch()'s per-value work: no bound
     * columns, no value that needs adjusting, no ATTR_ORACLE_NULLS or ATTR_STRINGIFY_FETCHES,
     * and the column names known.
     */
    public function plainFetch(): bool
    {
        return $this->names !== null
            && $this->adjusted === []
            && ($this->columns === null || $this->columns === [])
            && $this->handle->oracleNulls === \PDO::NULL_NATURAL
            && !$this->handle->stringify
            && \count($this->names) === $this->columnCount;
    }

    /**
     * FETCH_ASSOC, FETCH_NUM, FETCH_BOTH, FETCH_OBJ and FETCH_LAZY under plainFetch(): the
     * same arrays and objects as do_fetch() builds, made in one go.
     */
    public function fetchPlain(int $how, mixed &$row, string $queryString): bool
    {
        if ($this->scroll !== null) {
            $values = $this->executed ? $this->scroll->fetch($this->handle, $this->status) : null;
            if ($values === null) {
                return false;
            }
        } elseif ($this->streamingRows) {
            $values = $this->streamedRow();
            if ($values === null) {
                return false;
            }
        } else {
            $result = $this->result;
            if (!$this->executed || $result === null || !isset($result->rows[$this->nextRow])) {
                return false;
            }
            $values = $result->rows[$this->nextRow++];
        }
        $this->row = $values;
        /** @var list<string> $names */
        $names = $this->names;
        switch ($how) {
            case \PDO::FETCH_ASSOC:
                $row = array_combine($names, $values);

                return true;
            case \PDO::FETCH_NUM:
                $row = $values;

                return true;
            case \PDO::FETCH_BOTH:
                $row = [];
                foreach ($values as $i => $value) {
                    $row[$names[$i]] = $value;
                    if (!\array_key_exists($i, $row)) {
                        $row[$i] = $value;
                    }
                }

                return true;
            case \PDO::FETCH_OBJ:
                $row = new \stdClass();
                foreach ($values as $i => $value) {
                    $row->{$names[$i]} = $value;
                }

                return true;
            case \PDO::FETCH_LAZY:
                $row = new LazyRow($queryString, $names, $values);

                return true;
        }

        throw new \LogicException(sprintf('fetch mode %d is not a plain one', $how));
    }

    /** @return resource */
    public static function memoryStream(string $contents)
    {
        $stream = fopen('php://memory', 'r+');
        \assert(\is_resource($stream));
        fwrite($stream, $contents);
        rewind($stream);

        return $stream;
    }
}
