<?php

declare(strict_types=1);

namespace Spindle\Database\Pdo;

use Spindle\Database\Mysql\ColumnDefinition;
use Spindle\Database\Mysql\MysqlException;
use Spindle\Database\Mysql\PreparedStatement;
use Spindle\Database\Mysql\Protocol\ColumnType as MysqlType;
use Spindle\Database\Mysql\Result;
use Spindle\Database\Mysql\ResultStream;

/**
 * The state and behaviour behind one Spindle\Database\Pdo\Statement: binding, emulated or
 * server-side execution, the buffered result sets and every fetch mode. It follows PHP's
 * pdo_stmt.c and pdo_mysql step by step, including the order in which errors are detected and
 * how each one is reported.
 *
 * @internal
 */
final class StatementCore
{
    private const MODE_MASK = 0xFFFF;
    private const FLAG_MASK = 0xFFFF0000;
    private const FETCH_MAX = 13;

    /** '' until the first call that resets it (errorCode() is then null) */
    public string $errorCode = '';
    public ?DriverError $driverError = null;
    /** false once the server prepared the statement (ATTR_EMULATE_PREPARES off) */
    public bool $emulated = true;
    /** the SQL last sent by an emulated execute, for debugDumpParams() */
    public ?string $sentSql = null;
    public int $defaultFetchType;

    private ?PreparedStatement $prepared = null;
    private int $parameterCount = 0;
    /** @var array<int, string>|null position => ":name", when a named query was prepared server-side */
    private ?array $positionNames = null;
    private ?ParsedSql $parsed = null;
    /** @var array<int|string, BoundParam>|null */
    private ?array $params = null;
    /** @var array<int|string, BoundParam>|null */
    private ?array $columns = null;
    /** @var array<int, mixed> server-side parameter values, by position */
    private array $nativeValues = [];

    private bool $executed = false;
    private ?Result $result = null;
    /** The answer: the result sets after the current one are read by nextRowset(). */
    private ?ResultStream $stream = null;
    /** Unbuffered (MYSQL_ATTR_USE_BUFFERED_QUERY off): rows come from the stream as fetched. */
    private bool $streamingRows = false;
    /** @var array<int, int> text protocol: FLOAT/DOUBLE columns with declared decimals, by index */
    private array $fixedDecimals = [];
    private int $nextRow = 0;
    /** @var list<int|float|string|null> */
    private array $row = [];
    private int $columnCount = 0;
    /**
     * What mysqlnd reports as the field count of a server-side statement: that of the prepare,
     * then of the last result set; an OK result (the status after CALL) leaves it as it is.
     */
    private int $fieldCount = 0;
    /** @var array<int, ColumnDefinition> columns of the current result whose values ColumnType::mysqlndValue() adjusts */
    private array $adjusted = [];
    /** @var list<ColumnDefinition> the columns $adjusted was computed for */
    private array $adjustedFor = [];
    private int $rowCount = 0;
    /** @var list<string>|null column names after ATTR_CASE; null until described */
    private ?array $names = null;
    /**
     * @var list<array{int, int}> length and decimals of each column when the names were taken:
     *                            getColumnMeta() reports them, like the names, as first described
     */
    private array $describedSizes = [];

    private int $fetchColumn = 0;
    /** @var class-string|null */
    private ?string $fetchClass = null;
    /** @var list<mixed>|null */
    private ?array $fetchCtorArgs = null;
    private bool $fetchClassReady = false;
    private ?object $fetchInto = null;
    /** @var callable|null */
    private $fetchFunction = null;
    /** @var array<string, \Closure(object, string, mixed): void> property writers by class */
    private array $writers = [];

    public function __construct(
        public readonly Handle $handle,
        public readonly string $queryString,
    ) {
        $this->defaultFetchType = $handle->defaultFetchMode;
    }

    public function __destruct()
    {
        if ($this->prepared !== null) {
            $this->handle->closeStatement($this->prepared);
        }
    }

    // ---- preparing ---------------------------------------------------------------------------

    /**
     * pdo_mysql's preparer: nothing to do when emulating; otherwise named placeholders become "?"
     * and the server prepares the text (falling back to emulation for statements the binary
     * protocol does not support, error 1295).
     */
    public function prepare(string $where): bool
    {
        if ($this->handle->emulatePrepares) {
            return true;
        }
        $parsed = $this->parsed();
        if ($parsed->style === PlaceholderStyle::Mixed) {
            // The handle takes the statement's error before it is raised (it may throw).
            $this->handle->errorCode = 'HY093';
            $this->handle->raise($this, 'HY093', 'mixed named and positional parameters', $where);

            return false;
        }
        $sql = $this->queryString;
        if ($parsed->style === PlaceholderStyle::Named) {
            [$sql, $this->positionNames] = $parsed->toPositional();
        }
        try {
            $this->prepared = $this->handle->prepare($sql);
        } catch (MysqlException $error) {
            if ($error->errorCode === 1295) {
                $this->positionNames = null;

                return true;
            }
            $this->handle->failed($error);

            return false;
        }
        $this->emulated = false;
        $this->parameterCount = \count($this->prepared->params);
        $this->fieldCount = \count($this->prepared->columns);

        return true;
    }

    // ---- binding -----------------------------------------------------------------------------

    /**
     * bindValue(), bindParam(), bindColumn() and each execute(array) value: PHP's
     * really_register_bound_param().
     */
    public function register(BoundParam $param, bool $isParam, string $where): bool
    {
        $value = &$param->value;
        $type = $param->type & self::MODE_MASK;
        if ($type === \PDO::PARAM_STR && $param->maxLength <= 0 && $value !== null) {
            $value = (string) $value;
        } elseif ($type === \PDO::PARAM_INT && \is_bool($value)) {
            $value = (int) $value;
        } elseif ($type === \PDO::PARAM_BOOL && \is_int($value)) {
            $value = (bool) $value;
        }

        if (!$isParam && $param->name !== null && $this->names !== null) {
            $index = array_search($param->name, $this->names, true);
            if ($index !== false) {
                $param->position = $index;
            } else {
                $this->handle->raise($this, 'HY000', sprintf("Did not find column name '%s' in the defined columns; it will not be bound", $param->name), $where);
            }
        }

        if ($isParam && $param->name !== null && !str_starts_with($param->name, ':')) {
            $param->name = ':' . $param->name;
        }
        if ($isParam && !$this->nameToPosition($param, $where)) {
            return false;
        }

        if ($isParam) {
            $this->params ??= [];
            $hash = &$this->params;
        } else {
            $this->columns ??= [];
            $hash = &$this->columns;
        }
        if ($param->position >= 0) {
            unset($hash[$param->position]);
        }
        $key = $param->name ?? $param->position;
        $hash[$key] = $param;

        // pdo_mysql checks server-side parameters against the prepared statement right away.
        if ($isParam && !$this->emulated && ($param->position < 0 || $param->position >= $this->parameterCount)) {
            unset($hash[$key]);
            $this->errorCode = 'HY093';
            $this->handle->report($this, $where);

            return false;
        }

        return true;
    }

    /** rewrite_name_to_position(): only for named queries the server prepared. */
    private function nameToPosition(BoundParam $param, string $where): bool
    {
        if ($this->positionNames === null) {
            return true;
        }
        if ($param->name === null) {
            if (isset($this->positionNames[$param->position])) {
                $param->name = $this->positionNames[$param->position];

                return true;
            }
            $this->handle->raise($this, 'HY093', 'parameter was not defined', $where);

            return false;
        }
        $position = array_search($param->name, $this->positionNames, true);
        if ($position === false) {
            $this->handle->raise($this, 'HY093', 'parameter was not defined', $where);

            return false;
        }
        $param->position = $position;

        return true;
    }

    // ---- executing ---------------------------------------------------------------------------

    /** @param array<mixed>|null $input */
    public function execute(?array $input): bool
    {
        $where = 'PDOStatement::execute';
        $this->errorCode = SqlState::NONE;
        if ($input !== null) {
            $this->params = null;
            foreach ($input as $key => $value) {
                $param = \is_string($key)
                    ? new BoundParam($key, -1, \PDO::PARAM_STR)
                    : new BoundParam(null, $key, \PDO::PARAM_STR);
                $param->value = $value;
                if (!$this->register($param, true, $where)) {
                    return false;
                }
            }
        }

        if ($this->emulated) {
            $this->sentSql = null;
            $sql = $this->interpolate($where);
            if ($sql === false) {
                return false;
            }
            $this->sentSql = $sql;
        } elseif (!$this->bindServerSide($where)) {
            $this->handle->report($this, $where);

            return false;
        }

        if ($this->run()) {
            $ok = true;
            if (!$this->executed) {
                if ($this->names === null) {
                    $ok = $this->describe();
                }
                $this->executed = true;
            }

            return $ok;
        }
        $this->handle->report($this, $where);

        return false;
    }

    /** For PDO::query(): run the text as it is (no parameters). */
    public function executeDirectly(): bool
    {
        $this->sentSql = $this->queryString;
        if (!$this->run()) {
            return false;
        }
        if (!$this->executed) {
            $this->executed = true;

            return $this->describe();
        }

        return true;
    }

    /**
     * pdo_parse_params() for emulated prepares: the text with each placeholder replaced by its
     * quoted value, or false after raising the error.
     */
    private function interpolate(string $where): string|false
    {
        $parsed = $this->parsed();
        if ($parsed->style === PlaceholderStyle::Mixed) {
            $this->handle->raise($this, 'HY093', 'mixed named and positional parameters', $where);

            return false;
        }
        $placeholders = $parsed->placeholders;
        $params = $this->params;
        $count = \count($placeholders);
        if ($params !== null && $count !== \count($params)) {
            // A name used more than once is fine as long as every name is bound.
            $ok = $parsed->style !== PlaceholderStyle::Positional && $count > \count($params);
            foreach ($ok ? $placeholders : [] as $placeholder) {
                if (!isset($params[$placeholder->text])) {
                    $ok = false;
                    break;
                }
            }
            if (!$ok) {
                $this->handle->raise($this, 'HY093', 'number of bound variables does not match number of tokens', $where);

                return false;
            }
        }
        if ($placeholders === [] || $params === null) {
            // Without bound values the placeholders go to the server as they are.
            return $this->queryString;
        }

        $sql = '';
        $from = 0;
        foreach ($placeholders as $position => $placeholder) {
            $param = $parsed->style === PlaceholderStyle::Positional ? ($params[$position] ?? null) : ($params[$placeholder->text] ?? null);
            if ($param === null) {
                $this->handle->raise($this, 'HY093', 'parameter was not defined', $where);

                return false;
            }
            $quoted = $this->quoteParam($param);
            $sql .= substr($this->queryString, $from, $placeholder->offset - $from) . $quoted;
            $from = $placeholder->end();
        }

        return $sql . substr($this->queryString, $from);
    }

    private function quoteParam(BoundParam $param): string
    {
        $value = $param->value;
        if ($param->type === \PDO::PARAM_LOB && self::isResource($value)) {
            return $this->handle->quote((string) stream_get_contents($this->stream($value)), $param->type);
        }

        return match ($value === null ? \PDO::PARAM_NULL : $param->type) {
            \PDO::PARAM_BOOL => $value ? '1' : '0',
            \PDO::PARAM_INT => (string) (int) $value,
            \PDO::PARAM_NULL => 'NULL',
            default => $this->handle->quote((string) $value, $param->type),
        };
    }

    /**
     * The parameter values for the server, by position (pdo_mysql's PDO_PARAM_EVT_EXEC_PRE).
     * Failing here without an SQLSTATE makes execute() return false silently, as in PHP.
     */
    private function bindServerSide(string $where): bool
    {
        $this->nativeValues = [];
        foreach ($this->params ?? [] as $param) {
            $type = $param->type & self::MODE_MASK;
            if ($type === \PDO::PARAM_NULL || $param->value === null) {
                $this->nativeValues[$param->position] = null;
                continue;
            }
            if ($type === \PDO::PARAM_STMT) {
                return false;
            }
            if ($type === \PDO::PARAM_LOB && self::isResource($param->value)) {
                $param->value = (string) stream_get_contents($this->stream($param->value));
            }
            if (!\is_string($param->value) && !\is_int($param->value) && !\is_bool($param->value) && !\is_float($param->value)) {
                return false;
            }
            $this->nativeValues[$param->position] = $param->value;
        }

        return true;
    }

    /** pdo_mysql_stmt_execute: send, then take the first result. */
    private function run(): bool
    {
        $this->freeResult();
        try {
            if ($this->prepared !== null) {
                if (\count($this->params ?? []) < $this->parameterCount) {
                    $this->errorCode = 'HY093';

                    return false;
                }
                $values = [];
                for ($position = 0; $position < $this->parameterCount; ++$position) {
                    if (!\array_key_exists($position, $this->nativeValues)) {
                        throw new MysqlException('No data supplied for parameters in prepared statement', 2031, 'HY000');
                    }
                    $values[] = $this->nativeValues[$position];
                }
                $this->stream = $this->handle->executeStream($this->prepared, $values, $this);
            } else {
                $this->stream = $this->handle->queryStream($this->sentSql ?? $this->queryString, $this);
            }
            $this->streamingRows = !$this->handle->buffered;

            return $this->takeNextResult();
        } catch (MysqlException $error) {
            [$this->errorCode, $this->driverError] = Handle::fromMysql($error);

            return false;
        }
    }

    /**
     * Moves to the first (or the next) result set of the answer. Buffered, its rows are read
     * now (mysql_store_result()) and the sets after it stay on the wire until nextRowset(), as
     * with pdo_mysql; unbuffered, rows are read as they are fetched and rowCount() is 0.
     *
     * @throws MysqlException the answer's error in place of this result
     */
    private function takeNextResult(bool $next = false): bool
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
            $this->result = new Result($set->columns, $rows);
            $this->nextRow = 0;
            $this->rowCount = \count($rows);
            $this->fieldCount = \count($set->columns);
            $this->setColumnCount($this->fieldCount);
            if ($set->columns !== $this->adjustedFor) {
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
        if (!$this->emulated) {
            $this->setColumnCount($this->fieldCount);
        }

        return true;
    }

    private function freeResult(): void
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
    private function dropStream(bool $report = false): void
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
    private function setColumnCount(int $count): void
    {
        if ($this->names !== null && $count !== $this->columnCount) {
            $this->names = null;
        }
        $this->columnCount = $count;
    }

    /** Column names for fetching: the server's, "table.column" with ATTR_FETCH_TABLE_NAMES, then ATTR_CASE. */
    private function describe(): bool
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

    // ---- result sets -------------------------------------------------------------------------

    public function nextRowset(): bool
    {
        $this->errorCode = SqlState::NONE;
        $this->names = null;
        $this->columnCount = 0;
        $this->result = null;
        $this->row = [];
        try {
            $more = $this->takeNextResult(true);
        } catch (MysqlException $error) {
            [$this->errorCode, $this->driverError] = Handle::fromMysql($error);
            $this->stream = null;
            $this->executed = false;
            $this->handle->report($this, 'PDOStatement::nextRowset');

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
        $this->errorCode = SqlState::NONE;
        try {
            $this->dropStream(true);
        } catch (MysqlException $error) {
            [$this->errorCode, $this->driverError] = Handle::fromMysql($error);
            $this->freeResult();
            $this->executed = false;
            $this->handle->report($this, 'PDOStatement::closeCursor');

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
        $this->errorCode = SqlState::NONE;
        if ($this->result === null || $column >= $this->columnCount) {
            return false;
        }
        if ($this->names === null) {
            $this->describe();
        }
        $definition = $this->result->columns[$column];
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

    public function debugDump(): void
    {
        $out = sprintf("SQL: [%d] %s\n", \strlen($this->queryString), $this->queryString);
        if ($this->sentSql !== null && $this->emulated && $this->sentSql !== $this->queryString) {
            $out .= sprintf("Sent SQL: [%d] %s\n", \strlen($this->sentSql), $this->sentSql);
        }
        $out .= sprintf("Params:  %d\n", \count($this->params ?? []));
        foreach ($this->params ?? [] as $key => $param) {
            $out .= \is_string($key)
                ? sprintf("Key: Name: [%d] %s\n", \strlen($key), $key)
                : sprintf("Key: Position #%d:\n", $key);
            $name = $param->name ?? '';
            $out .= sprintf("paramno=%d\nname=[%d] \"%s\"\nis_param=1\nparam_type=%d\n", $param->position, \strlen($name), $name, $param->type);
        }
        echo $out;
    }

    // ---- fetch modes -------------------------------------------------------------------------

    /** pdo_stmt_verify_mode() */
    public function verifyMode(int $mode, bool $fetchAll, string $where, string $argument): void
    {
        $flags = $mode & self::FLAG_MASK;
        $how = $mode & self::MODE_MASK;
        if ($how > self::FETCH_MAX) {
            throw new \ValueError($where . '(): Argument ' . $argument . ' must be a bitmask of PDO::FETCH_* constants');
        }
        if ($how === \PDO::FETCH_DEFAULT) {
            $flags = $this->defaultFetchType & self::FLAG_MASK;
            $how = $this->defaultFetchType & self::MODE_MASK;
        }
        if ($how === \PDO::FETCH_FUNC) {
            if (!$fetchAll) {
                throw new \ValueError('Can only use PDO::FETCH_FUNC in PDOStatement::fetchAll()');
            }

            return;
        }
        if ($how === \PDO::FETCH_LAZY && $fetchAll) {
            throw new \ValueError($where . '(): Argument ' . $argument . ' cannot be PDO::FETCH_LAZY in PDOStatement::fetchAll()');
        }
        if ($how !== \PDO::FETCH_CLASS) {
            if (($flags & \PDO::FETCH_SERIALIZE) === \PDO::FETCH_SERIALIZE) {
                throw new \ValueError($where . '(): Argument ' . $argument . ' must use PDO::FETCH_SERIALIZE with PDO::FETCH_CLASS');
            }
            if (($flags & \PDO::FETCH_CLASSTYPE) === \PDO::FETCH_CLASSTYPE) {
                throw new \ValueError($where . '(): Argument ' . $argument . ' must use PDO::FETCH_CLASSTYPE with PDO::FETCH_CLASS');
            }
            if ($how >= self::FETCH_MAX) {
                throw new \ValueError($where . '(): Argument ' . $argument . ' must be a bitmask of PDO::FETCH_* constants');
            }

            return;
        }
        if (($flags & \PDO::FETCH_SERIALIZE) !== 0) {
            trigger_error($where . '(): The PDO::FETCH_SERIALIZE mode is deprecated', E_USER_DEPRECATED);
        }
    }

    /**
     * setFetchMode() and the fetch mode of PDO::query() (pdo_stmt_setup_fetch_mode()).
     *
     * @param list<mixed> $args the arguments after the mode
     */
    public function setFetchMode(int $mode, array $args, int $modeArgument, string $where, string $argumentName): void
    {
        if (($this->defaultFetchType & self::MODE_MASK) === \PDO::FETCH_INTO) {
            $this->fetchInto = null;
        }
        $this->defaultFetchType = \PDO::FETCH_BOTH;
        $flags = $mode & self::FLAG_MASK;
        $this->verifyMode($mode, false, $where, '#' . $modeArgument . ' ' . $argumentName);

        $count = \count($args);
        $first = $modeArgument + 1;
        $total = $modeArgument + $count;
        switch ($mode & self::MODE_MASK) {
            case \PDO::FETCH_DEFAULT:
            case \PDO::FETCH_LAZY:
            case \PDO::FETCH_ASSOC:
            case \PDO::FETCH_NUM:
            case \PDO::FETCH_BOTH:
            case \PDO::FETCH_OBJ:
            case \PDO::FETCH_BOUND:
            case \PDO::FETCH_NAMED:
            case \PDO::FETCH_KEY_PAIR:
                if ($count !== 0) {
                    throw new \ArgumentCountError(sprintf('%s() expects exactly %d arguments for the fetch mode provided, %d given', $where, $modeArgument, $total));
                }
                break;
            case \PDO::FETCH_COLUMN:
                if ($count !== 1) {
                    throw new \ArgumentCountError(sprintf('%s() expects exactly %d arguments for the fetch mode provided, %d given', $where, $first, $total));
                }
                if (!\is_int($args[0])) {
                    throw new \TypeError(sprintf('%s(): Argument #%d must be of type int, %s given', $where, $first, get_debug_type($args[0])));
                }
                if ($args[0] < 0) {
                    throw new \ValueError(sprintf('%s(): Argument #%d must be greater than or equal to 0', $where, $first));
                }
                $this->fetchColumn = $args[0];
                break;
            case \PDO::FETCH_CLASS:
                $this->fetchCtorArgs = null;
                if (($flags & \PDO::FETCH_CLASSTYPE) === \PDO::FETCH_CLASSTYPE) {
                    if ($count !== 0) {
                        throw new \ArgumentCountError(sprintf('%s() expects exactly %d arguments for the fetch mode provided, %d given', $where, $modeArgument, $total));
                    }
                    $this->fetchClass = null;
                } else {
                    if ($count === 0) {
                        throw new \ArgumentCountError(sprintf('%s() expects at least %d arguments for the fetch mode provided, %d given', $where, $first, $total));
                    }
                    if ($count > 2) {
                        throw new \ArgumentCountError(sprintf('%s() expects at most %d arguments for the fetch mode provided, %d given', $where, $first + 1, $total));
                    }
                    if (!\is_string($args[0])) {
                        throw new \TypeError(sprintf('%s(): Argument #%d must be of type string, %s given', $where, $first, get_debug_type($args[0])));
                    }
                    $class = self::findClass($args[0]);
                    if ($class === null) {
                        throw new \TypeError(sprintf('%s(): Argument #%d must be a valid class', $where, $first));
                    }
                    $ctorArgs = null;
                    if ($count === 2) {
                        if ($args[1] !== null && !\is_array($args[1])) {
                            throw new \TypeError(sprintf('%s(): Argument #%d must be of type ?array, %s given', $where, $first + 1, get_debug_type($args[1])));
                        }
                        if ($args[1] !== null && $args[1] !== []) {
                            $ctorArgs = array_values($args[1]);
                        }
                    }
                    $this->fetchClass = $class;
                    $this->fetchCtorArgs = $ctorArgs;
                }
                $this->prepareFetchClass();
                break;
            case \PDO::FETCH_INTO:
                if ($total !== $first) {
                    throw new \ArgumentCountError(sprintf('%s() expects exactly %d arguments for the fetch mode provided, %d given', $where, $first, $total));
                }
                if (!\is_object($args[0])) {
                    throw new \TypeError(sprintf('%s(): Argument #%d must be of type object, %s given', $where, $first, get_debug_type($args[0])));
                }
                $this->fetchInto = $args[0];
                break;
            default:
                throw new \ValueError(sprintf('%s(): Argument #%d %s must be one of the PDO::FETCH_* constants', $where, $modeArgument, $argumentName));
        }
        $this->defaultFetchType = $mode;
    }

    /** do_fetch_opt_finish() */
    public function finishFetchOptions(bool $freeCtorArgs): void
    {
        $this->fetchClassReady = false;
        if ($freeCtorArgs) {
            $this->fetchCtorArgs = null;
        }
    }

    // ---- fetching ----------------------------------------------------------------------------

    public function fetch(int $mode): mixed
    {
        $this->errorCode = SqlState::NONE;
        $this->verifyMode($mode, false, 'PDOStatement::fetch', '#1 ($mode)');
        $row = null;
        $all = null;
        if (!$this->fetchRow($mode, $row, $all, 'PDOStatement::fetch')) {
            $this->handle->report($this, 'PDOStatement::fetch');

            return false;
        }

        return $row;
    }

    public function fetchColumn(int $column): mixed
    {
        $this->errorCode = SqlState::NONE;
        if (!$this->advance()) {
            $this->handle->report($this, 'PDOStatement::fetchColumn');

            return false;
        }

        return $this->value($column);
    }

    /**
     * @param class-string|null $class
     * @param array<mixed> $ctorArgs
     */
    public function fetchObject(?string $class, array $ctorArgs): object|false
    {
        $this->errorCode = SqlState::NONE;
        [$oldClass, $oldArgs] = [$this->fetchClass, $this->fetchCtorArgs];
        $this->finishFetchOptions(false);
        $this->fetchCtorArgs = $ctorArgs === [] ? null : array_values($ctorArgs);
        $this->fetchClass = $class ?? \stdClass::class;
        $row = null;
        $all = null;
        try {
            if (!$this->fetchRow(\PDO::FETCH_CLASS, $row, $all, 'PDOStatement::fetchObject')) {
                $this->handle->report($this, 'PDOStatement::fetchObject');
                $row = false;
            }
        } finally {
            $this->finishFetchOptions(true);
            [$this->fetchClass, $this->fetchCtorArgs] = [$oldClass, $oldArgs];
        }

        return \is_object($row) ? $row : false;
    }

    /**
     * @param list<mixed> $args the arguments after the mode
     *
     * @return array<mixed>
     */
    public function fetchAll(int $mode, array $args, int $argumentCount): array
    {
        $where = 'PDOStatement::fetchAll';
        if ($argumentCount > 3) {
            throw new \ArgumentCountError(sprintf('%s() expects at most 3 arguments, %d given', $where, $argumentCount));
        }
        $this->verifyMode($mode, true, $where, '#1 ($mode)');
        [$oldClass, $oldArgs] = [$this->fetchClass, $this->fetchCtorArgs];
        $this->finishFetchOptions(false);
        $second = $args[0] ?? null;
        $grouped = false;
        $failed = true;
        $all = null;
        $rows = [];

        try {
            switch ($mode & self::MODE_MASK) {
                case \PDO::FETCH_CLASS:
                    if ($second !== null) {
                        if (!\is_string($second)) {
                            throw new \TypeError(sprintf('%s(): Argument #2 must be of type string, %s given', $where, get_debug_type($second)));
                        }
                        $class = self::findClass($second) ?? throw new \Error(sprintf('Class "%s" not found', $second));
                    } else {
                        $class = \stdClass::class;
                    }
                    $ctorArgs = $args[1] ?? null;
                    if ($ctorArgs !== null && !\is_array($ctorArgs)) {
                        throw new \TypeError(sprintf('%s(): Argument #3 must be of type ?array, %s given', $where, get_debug_type($ctorArgs)));
                    }
                    $this->fetchClass = $class;
                    $this->fetchCtorArgs = $ctorArgs === null || $ctorArgs === [] ? null : array_values($ctorArgs);
                    $this->prepareFetchClass();
                    break;
                case \PDO::FETCH_FUNC:
                    if ($argumentCount !== 2) {
                        throw new \ArgumentCountError(sprintf('%s() expects exactly 2 argument for PDO::FETCH_FUNC, %d given', $where, $argumentCount));
                    }
                    if ($second === null) {
                        throw new \TypeError(sprintf('%s(): Argument #2 must be a callable, null given', $where));
                    }
                    if (!\is_callable($second)) {
                        throw new \TypeError(self::notCallable($second));
                    }
                    $this->fetchFunction = $second;
                    break;
                case \PDO::FETCH_COLUMN:
                    if ($argumentCount > 2) {
                        throw new \ArgumentCountError(sprintf('%s() expects at most 2 argument for the fetch mode provided, %d given', $where, $argumentCount));
                    }
                    if ($second !== null) {
                        if (!\is_int($second)) {
                            throw new \TypeError(sprintf('%s(): Argument #2 must be of type int, %s given', $where, get_debug_type($second)));
                        }
                        if ($second < 0) {
                            throw new \ValueError(sprintf('%s(): Argument #2 must be greater than or equal to 0', $where));
                        }
                        $this->fetchColumn = $second;
                    } else {
                        $this->fetchColumn = ($mode & \PDO::FETCH_GROUP) !== 0 ? -1 : 0;
                    }
                    break;
                default:
                    if ($argumentCount > 1) {
                        throw new \ArgumentCountError(sprintf('%s() expects exactly 1 argument for the fetch mode provided, %d given', $where, $argumentCount));
                    }
            }

            $flags = $mode & self::FLAG_MASK;
            $how = $mode;
            if (($mode & self::MODE_MASK) === \PDO::FETCH_DEFAULT) {
                $flags |= $this->defaultFetchType & self::FLAG_MASK;
                $how |= $this->defaultFetchType & self::MODE_MASK;
            }
            $this->errorCode = SqlState::NONE;
            $grouped = ($how & \PDO::FETCH_GROUP) !== 0 || $how === \PDO::FETCH_KEY_PAIR;
            $all = $grouped ? [] : null;
            $row = null;
            $failed = !$this->fetchRow($how | $flags, $row, $all, $where);
            if (!$failed) {
                if ($grouped) {
                    while ($this->fetchRow($how | $flags, $row, $all, $where)) {
                    }
                } else {
                    $none = null;
                    do {
                        $rows[] = $row;
                    } while ($this->fetchRow($how | $flags, $row, $none, $where));
                }
            }
        } finally {
            $this->finishFetchOptions(false);
            $this->fetchFunction = null;
            [$this->fetchClass, $this->fetchCtorArgs] = [$oldClass, $oldArgs];
        }

        if ($failed) {
            $this->handle->report($this, $where);
        }

        return $grouped ? ($all ?? []) : $rows;
    }

    /** @return \Generator<int, mixed> rows in the default fetch mode */
    public function iterate(): \Generator
    {
        for ($key = 0; ; ++$key) {
            $row = null;
            $all = null;
            if (!$this->fetchRow(\PDO::FETCH_DEFAULT, $row, $all, '')) {
                $this->handle->report($this, '');

                return;
            }
            yield $key => $row;
        }
    }

    /** do_fetch_common(): the next row, with bound columns updated. */
    private function advance(): bool
    {
        if ($this->streamingRows) {
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
    private function streamedRow(): ?array
    {
        if (!$this->executed || $this->result === null || $this->stream === null) {
            return null;
        }
        try {
            return $this->stream->nextRow();
        } catch (MysqlException $error) {
            [$this->errorCode, $this->driverError] = Handle::fromMysql($error);

            return null;
        }
    }

    /** fetch_value(): one column of the current row, with ORACLE_NULLS, STRINGIFY_FETCHES and a bound type. */
    private function value(int $column, ?int $type = null): mixed
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
                \PDO::PARAM_STR => \is_float($value) && $this->prepared === null && isset($this->fixedDecimals[$column])
                    ? sprintf('%.' . $this->fixedDecimals[$column] . 'F', $value)
                    : (string) $value,
                \PDO::PARAM_NULL => null,
                \PDO::PARAM_LOB => \is_string($value) ? self::memoryStream($value) : $value,
                default => $value,
            };
        }
        if ($value === null && $this->handle->oracleNulls === \PDO::NULL_TO_STRING) {
            $value = '';
        }

        return $value;
    }

    /**
     * do_fetch(): one row in the given mode into $row; with $all (fetchAll grouping and
     * KEY_PAIR) the row is filed there instead.
     *
     * @param array<mixed>|null $all
     */
    private function fetchRow(int $mode, mixed &$row, ?array &$all, string $where): bool
    {
        if (($mode & self::MODE_MASK) === \PDO::FETCH_DEFAULT && ($mode & self::FLAG_MASK) === 0) {
            $mode = $this->defaultFetchType;
        }
        $flags = $mode & self::FLAG_MASK;
        $how = $mode & self::MODE_MASK;
        if ($how === \PDO::FETCH_DEFAULT) {
            // A default fetch mode of FETCH_DEFAULT itself (setFetchMode(PDO::FETCH_DEFAULT)) fetches as FETCH_BOTH.
            $how = \PDO::FETCH_BOTH;
        }

        if ($flags === 0 && $all === null && $how <= \PDO::FETCH_OBJ && $this->plainFetch()) {
            return $this->fetchPlain($how, $row);
        }
        if (!$this->advance()) {
            return false;
        }
        if ($how === \PDO::FETCH_BOUND) {
            $row = true;

            return true;
        }
        $column = ($flags & \PDO::FETCH_GROUP) !== 0 && $this->fetchColumn === -1 ? 1 : $this->fetchColumn;
        $i = 0;
        $class = null;
        [$oldClass, $oldArgs] = [$this->fetchClass, $this->fetchCtorArgs];

        switch ($how) {
            case \PDO::FETCH_ASSOC:
            case \PDO::FETCH_BOTH:
            case \PDO::FETCH_NUM:
            case \PDO::FETCH_NAMED:
                $row = [];
                break;
            case \PDO::FETCH_KEY_PAIR:
                if ($this->columnCount !== 2) {
                    $this->handle->raise($this, 'HY000', 'PDO::FETCH_KEY_PAIR fetch mode requires the result set to contain exactly 2 columns.', $where);

                    return false;
                }
                $row = [];
                break;
            case \PDO::FETCH_COLUMN:
                if ($column < 0) {
                    throw new \ValueError('Column index must be greater than or equal to 0');
                }
                if ($column >= $this->columnCount) {
                    throw new \ValueError('Invalid column index');
                }
                if ($flags === \PDO::FETCH_GROUP && $this->fetchColumn === -1) {
                    $row = $this->value(1);
                } elseif ($flags === \PDO::FETCH_GROUP && $column !== 0) {
                    $row = $this->value(0);
                } else {
                    $row = $this->value($column);
                }
                if ($all === null) {
                    return true;
                }
                break;
            case \PDO::FETCH_LAZY:
            case \PDO::FETCH_OBJ:
                $how = \PDO::FETCH_OBJ;
                $row = new \stdClass();
                break;
            case \PDO::FETCH_CLASS:
                if (($flags & \PDO::FETCH_CLASSTYPE) !== 0) {
                    $this->finishFetchOptions(false);
                    $name = $this->value($i++);
                    if ($name !== null) {
                        $this->fetchClass = self::findClass((string) $name) ?? \stdClass::class;
                    }
                    $this->prepareFetchClass();
                }
                $class = $this->fetchClass;
                if ($class === null) {
                    $this->handle->raise($this, 'HY000', 'No fetch class specified', $where);

                    return false;
                }
                if (($flags & \PDO::FETCH_SERIALIZE) === 0) {
                    $row = self::instantiate($class);
                    if (!$this->fetchClassReady) {
                        $this->prepareFetchClass();
                    }
                    if (($flags & \PDO::FETCH_PROPS_LATE) !== 0) {
                        self::construct($row, $this->fetchCtorArgs);
                    }
                }
                break;
            case \PDO::FETCH_INTO:
                if ($this->fetchInto === null) {
                    $this->handle->raise($this, 'HY000', 'No fetch-into object specified.', $where);

                    return false;
                }
                $row = $this->fetchInto;
                if ($row::class === \stdClass::class) {
                    $how = \PDO::FETCH_OBJ;
                }
                break;
            case \PDO::FETCH_FUNC:
                if ($this->fetchFunction === null) {
                    $this->handle->raise($this, 'HY000', 'No fetch function specified', $where);

                    return false;
                }
                break;
        }

        $group = null;
        if ($all !== null && $how !== \PDO::FETCH_KEY_PAIR) {
            $group = $flags === \PDO::FETCH_GROUP && $how === \PDO::FETCH_COLUMN && $this->fetchColumn > 0
                ? $this->value($column)
                : $this->value($i);
            $group = (string) $group;
            $i = $how === \PDO::FETCH_COLUMN ? $this->columnCount : $i + 1;
        }

        $arguments = [];
        for ($index = 0; $i < $this->columnCount; ++$i, ++$index) {
            $value = $this->value($i);
            $name = $this->names[$i] ?? (string) $i;
            switch ($how) {
                case \PDO::FETCH_ASSOC:
                    $row[$name] = $value;
                    break;
                case \PDO::FETCH_KEY_PAIR:
                    $pairValue = $this->value(++$i);
                    $key = \is_int($value) ? $value : (string) $value;
                    if ($all !== null) {
                        $all[$key] = $pairValue;
                    } else {
                        $row[$key] = $pairValue;
                    }

                    return true;
                case \PDO::FETCH_BOTH:
                    $row[$name] = $value;
                    if (!\array_key_exists($i, $row)) {
                        $row[$i] = $value;
                    }
                    break;
                case \PDO::FETCH_NAMED:
                    if (\array_key_exists($name, $row)) {
                        if (!\is_array($row[$name])) {
                            $row[$name] = [$row[$name]];
                        }
                        $row[$name][] = $value;
                    } else {
                        $row[$name] = $value;
                    }
                    break;
                case \PDO::FETCH_NUM:
                    $row[] = $value;
                    break;
                case \PDO::FETCH_OBJ:
                case \PDO::FETCH_INTO:
                    $row->{$name} = $value;
                    break;
                case \PDO::FETCH_CLASS:
                    \assert($class !== null);
                    if (($flags & \PDO::FETCH_SERIALIZE) === 0 || $index > 0) {
                        \assert(\is_object($row));
                        $this->writer($class)($row, $name, $value);
                    } else {
                        $row = $this->unserialize($class, $value, $where);
                        if ($row === null) {
                            return false;
                        }
                    }
                    break;
                case \PDO::FETCH_FUNC:
                    $arguments[] = $value;
                    break;
            }
        }

        if ($how === \PDO::FETCH_CLASS) {
            \assert(\is_object($row));
            if (($flags & (\PDO::FETCH_PROPS_LATE | \PDO::FETCH_SERIALIZE)) === 0) {
                self::construct($row, $this->fetchCtorArgs);
            }
            if (($flags & \PDO::FETCH_CLASSTYPE) !== 0) {
                $this->finishFetchOptions(false);
                [$this->fetchClass, $this->fetchCtorArgs] = [$oldClass, $oldArgs];
            }
        } elseif ($how === \PDO::FETCH_FUNC) {
            \assert(\is_callable($this->fetchFunction));
            $row = ($this->fetchFunction)(...$arguments);
        }

        if ($all !== null) {
            \assert($group !== null);
            if (($flags & \PDO::FETCH_UNIQUE) === \PDO::FETCH_UNIQUE) {
                $all[$group] = $row;
            } else {
                $all[$group][] = $row;
            }
        }

        return true;
    }

    /**
     * Whether the next row can be fetched without do_fetch()'s per-value work: no bound
     * columns, no value that needs adjusting, no ATTR_ORACLE_NULLS or ATTR_STRINGIFY_FETCHES,
     * and the column names known.
     */
    private function plainFetch(): bool
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
    private function fetchPlain(int $how, mixed &$row): bool
    {
        if ($this->streamingRows) {
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
            case \PDO::FETCH_LAZY:
                $row = new \stdClass();
                foreach ($values as $i => $value) {
                    $row->{$names[$i]} = $value;
                }

                return true;
        }

        throw new \LogicException(sprintf('fetch mode %d is not a plain one', $how));
    }

    /** do_fetch_class_prepare(): a class without constructor cannot take constructor arguments. */
    private function prepareFetchClass(): void
    {
        $this->fetchClass ??= \stdClass::class;
        $this->fetchClassReady = true;
        if ($this->fetchCtorArgs !== null && (new \ReflectionClass($this->fetchClass))->getConstructor() === null) {
            throw new \Error('User-supplied statement does not accept constructor arguments');
        }
    }

    /** @param class-string $class */
    private static function instantiate(string $class): object
    {
        return (new \ReflectionClass($class))->newInstanceWithoutConstructor();
    }

    /**
     * Runs the constructor with the statement's own argument array, element by element by
     * reference like PHP's FETCH_CLASS: a constructor taking `&$arg` gets the stored value and
     * what it writes there is what the next row's constructor sees.
     *
     * @param list<mixed>|null $args
     */
    private static function construct(object $object, ?array &$args): void
    {
        $constructor = (new \ReflectionObject($object))->getConstructor();
        if ($constructor === null) {
            return;
        }
        $references = [];
        if ($args !== null) {
            foreach ($args as $i => &$value) {
                $references[$i] = &$value;
            }
            unset($value);
        }
        $constructor->invokeArgs($object, $references);
    }

    /**
     * Sets properties the way PHP's FETCH_CLASS does: from the scope of the fetch class, so its
     * private and protected properties are filled too.
     *
     * @param class-string $class
     *
     * @return \Closure(object, string, mixed): void
     */
    private function writer(string $class): \Closure
    {
        if (isset($this->writers[$class])) {
            return $this->writers[$class];
        }
        $write = static function (object $object, string $name, mixed $value): void {
            $object->{$name} = $value;
        };
        if (!(new \ReflectionClass($class))->isInternal()) {
            $write = \Closure::bind($write, null, $class) ?? $write;
        }

        return $this->writers[$class] = $write;
    }

    /** FETCH_SERIALIZE: the first column is the serialized object (Serializable::unserialize()). */
    private function unserialize(string $class, mixed $data, string $where): ?object
    {
        if (!is_subclass_of($class, \Serializable::class)) {
            $this->handle->raise($this, 'HY000', 'cannot unserialize class', $where);

            return null;
        }
        $object = (new \ReflectionClass($class))->newInstanceWithoutConstructor();
        \assert($object instanceof \Serializable);
        $object->unserialize(\is_string($data) ? $data : '');

        return $object;
    }

    /** @return class-string|null the declared name of a class, loading it if needed */
    private static function findClass(string $name): ?string
    {
        if (!class_exists($name) && !interface_exists($name)) {
            return null;
        }

        return (new \ReflectionClass($name))->getName();
    }

    private static function notCallable(mixed $callable): string
    {
        if (\is_string($callable)) {
            return str_contains($callable, '::')
                ? sprintf('PDOStatement::fetchAll(): Argument #2 must be a valid callback, class "%s" not found', strstr($callable, '::', true))
                : sprintf('PDOStatement::fetchAll(): Argument #2 must be a valid callback, function "%s" not found or invalid function name', $callable);
        }
        if (\is_array($callable)) {
            return \count($callable) === 2
                ? 'PDOStatement::fetchAll(): Argument #2 must be a valid callback, first array member is not a valid class name or object'
                : 'PDOStatement::fetchAll(): Argument #2 must be a valid callback, array callback must have exactly two members';
        }

        return 'PDOStatement::fetchAll(): Argument #2 must be a valid callback, no array or string given';
    }

    /**
     * The stream of a PARAM_LOB value. For a closed resource or one that is no stream, PHP throws
     * a TypeError and records HY105 on the statement; in ERRMODE_EXCEPTION the PDOException of
     * HY105 follows, with the TypeError as its previous exception.
     *
     * @return resource
     */
    private function stream(mixed $value)
    {
        if (\is_resource($value) && \in_array(get_resource_type($value), ['stream', 'persistent stream'], true)) {
            return $value;
        }
        $error = new \TypeError('PDOStatement::execute(): supplied resource is not a valid stream resource');
        $this->errorCode = 'HY105';
        if ($this->handle->errorMode === ErrorMode::Exception) {
            throw Errors::exception('SQLSTATE[HY105]: ' . SqlState::describe('HY105') . ': Expected a stream resource', 'HY105', ['HY105', 0], $error);
        }

        throw $error;
    }

    /** Open or closed: PHP sees a closed resource as a resource too. */
    private static function isResource(mixed $value): bool
    {
        return \is_resource($value) || gettype($value) === 'resource (closed)';
    }

    /** @return resource */
    private static function memoryStream(string $contents)
    {
        $stream = fopen('php://memory', 'r+');
        \assert(\is_resource($stream));
        fwrite($stream, $contents);
        rewind($stream);

        return $stream;
    }

    // ---- attributes and errors ---------------------------------------------------------------

    public function getAttribute(int $attribute): mixed
    {
        if ($attribute === \PDO::ATTR_EMULATE_PREPARES) {
            return $this->emulated;
        }
        $this->handle->raise($this, 'IM001', "This driver doesn't support getting attributes", 'PDOStatement::getAttribute');

        return false;
    }

    public function setAttribute(): bool
    {
        $this->handle->raise($this, 'IM001', "This driver doesn't support setting attributes", 'PDOStatement::setAttribute');

        return false;
    }

    private function parsed(): ParsedSql
    {
        return $this->parsed ??= $this->handle->parse($this->queryString);
    }
}
