<?php

declare(strict_types=1);

namespace Spindle\Database\Pdo;

/**
 * The statement Spindle\Database\Pdo returns from prepare() and query(): a PDOStatement that
 * behaves like pdo_mysql's, built on Spindle's MySQL connection. Every public method is
 * overridden; nothing reaches the (never initialised) native statement.
 *
 * For PDO::ATTR_STATEMENT_CLASS, a class extending this one is used as it is; one extending
 * PDOStatement directly gets a generated subclass that forwards to this class (StatementClass).
 * Either way with a protected or private constructor, as PDO requires.
 *
 * Buffered, execute() reads the current result set whole; unbuffered, rows are read from the
 * connection as they are fetched. Later result sets wait on the wire for nextRowset().
 */
class Statement extends \PDOStatement
{
    /** set by Spindle\Database\Pdo before the constructor runs */
    private ?StatementCore $core = null; // @phpstan-ignore property.unusedType

    public function bindColumn(string|int $column, mixed &$var, int $type = \PDO::PARAM_STR, int $maxLength = 0, mixed $driverOptions = null): bool
    {
        $core = $this->core();
        $param = self::boundParam($column, $type, $maxLength, 'PDOStatement::bindColumn(): Argument #1 ($column)');
        $param->value = &$var;

        return $core->register($param, false, 'PDOStatement::bindColumn');
    }

    public function bindParam(string|int $param, mixed &$var, int $type = \PDO::PARAM_STR, int $maxLength = 0, mixed $driverOptions = null): bool
    {
        $core = $this->core();
        $bound = self::boundParam($param, $type, $maxLength, 'PDOStatement::bindParam(): Argument #1 ($param)');
        $bound->value = &$var;

        return $core->register($bound, true, 'PDOStatement::bindParam');
    }

    public function bindValue(string|int $param, mixed $value, int $type = \PDO::PARAM_STR): bool
    {
        $core = $this->core();
        $bound = self::boundParam($param, $type, 0, 'PDOStatement::bindValue(): Argument #1 ($param)');
        $bound->value = $value;

        return $core->register($bound, true, 'PDOStatement::bindValue');
    }

    public function closeCursor(): bool
    {
        return $this->core()->cursor->closeCursor();
    }

    public function columnCount(): int
    {
        return $this->core()->cursor->columnCount();
    }

    /** Prints the statement and its bound parameters, in PHP's format. */
    public function debugDumpParams(): ?bool
    {
        $this->core()->debugDump();

        return null;
    }

    public function errorCode(): ?string
    {
        $core = $this->core();

        return $core->status->errorCode === '' ? null : $core->status->errorCode;
    }

    /** @return array{0: string, 1: int|null, 2: string|null} */
    public function errorInfo(): array
    {
        $core = $this->core();

        return $core->handle->errorInfoFor($core->status->errorCode, $core->status->driverError);
    }

    /** @param array<mixed>|null $params */
    public function execute(?array $params = null): bool
    {
        return $this->core()->execute($params);
    }

    /**
     * The cursor orientation counts for a PostgreSQL statement prepared with ATTR_CURSOR =>
     * CURSOR_SCROLL; otherwise it is ignored (results are forward-only), as with pdo_mysql and
     * pdo_pgsql.
     */
    public function fetch(int $mode = \PDO::FETCH_DEFAULT, int $cursorOrientation = \PDO::FETCH_ORI_NEXT, int $cursorOffset = 0): mixed
    {
        $core = $this->core();
        if ($core->cursor->scroll !== null) {
            $orientation = ScrollCursor::orientation($cursorOrientation, $cursorOffset);
            if ($orientation === null) {
                return false;
            }
            $core->cursor->scroll->orientation = $orientation;
        }

        return $core->fetch->fetch($mode);
    }

    /** @return array<mixed> */
    public function fetchAll(int $mode = \PDO::FETCH_DEFAULT, mixed ...$args): array
    {
        return $this->core()->fetch->fetchAll($mode, array_values($args), \func_num_args());
    }

    public function fetchColumn(int $column = 0): mixed
    {
        return $this->core()->fetch->fetchColumn($column);
    }

    /**
     * @template T of object
     *
     * @param class-string<T>|null $class
     * @param array<mixed> $constructorArgs
     *
     * @return T|false
     */
    public function fetchObject(?string $class = \stdClass::class, array $constructorArgs = []): object|false
    {
        $core = $this->core();
        if ($class !== null && !class_exists($class)) {
            throw new \TypeError(sprintf('PDOStatement::fetchObject(): Argument #1 ($class) must be a valid class name, %s given', $class));
        }
        /** @var T|false $object */
        $object = $core->fetch->fetchObject($class, $constructorArgs);

        return $object;
    }

    /** Only PDO::ATTR_EMULATE_PREPARES is known, as with pdo_mysql. */
    public function getAttribute(int $name): mixed
    {
        return $this->core()->getAttribute($name);
    }

    /** @return array<string, mixed>|false */
    public function getColumnMeta(int $column): array|false
    {
        return $this->core()->cursor->columnMeta($column);
    }

    public function nextRowset(): bool
    {
        return $this->core()->cursor->nextRowset();
    }

    /** Affected rows after a data change; the number of rows of a result set (it is buffered). */
    public function rowCount(): int
    {
        return $this->core()->cursor->rowCount();
    }

    /** pdo_mysql has no statement attributes to set. */
    public function setAttribute(int $attribute, mixed $value): bool
    {
        return $this->core()->setAttribute();
    }

    /** @return bool (no declared type, as PDOStatement's, so that its subclasses fit) */
    public function setFetchMode(int $mode, mixed ...$args)
    {
        $core = $this->core();
        $core->fetch->finishFetchOptions(true);
        $core->fetch->setFetchMode($mode, array_values($args), 1, 'PDOStatement::setFetchMode', '($mode)');

        return true;
    }

    /** @return \Iterator<int, mixed> */
    public function getIterator(): \Iterator
    {
        return $this->core()->fetch->iterate();
    }

    /** @return array{queryString: string} */
    public function __debugInfo(): array
    {
        return ['queryString' => $this->core !== null ? $this->core->queryString : ''];
    }

    private function core(): StatementCore
    {
        return $this->core ?? throw new \Error('PDO object is uninitialized');
    }

    private static function boundParam(string|int $key, int $type, int $maxLength, string $argument): BoundParam
    {
        if (\is_string($key)) {
            if ($key === '') {
                throw new \ValueError($argument . ' cannot be empty');
            }

            return new BoundParam($key, -1, $type, $maxLength);
        }
        if ($key < 1) {
            throw new \ValueError($argument . ' must be greater than or equal to 1');
        }

        return new BoundParam(null, $key - 1, $type, $maxLength);
    }
}
