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
 * The fetch modes of a statement: the fetch modes and their arguments (setFetchMode(), fetch(),
 * fetchAll(), fetchObject(), fetchColumn(), iteration) and how each mode builds a row from the
 * current result set, as pdo_stmt.c's do_fetch() does.
 *
 * @internal
 *
 * Over 500 lines: one method per family of PDO fetch modes (columns, objects and classes,
 * functions, and fetchAll's grouping, unique and key-pair forms) with their flag combinations; they
 * share the rules for naming columns, and a split by mode would scatter those.
 */
final class FetchModes
{
    public const MODE_MASK = 0xFFFF;

    private const FLAG_MASK = 0xFFFF0000;

    private const FETCH_MAX = 13;

    public int $defaultFetchType;

    private int $fetchColumn = 0;

    /** @var class-string|null */
    private ?string $fetchClass = null;

    /** @var list<mixed>|null */
    private ?array $fetchCtorArgs = null;

    private bool $fetchClassReady = false;

    private ?object $fetchInto = null;

    /** @var callable|null */
    private $fetchFunction = null;

    private ?FetchedObjects $objects = null;

    // Not readonly: a readonly property's first write takes the slow path, once per statement.
    public function __construct(
        private Handle $handle,
        private StatementStatus $status,
        private Cursor $cursor,
        private string $queryString,
    ) {
        $this->defaultFetchType = $handle->defaultFetchMode;
    }

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
                    $class = FetchedObjects::findClass($args[0]);
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

    public function fetch(int $mode): mixed
    {
        $this->status->errorCode = SqlState::NONE;
        $this->verifyMode($mode, false, 'PDOStatement::fetch', '#1 ($mode)');
        $row = null;
        $all = null;
        if (!$this->fetchRow($mode, $row, $all, 'PDOStatement::fetch')) {
            $this->handle->report($this->status, 'PDOStatement::fetch');

            return false;
        }

        return $row;
    }

    public function fetchColumn(int $column): mixed
    {
        $this->status->errorCode = SqlState::NONE;
        if (!$this->cursor->advance()) {
            $this->handle->report($this->status, 'PDOStatement::fetchColumn');

            return false;
        }

        return $this->cursor->value($column);
    }

    /**
     * @param class-string|null $class
     * @param array<mixed> $ctorArgs
     */
    public function fetchObject(?string $class, array $ctorArgs): object|false
    {
        $this->status->errorCode = SqlState::NONE;
        [$oldClass, $oldArgs] = [$this->fetchClass, $this->fetchCtorArgs];
        $this->finishFetchOptions(false);
        $this->fetchCtorArgs = $ctorArgs === [] ? null : array_values($ctorArgs);
        $this->fetchClass = $class ?? \stdClass::class;
        $row = null;
        $all = null;
        try {
            if (!$this->fetchRow(\PDO::FETCH_CLASS, $row, $all, 'PDOStatement::fetchObject')) {
                $this->handle->report($this->status, 'PDOStatement::fetchObject');
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
                        $class = FetchedObjects::findClass($second) ?? throw new \Error(sprintf('Class "%s" not found', $second));
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
                        throw new \TypeError(FetchedObjects::notCallable($second));
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
            $this->status->errorCode = SqlState::NONE;
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
                    $rows[] = $row;
                    // The buffered rest in one go when no per-row work applies (FETCH_ASSOC, FETCH_NUM).
                    $rest = $flags === 0 && ($how === \PDO::FETCH_ASSOC || $how === \PDO::FETCH_NUM) ? $this->plainRest($how) : null;
                    if ($rest !== null) {
                        array_push($rows, ...$rest);
                    } else {
                        while ($this->fetchRow($how | $flags, $row, $none, $where)) {
                            $rows[] = $row;
                        }
                    }
                }
            }
        } finally {
            $this->finishFetchOptions(false);
            $this->fetchFunction = null;
            [$this->fetchClass, $this->fetchCtorArgs] = [$oldClass, $oldArgs];
        }

        if ($failed) {
            $this->handle->report($this->status, $where);
        }

        return $grouped ? ($all ?? []) : $rows;
    }

    /**
     * The rest of a buffered result as the cursor's fetchPlain() would give it row by row (FETCH_ASSOC or
     * FETCH_NUM), in one loop; null when plainFetch() does not hold or rows are not buffered
     * here (unbuffered, a scrollable cursor).
     *
     * @return list<mixed>|null
     */
    private function plainRest(int $how): ?array
    {
        $cursor = $this->cursor;
        $result = $cursor->result;
        if ($cursor->streamingRows || $cursor->scroll !== null || !$cursor->executed || $result === null || !$cursor->plainFetch()) {
            return null;
        }
        $rows = $result->rows;
        $from = $cursor->nextRow;
        $count = \count($rows);
        if ($from >= $count) {
            return [];
        }
        $cursor->nextRow = $count;
        $cursor->row = $rows[$count - 1];
        if ($how === \PDO::FETCH_NUM) {
            return $from === 0 ? $rows : \array_slice($rows, $from);
        }
        /** @var list<string> $names */
        $names = $cursor->names;
        $out = [];
        for ($i = $from; $i < $count; ++$i) {
            $out[] = array_combine($names, $rows[$i]);
        }

        return $out;
    }

    /** @return \Generator<int, mixed> rows in the default fetch mode */
    public function iterate(): \Generator
    {
        for ($key = 0; ; ++$key) {
            $row = null;
            $all = null;
            if (!$this->fetchRow(\PDO::FETCH_DEFAULT, $row, $all, '')) {
                $this->handle->report($this->status, '');

                return;
            }
            yield $key => $row;
        }
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

        if ($flags === 0 && $all === null && $how <= \PDO::FETCH_OBJ && $this->cursor->plainFetch()) {
            return $this->cursor->fetchPlain($how, $row, $this->queryString);
        }
        if (!$this->cursor->advance()) {
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
                if ($this->cursor->columnCount !== 2) {
                    $this->handle->raise($this->status, 'HY000', 'PDO::FETCH_KEY_PAIR fetch mode requires the result set to contain exactly 2 columns.', $where);

                    return false;
                }
                $row = [];
                break;
            case \PDO::FETCH_COLUMN:
                if ($column < 0) {
                    throw new \ValueError('Column index must be greater than or equal to 0');
                }
                if ($column >= $this->cursor->columnCount) {
                    throw new \ValueError('Invalid column index');
                }
                if ($flags === \PDO::FETCH_GROUP && $this->fetchColumn === -1) {
                    $row = $this->cursor->value(1);
                } elseif ($flags === \PDO::FETCH_GROUP && $column !== 0) {
                    $row = $this->cursor->value(0);
                } else {
                    $row = $this->cursor->value($column);
                }
                if ($all === null) {
                    return true;
                }
                break;
            case \PDO::FETCH_LAZY:
                $row = [];
                break;
            case \PDO::FETCH_OBJ:
                $row = new \stdClass();
                break;
            case \PDO::FETCH_CLASS:
                if (($flags & \PDO::FETCH_CLASSTYPE) !== 0) {
                    $this->finishFetchOptions(false);
                    $name = $this->cursor->value($i++);
                    if ($name !== null) {
                        $this->fetchClass = FetchedObjects::findClass((string) $name) ?? \stdClass::class;
                    }
                    $this->prepareFetchClass();
                }
                $class = $this->fetchClass;
                if ($class === null) {
                    $this->handle->raise($this->status, 'HY000', 'No fetch class specified', $where);

                    return false;
                }
                if (($flags & \PDO::FETCH_SERIALIZE) === 0) {
                    $row = FetchedObjects::instantiate($class);
                    if (!$this->fetchClassReady) {
                        $this->prepareFetchClass();
                    }
                    if (($flags & \PDO::FETCH_PROPS_LATE) !== 0) {
                        FetchedObjects::construct($row, $this->fetchCtorArgs);
                    }
                }
                break;
            case \PDO::FETCH_INTO:
                if ($this->fetchInto === null) {
                    $this->handle->raise($this->status, 'HY000', 'No fetch-into object specified.', $where);

                    return false;
                }
                $row = $this->fetchInto;
                if ($row::class === \stdClass::class) {
                    $how = \PDO::FETCH_OBJ;
                }
                break;
            case \PDO::FETCH_FUNC:
                if ($this->fetchFunction === null) {
                    $this->handle->raise($this->status, 'HY000', 'No fetch function specified', $where);

                    return false;
                }
                break;
        }

        $group = null;
        if ($all !== null && $how !== \PDO::FETCH_KEY_PAIR) {
            $group = $flags === \PDO::FETCH_GROUP && $how === \PDO::FETCH_COLUMN && $this->fetchColumn > 0
                ? $this->cursor->value($column)
                : $this->cursor->value($i);
            $group = (string) $group;
            $i = $how === \PDO::FETCH_COLUMN ? $this->cursor->columnCount : $i + 1;
        }

        $arguments = [];
        for ($index = 0; $i < $this->cursor->columnCount; ++$i, ++$index) {
            $value = $this->cursor->value($i);
            $name = $this->cursor->names[$i] ?? (string) $i;
            switch ($how) {
                case \PDO::FETCH_ASSOC:
                    $row[$name] = $value;
                    break;
                case \PDO::FETCH_KEY_PAIR:
                    $pairValue = $this->cursor->value(++$i);
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
                case \PDO::FETCH_LAZY:
                    $row[] = $value;
                    break;
                case \PDO::FETCH_OBJ:
                case \PDO::FETCH_INTO:
                    try {
                        $row->{$name} = $value;
                    } catch (\Error $error) {
                        throw Errors::atCaller($error);
                    }
                    break;
                case \PDO::FETCH_CLASS:
                    \assert($class !== null);
                    if (($flags & \PDO::FETCH_SERIALIZE) === 0 || $index > 0) {
                        \assert(\is_object($row));
                        try {
                            ($this->objects ??= new FetchedObjects())->writer($class)($row, $name, $value);
                        } catch (\Error $error) {
                            // "Cannot access protected property": the engine's error, pointing
                            // at the caller as PHP's own FETCH_CLASS error does.
                            throw Errors::atCaller($error);
                        }
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
                FetchedObjects::construct($row, $this->fetchCtorArgs);
            }
            if (($flags & \PDO::FETCH_CLASSTYPE) !== 0) {
                $this->finishFetchOptions(false);
                [$this->fetchClass, $this->fetchCtorArgs] = [$oldClass, $oldArgs];
            }
        } elseif ($how === \PDO::FETCH_FUNC) {
            \assert(\is_callable($this->fetchFunction));
            $row = ($this->fetchFunction)(...$arguments);
        } elseif ($how === \PDO::FETCH_LAZY) {
            \assert(\is_array($row));
            $row = new LazyRow($this->queryString, array_slice($this->cursor->names ?? [], 0, $this->cursor->columnCount), array_values($row));
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

    /** do_fetch_class_prepare(): a class without constructor cannot take constructor arguments. */
    private function prepareFetchClass(): void
    {
        $this->fetchClass ??= \stdClass::class;
        $this->fetchClassReady = true;
        if ($this->fetchCtorArgs !== null && (new \ReflectionClass($this->fetchClass))->getConstructor() === null) {
            throw new \Error('User-supplied statement does not accept constructor arguments');
        }
    }

    /** FETCH_SERIALIZE: the first column is the serialized object (Serializable::unserialize()). */
    private function unserialize(string $class, mixed $data, string $where): ?object
    {
        if (!is_subclass_of($class, \Serializable::class)) {
            $this->handle->raise($this->status, 'HY000', 'cannot unserialize class', $where);

            return null;
        }
        $object = (new \ReflectionClass($class))->newInstanceWithoutConstructor();
        \assert($object instanceof \Serializable);
        $object->unserialize(\is_string($data) ? $data : '');

        return $object;
    }

}
