<?php

declare(strict_types=1);

namespace Spindle\Database\Pdo;

use Spindle\Database\Mysql\ColumnDefinition;
use Spindle\Database\Mysql\MysqlException;
use Spindle\Database\Mysql\PreparedStatement;
use Spindle\Database\Mysql\Protocol\ColumnType as MysqlType;
use Spindle\Database\Mysql\Result;
use Spindle\Database\Mysql\ResultStream;
use Spindle\Database\Pgsql\Bytea;

/**
 * The state and behaviour behind one Spindle\Database\Pdo\Statement: preparing, binding,
 * emulated or server-side execution. It holds its parts rather than extending them: a Cursor
 * (the result sets of the last execute, the current row, the bound columns), FetchModes (how
 * rows are built from the cursor) and the StatementStatus all three report errors to. It
 * follows PHP's pdo_stmt.c and pdo_mysql step by step, including the order in which errors are
 * detected and how each one is reported.
 *
 * @internal
 *
 * Over 500 lines: prepare, bind and execute for two wire protocols (MySQL and PostgreSQL), each
 * emulated or prepared by the server; results and fetching are already its parts (Cursor,
 * FetchModes, StatementStatus).
 */
final class StatementCore
{
    /** Its error: errorCode() and errorInfo(), shared with its cursor and fetch modes. */
    public readonly StatementStatus $status;

    /** The result sets of the last execute and the current row. */
    public readonly Cursor $cursor;

    /** How rows are fetched: setFetchMode(), fetch(), fetchAll(), … */
    public readonly FetchModes $fetch;

    /** false once the server prepared the statement (ATTR_EMULATE_PREPARES off) */
    public bool $emulated = true;

    private ?PreparedStatement $prepared = null;

    /** the SQL last sent by an emulated execute, for debugDumpParams() */
    public ?string $sentSql = null;

    private int $parameterCount = 0;

    /** @var array<int, string>|null position => ":name", when a named query was prepared server-side */
    private ?array $positionNames = null;

    private ?ParsedSql $parsed = null;

    /** @var array<int|string, BoundParam>|null */
    private ?array $params = null;

    /** @var array<int, mixed> server-side parameter values, by position */
    private array $nativeValues = [];

    public function __construct(
        public readonly Handle $handle,
        public readonly string $queryString,
    ) {
        $this->status = new StatementStatus();
        $this->cursor = new Cursor($handle, $this->status);
        $this->fetch = new FetchModes($handle, $this->status, $this->cursor, $queryString);
    }

    public function __destruct()
    {
        if ($this->prepared !== null) {
            $this->handle->closeStatement($this->prepared);
        }
        $this->cursor->scroll?->close($this->handle);
    }

    /**
     * pdo_mysql's preparer: nothing to do when emulating; otherwise named placeholders become "?"
     * and the server prepares the text (falling back to emulation for statements the binary
     * protocol does not support, error 1295).
     */
    public function prepare(string $where): bool
    {
        if ($this->handle->dialect === Dialect::Pgsql) {
            return $this->preparePgsql($where);
        }
        if ($this->handle->emulatePrepares) {
            return true;
        }
        $parsed = $this->parsed();
        if ($parsed->style === PlaceholderStyle::Mixed) {
            // The handle takes the statement's error before it is raised (it may throw).
            $this->handle->errorCode = 'HY093';
            $this->handle->raise($this->status, 'HY093', 'mixed named and positional parameters', $where);

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
        $this->cursor->serverPrepared = true;
        $this->parameterCount = \count($this->prepared->params);
        $this->cursor->fieldCount = \count($this->prepared->columns);

        return true;
    }

    /**
     * pdo_pgsql's preparer: the placeholders are checked now, emulated or not; server-side, each
     * becomes $n (a name used twice keeps its number) and the statement is named, to be parsed
     * by the server at the first execute.
     */
    private function preparePgsql(string $where): bool
    {
        $parsed = $this->parsed();
        if ($parsed->style === PlaceholderStyle::Mixed) {
            $this->handle->errorCode = 'HY093';
            $this->handle->raise($this->status, 'HY093', 'mixed named and positional parameters', $where);

            return false;
        }
        if ($this->handle->emulatePrepares) {
            return true;
        }
        [$sql, $count, $this->positionNames] = $this->handle->numbered($this->queryString, $parsed);
        $this->prepared = $this->handle->prepareNumbered($sql, $count);
        $this->emulated = false;
        $this->cursor->serverPrepared = true;
        $this->parameterCount = $count;
        $this->cursor->fieldCount = 0;

        return true;
    }

    /** A parameter error pdo_pgsql reports itself: HY093, no error number, the text. */
    private function pgsqlParameterError(string $text, string $where): bool
    {
        $this->status->errorCode = 'HY093';
        $this->status->driverError = new DriverError(null, $text);
        if ($this->handle->connection instanceof PgsqlLink) {
            $this->handle->connection->setLastError($this->status->driverError);
        }
        $this->handle->report($this->status, $where);

        return false;
    }

    /**
     * bindValue(), bindParam(), bindColumn() and each execute(array) value: PHP's
     * really_register_bound_param().
     */
    public function register(BoundParam $param, bool $isParam, string $where): bool
    {
        $value = &$param->value;
        $type = $param->type & FetchModes::MODE_MASK;
        if ($type === \PDO::PARAM_STR && $param->maxLength <= 0 && $value !== null) {
            $value = (string) $value;
        } elseif ($type === \PDO::PARAM_INT && \is_bool($value)) {
            $value = (int) $value;
        } elseif ($type === \PDO::PARAM_BOOL && \is_int($value)) {
            $value = (bool) $value;
        }

        if (!$isParam && $param->name !== null && $this->cursor->names !== null) {
            $index = array_search($param->name, $this->cursor->names, true);
            if ($index !== false) {
                $param->position = $index;
            } else {
                $this->handle->raise($this->status, 'HY000', sprintf("Did not find column name '%s' in the defined columns; it will not be bound", $param->name), $where);
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
            $this->cursor->columns ??= [];
            $hash = &$this->cursor->columns;
        }
        if ($param->position >= 0) {
            unset($hash[$param->position]);
        }
        $key = $param->name ?? $param->position;
        $hash[$key] = $param;

        // pdo_mysql checks server-side parameters against the prepared statement right away;
        // pdo_pgsql too, except for a statement without placeholders: the server counts those.
        if ($isParam && !$this->emulated && ($param->position < 0 || ($param->position >= $this->parameterCount && ($this->parameterCount > 0 || $this->handle->dialect === Dialect::Mysql)))) {
            unset($hash[$key]);
            if ($this->handle->dialect === Dialect::Pgsql) {
                return $this->pgsqlParameterError($param->name ?? 'parameter was not defined', $where);
            }
            $this->status->errorCode = 'HY093';
            $this->handle->report($this->status, $where);

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
            $this->handle->raise($this->status, 'HY093', 'parameter was not defined', $where);

            return false;
        }
        $position = array_search($param->name, $this->positionNames, true);
        if ($position === false && $this->handle->dialect === Dialect::Pgsql) {
            return $this->pgsqlParameterError($param->name, $where);
        }
        if ($position === false) {
            $this->handle->raise($this->status, 'HY093', 'parameter was not defined', $where);

            return false;
        }
        $param->position = $position;

        return true;
    }

    /** @param array<mixed>|null $input */
    public function execute(?array $input): bool
    {
        $where = 'PDOStatement::execute';
        $this->status->errorCode = SqlState::NONE;
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
            $this->handle->report($this->status, $where);

            return false;
        }

        if ($this->run()) {
            $ok = true;
            if (!$this->cursor->executed) {
                if ($this->cursor->names === null) {
                    $ok = $this->cursor->describe();
                }
                $this->cursor->executed = true;
            }

            return $ok;
        }
        $this->handle->report($this->status, $where);

        return false;
    }

    /** For PDO::query(): run the text as it is (no parameters). */
    public function executeDirectly(): bool
    {
        $this->sentSql = $this->queryString;
        if (!$this->run()) {
            return false;
        }
        if (!$this->cursor->executed) {
            $this->cursor->executed = true;

            return $this->cursor->describe();
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
            $this->handle->raise($this->status, 'HY093', 'mixed named and positional parameters', $where);

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
                $this->handle->raise($this->status, 'HY093', 'number of bound variables does not match number of tokens', $where);

                return false;
            }
        }
        if ($placeholders === [] || $params === null) {
            // Without bound values the placeholders go to the server as they are ("??" as "?").
            return $this->handle->dialect === Dialect::Pgsql ? $this->textBetween($parsed, 0, \strlen($this->queryString)) : $this->queryString;
        }

        $sql = '';
        $from = 0;
        $pgsql = $this->handle->dialect === Dialect::Pgsql;
        foreach ($placeholders as $position => $placeholder) {
            $param = $parsed->style === PlaceholderStyle::Positional ? ($params[$position] ?? null) : ($params[$placeholder->text] ?? null);
            if ($param === null) {
                $this->handle->raise($this->status, 'HY093', 'parameter was not defined', $where);

                return false;
            }
            $quoted = $this->quoteParam($param);
            if ($quoted === false) {
                return false;
            }
            $sql .= ($pgsql ? $this->textBetween($parsed, $from, $placeholder->offset) : substr($this->queryString, $from, $placeholder->offset - $from)) . $quoted;
            $from = $placeholder->end();
        }

        return $sql . ($pgsql ? $this->textBetween($parsed, $from, \strlen($this->queryString)) : substr($this->queryString, $from));
    }

    /** The query text between placeholders, PostgreSQL's "??" become "?" (PDO rewrites the text). */
    private function textBetween(ParsedSql $parsed, int $from, int $to): string
    {
        return PgsqlPlaceholders::unescapeQuestionMarks(substr($this->queryString, $from, $to - $from), $parsed, $from);
    }

    private function quoteParam(BoundParam $param): string|false
    {
        $value = $param->value;
        if ($this->handle->dialect === Dialect::Pgsql) {
            return $this->quotePgsqlParam($param);
        }
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
     * pdo_pgsql's emulation: a PARAM_BOOL goes as 't' or 'f' and becomes a PARAM_STR, a
     * PARAM_LOB as a bytea literal ('\x…').
     */
    private function quotePgsqlParam(BoundParam $param): string|false
    {
        $value = $param->value;
        if ($value !== null && ($param->type & FetchModes::MODE_MASK) === \PDO::PARAM_BOOL) {
            $param->type = \PDO::PARAM_STR;

            return $value ? "'t'" : "'f'";
        }
        if ($param->type === \PDO::PARAM_LOB && $value !== null) {
            $bytes = self::isResource($value) ? (string) stream_get_contents($this->stream($value)) : (string) $value;

            return "'\\x" . bin2hex($bytes) . "'";
        }

        return match ($value === null ? \PDO::PARAM_NULL : $param->type) {
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
            $type = $param->type & FetchModes::MODE_MASK;
            if ($type === \PDO::PARAM_NULL || $param->value === null) {
                $this->nativeValues[$param->position] = null;
                continue;
            }
            if ($type === \PDO::PARAM_STMT) {
                return false;
            }
            if ($type === \PDO::PARAM_LOB && $this->handle->dialect === Dialect::Pgsql) {
                // pdo_pgsql sends large objects as binary bytea, and leaves a bound stream as it
                // is; a large object's own stream (pgsqlLOBOpen()) goes as its oid.
                $lob = \is_resource($param->value) ? (stream_get_meta_data($param->value)['wrapper_data'] ?? null) : null;
                $this->nativeValues[$param->position] = $lob instanceof PgsqlLobStream ? (string) $lob->oid : new Bytea(self::isResource($param->value) ? (string) stream_get_contents($this->stream($param->value)) : (string) $param->value);
                continue;
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
        $this->cursor->freeResult();
        try {
            if ($this->prepared !== null && $this->handle->dialect === Dialect::Pgsql) {
                // The server counts the parameters (and says so when some are missing).
                $values = [];
                for ($position = 0; \array_key_exists($position, $this->nativeValues); ++$position) {
                    $values[] = $this->nativeValues[$position];
                }
                $this->cursor->stream = $this->handle->executeStream($this->prepared, $values, $this);
            } elseif ($this->prepared !== null) {
                if (\count($this->params ?? []) < $this->parameterCount) {
                    $this->status->errorCode = 'HY093';

                    return false;
                }
                $values = [];
                for ($position = 0; $position < $this->parameterCount; ++$position) {
                    if (!\array_key_exists($position, $this->nativeValues)) {
                        throw new MysqlException('No data supplied for parameters in prepared statement', 2031, 'HY000');
                    }
                    $values[] = $this->nativeValues[$position];
                }
                $this->cursor->stream = $this->handle->executeStream($this->prepared, $values, $this);
            } elseif ($this->cursor->scroll !== null) {
                $this->cursor->stream = $this->cursor->scroll->declare($this->handle, $this->sentSql ?? $this->queryString, $this);
            } else {
                $this->cursor->stream = $this->handle->queryStream($this->sentSql ?? $this->queryString, $this);
            }
            $this->cursor->streamingRows = !$this->handle->buffered;

            return $this->cursor->takeNextResult();
        } catch (MysqlException $error) {
            [$this->status->errorCode, $this->status->driverError] = Handle::fromMysql($error);

            return false;
        }
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
        $this->status->errorCode = 'HY105';
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

    public function getAttribute(int $attribute): mixed
    {
        if ($attribute === \PDO::ATTR_EMULATE_PREPARES) {
            return $this->emulated;
        }
        $this->handle->raise($this->status, 'IM001', "This driver doesn't support getting attributes", 'PDOStatement::getAttribute');

        return false;
    }

    public function setAttribute(): bool
    {
        $this->handle->raise($this->status, 'IM001', "This driver doesn't support setting attributes", 'PDOStatement::setAttribute');

        return false;
    }

    private function parsed(): ParsedSql
    {
        return $this->parsed ??= $this->handle->parse($this->queryString);
    }
}
