<?php

declare(strict_types=1);

namespace Spindle\Database\Pdo;

use Spindle\Database\Mysql\ColumnDefinition;
use Spindle\Database\Mysql\Connection;
use Spindle\Database\Mysql\MysqlException;
use Spindle\Database\Mysql\PreparedStatement;
use Spindle\Database\Mysql\Result;
use Spindle\Database\Mysql\ResultStream;
use Spindle\Database\Mysql\StreamingConnection;

/**
 * What a Spindle\Database\Pdo and its statements share: the one connection, the handle's
 * attributes and error state, and the rules by which errors are reported. Statements keep it
 * alive; the connection closes when the Pdo and all its statements are gone.
 *
 * One connection serves one statement at a time. A fiber that calls in while another fiber's
 * call waits for the server gets error 2014 instead of interleaving on the wire.
 *
 * Over 500 lines: the connection, its one-statement-at-a-time guard and its error state are
 * what a Pdo and its statements share, and every error they report goes through the rules here
 * (PDO's error modes, SQLSTATEs, warnings); opening a connection is MysqlConnect's and
 * PgsqlConnect's, attributes are Attributes'.
 *
 * @internal
 */
final class Handle
{
    private const PARSED_SQL_CACHE_SIZE = 256;
    /** Longer texts (bulk inserts written out) are parsed each time, not kept. */
    private const PARSED_SQL_MAX_LENGTH = 4096;

    public const IN_USE = "Commands out of sync; you can't run this command now (this connection is busy in another fiber: one Spindle\\Database\\Pdo is one connection, give each fiber its own)";

    public const IN_USE_PGSQL = 'another command is already in progress (this connection is busy in another fiber: one Spindle\\Database\\Pdo is one connection, give each fiber its own)';

    private const SERVER_STATUS_IN_TRANS = 1;
    private const SERVER_STATUS_NO_BACKSLASH_ESCAPES = 512;

    public ErrorMode $errorMode = ErrorMode::Exception;
    public int $case = \PDO::CASE_NATURAL;
    public int $oracleNulls = \PDO::NULL_NATURAL;
    public bool $stringify = false;
    public bool $emulatePrepares = true;
    public int $defaultFetchMode = \PDO::FETCH_BOTH;
    /** @var class-string<\PDOStatement> */
    public string $statementClass = Statement::class;
    /** @var array<mixed>|null */
    public ?array $statementCtorArgs = null;
    public bool $autocommit = true;
    public bool $fetchTableNames = false;
    public bool $assumeNationalStrings = false;
    public bool $buffered = true;
    /** While the constructor applies its options, warnings become PDOExceptions (as in PHP). */
    public bool $constructing = false;

    /** dbh error_code: '' until the first call that resets it */
    public string $errorCode = '';
    public ?DriverError $driverError = null;
    public ?QueryError $queryError = null;
    public string $lastInsertId = '0';
    /** @var (\Closure(Statement, StatementCore): void)|null StatementClass's setter of a statement's core, made once per connection */
    public ?\Closure $attachCore = null;

    private const UNBUFFERED_ACTIVE = 'Cannot execute queries while other unbuffered queries are active.  Consider using PDOStatement::fetchAll().  Alternatively, if your code is only ever going to run against mysql, you may enable query buffering by setting the PDO::MYSQL_ATTR_USE_BUFFERED_QUERY attribute.';
    private const PENDING_RESULT_SETS = 'Cannot execute queries while there are pending result sets. Consider unsetting the previous PDOStatement or calling PDOStatement::closeCursor()';

    private bool $busy = false;
    /** The streamed answer still on the wire, and the statement reading it. */
    private ?ResultStream $openStream = null;
    /** @var \WeakReference<StatementCore>|null */
    private ?\WeakReference $streamOwner = null;
    /** @var list<PreparedStatement> */
    private array $closeLater = [];
    /** @var array<string, ParsedSql> the placeholders of SQL texts prepared before */
    private array $parsedSql = [];
    /** @var array<string, array{string, int, array<int, string>|null}> PostgreSQL texts numbered before (numbered()) */
    private array $numberedSql = [];
    /**
     * The column names and sizes last described, with what they were described from: a
     * statement run again gets the same column list and the same naming attributes.
     *
     * @var array{list<ColumnDefinition>, int, bool, int, list<string>, list<array{int, int}>}|null
     */
    private ?array $described = null;

    public function __construct(
        public readonly Connection $connection,
        public readonly Escaper $escaper,
        /** what mysqlnd reports as host info: "Localhost via UNIX socket", "db via TCP/IP" */
        public readonly string $hostInfo,
        public readonly bool $localInfile = false,
        public readonly ?string $localInfileDirectory = null,
        public readonly Dialect $dialect = Dialect::Mysql,
    ) {
    }

    public function __destruct()
    {
        // Closing the connection makes the server roll back an open transaction, as PHP's
        // handle destructor does explicitly.
        try {
            $this->connection->close();
        } catch (\Throwable) {
        }
    }

    /** SqlParser::parse(), remembered for the texts this connection prepares again. */
    public function parse(string $sql): ParsedSql
    {
        if (isset($this->parsedSql[$sql])) {
            return $this->parsedSql[$sql];
        }
        $parsed = SqlParser::parse($sql, $this->dialect);
        if (self::keeps($this->parsedSql, $sql)) {
            $this->parsedSql[$sql] = $parsed;
        }

        return $parsed;
    }

    /**
     * The text as the server prepares it (PgsqlPlaceholders::numberParsed()), remembered with the
     * parsed texts.
     *
     * @return array{string, int, array<int, string>|null}
     */
    public function numbered(string $sql, ParsedSql $parsed): array
    {
        if (isset($this->numberedSql[$sql])) {
            return $this->numberedSql[$sql];
        }
        $numbered = PgsqlPlaceholders::numberParsed($sql, $parsed);
        if (self::keeps($this->numberedSql, $sql)) {
            $this->numberedSql[$sql] = $numbered;
        }

        return $numbered;
    }

    /**
     * Whether a cache of SQL texts keeps $sql: not a text longer than PARSED_SQL_MAX_LENGTH; a
     * full cache is emptied first.
     *
     * @param array<string, mixed> $cache
     */
    private static function keeps(array &$cache, string $sql): bool
    {
        if (\strlen($sql) > self::PARSED_SQL_MAX_LENGTH) {
            return false;
        }
        if (\count($cache) >= self::PARSED_SQL_CACHE_SIZE) {
            $cache = [];
        }

        return true;
    }

    /**
     * Column names for fetching, as pdo_stmt_describe_columns() makes them: the server's,
     * "table.column" with ATTR_FETCH_TABLE_NAMES, then ATTR_CASE; with each column's length and
     * decimals. The first $count columns.
     *
     * @param list<ColumnDefinition> $columns
     *
     * @return array{list<string>, list<array{int, int}>}
     */
    public function describe(array $columns, int $count): array
    {
        $last = $this->described;
        if ($last !== null && $last[1] === $count && $last[2] === $this->fetchTableNames && $last[3] === $this->case && $last[0] === $columns) {
            return [$last[4], $last[5]];
        }
        $names = [];
        $sizes = [];
        foreach ($columns as $index => $column) {
            if ($index >= $count) {
                break;
            }
            $sizes[] = [$column->length, $column->decimals];
            $name = $this->fetchTableNames ? $column->table . '.' . $column->name : $column->name;
            $names[] = match ($this->case) {
                \PDO::CASE_LOWER => strtolower($name),
                \PDO::CASE_UPPER => strtoupper($name),
                default => $name,
            };
        }
        $this->described = [$columns, $count, $this->fetchTableNames, $this->case, $names, $sizes];

        return [$names, $sizes];
    }

    // ---- connection access ------------------------------------------------------------------

    /**
     * @return non-empty-list<Result>
     *
     * @throws MysqlException
     */
    public function query(string $sql): array
    {
        // exclusively() spelled out: this runs once per statement.
        $this->enterExclusive();
        try {
            return $this->connection->query($sql);
        } finally {
            $this->busy = false;
        }
    }

    /**
     * The answer streamed (unbuffered): rows are read as the statement fetches them, and until
     * it is read (or the statement is gone) any other command fails with 2014. Over a
     * connection that cannot stream, the answer is read whole.
     *
     * @throws MysqlException
     */
    public function queryStream(string $sql, StatementCore $owner): ResultStream
    {
        $this->enterExclusive();
        try {
            $stream = $this->connection instanceof StreamingConnection
                ? $this->connection->queryStream($sql)
                : ResultStream::ofResults($this->connection->query($sql));
        } finally {
            $this->busy = false;
        }

        return $this->opened($stream, $owner);
    }

    /**
     * @param list<mixed> $params
     *
     * @throws MysqlException
     */
    public function executeStream(PreparedStatement $statement, array $params, StatementCore $owner): ResultStream
    {
        $this->enterExclusive();
        try {
            $stream = $this->connection instanceof StreamingConnection
                ? $this->connection->executeStream($statement, $params)
                : ResultStream::ofResults($this->connection->execute($statement, $params));
        } finally {
            $this->busy = false;
        }

        return $this->opened($stream, $owner);
    }

    private function opened(ResultStream $stream, StatementCore $owner): ResultStream
    {
        // A PostgreSQL answer is read whole: nothing stays on the wire for a later command.
        if ($this->dialect === Dialect::Mysql && !$stream->isRead()) {
            $this->openStream = $stream;
            $this->streamOwner = \WeakReference::create($owner);
        }

        return $stream;
    }

    /**
     * Before a command: a streamed answer whose statement is gone is read and dropped (as
     * PHP's statement destructor frees it); one still held by its statement makes the command
     * fail with 2014, in pdo_mysql's words.
     *
     * @throws MysqlException
     */
    private function settleStream(): void
    {
        $stream = $this->openStream;
        if ($stream === null) {
            return;
        }
        if (!$stream->isRead() && $this->streamOwner?->get() !== null) {
            throw new MysqlException($stream->atSetEnd() ? self::PENDING_RESULT_SETS : self::UNBUFFERED_ACTIVE, 2014, 'HY000');
        }
        $this->openStream = null;
        $this->streamOwner = null;
        try {
            $stream->drain();
        } catch (MysqlException) {
        }
    }

    /**
     * Runs $operation on the PostgreSQL session alone (the pdo_pgsql methods: COPY, NOTIFY).
     *
     * @template T
     *
     * @param \Closure(PgsqlSession): T $operation
     *
     * @return T
     *
     * @throws MysqlException
     */
    public function withPgsqlSession(\Closure $operation): mixed
    {
        $link = $this->connection;
        if (!$link instanceof PgsqlLink) {
            throw new \LogicException('not a PostgreSQL connection');
        }

        return $this->exclusively(static fn (): mixed => $link->withSession(static function (PgsqlSession $session) use ($operation, $link): mixed {
            try {
                return $operation($session);
            } catch (\Spindle\Database\Pgsql\PgsqlException $error) {
                $exception = $session->error($error);
                $link->setLastError($session->lastError());

                throw $exception;
            }
        }));
    }

    /** A PostgreSQL statement with $1 … $count placeholders (nothing is sent yet). */
    public function prepareNumbered(string $sql, int $count): PreparedStatement
    {
        if (!$this->connection instanceof PgsqlLink) {
            throw new \LogicException('prepareNumbered() is for PostgreSQL sessions');
        }

        return $this->connection->prepareNumbered($sql, $count);
    }

    /** @throws MysqlException */
    public function prepare(string $sql): PreparedStatement
    {
        return $this->exclusively(fn (): PreparedStatement => $this->connection->prepare($sql));
    }

    /**
     * @param list<mixed> $params
     *
     * @return non-empty-list<Result>
     *
     * @throws MysqlException
     */
    public function execute(PreparedStatement $statement, array $params): array
    {
        $this->enterExclusive();
        try {
            return $this->connection->execute($statement, $params);
        } finally {
            $this->busy = false;
        }
    }

    public function closeStatement(PreparedStatement $statement): void
    {
        if ($this->busy || ($this->openStream !== null && !$this->openStream->isComplete())) {
            $this->closeLater[] = $statement;

            return;
        }
        try {
            if (!$this->connection->isBroken()) {
                $this->connection->closeStatement($statement);
            }
        } catch (\Throwable) {
        }
    }

    public function inTransaction(): bool
    {
        return ($this->connection->statusFlags() & self::SERVER_STATUS_IN_TRANS) !== 0;
    }

    /** PDO::quote() and the quoting of emulated prepares. */
    /** false for PostgreSQL text that is not valid in a UTF8 client encoding (PQescapeStringConn refuses it). */
    public function quote(string $value, int $type): string|false
    {
        if ($this->dialect === Dialect::Pgsql) {
            $session = $this->connection instanceof PgsqlLink ? $this->connection : null;
            if ($session !== null && $session->parameter('client_encoding') === 'UTF8' && preg_match('//u', $value) !== 1) {
                return false;
            }

            return self::quotePgsql($value, $session !== null && $session->parameter('standard_conforming_strings') === 'off');
        }
        $national = $this->assumeNationalStrings;
        if (($type & \PDO::PARAM_STR_NATL) === \PDO::PARAM_STR_NATL) {
            $national = true;
        }
        if (($type & \PDO::PARAM_STR_CHAR) === \PDO::PARAM_STR_CHAR) {
            $national = false;
        }
        $noBackslashEscapes = ($this->connection->statusFlags() & self::SERVER_STATUS_NO_BACKSLASH_ESCAPES) !== 0;

        return ($national ? "N'" : "'") . $this->escaper->escape($value, $noBackslashEscapes) . "'";
    }

    /**
     * PQescapeStringConn() rules: the text up to its first NUL byte, quotes doubled (and
     * backslashes, with E'…', when standard_conforming_strings is off).
     */
    public static function quotePgsql(string $value, bool $backslashes = false): string
    {
        $nul = strpos($value, "\0");
        if ($nul !== false) {
            $value = substr($value, 0, $nul);
        }
        $escaped = str_replace("'", "''", $value);
        if ($backslashes && str_contains($value, '\\')) {
            return "E'" . str_replace('\\', '\\\\', $escaped) . "'";
        }

        return "'" . $escaped . "'";
    }

    /**
     * @template T
     *
     * @param \Closure(): T $operation
     *
     * @return T
     *
     * @throws MysqlException
     */
    private function exclusively(\Closure $operation): mixed
    {
        $this->enterExclusive();
        try {
            return $operation();
        } finally {
            $this->busy = false;
        }
    }

    /**
     * Marks the handle busy (the caller clears $busy when done) after closing the statements
     * whose close had to wait.
     *
     * @throws MysqlException
     */
    private function enterExclusive(): void
    {
        if ($this->busy) {
            throw $this->dialect === Dialect::Pgsql
                ? new MysqlException(self::IN_USE_PGSQL, PgsqlSession::ERROR_CODE, 'HY000')
                : new MysqlException(self::IN_USE, 2014, 'HY000');
        }
        if ($this->connection->isBroken()) {
            throw $this->dialect === Dialect::Pgsql
                ? new MysqlException('no connection to the server', PgsqlSession::ERROR_CODE, '08006')
                : new MysqlException('MySQL server has gone away', 2006, 'HY000');
        }
        $this->busy = true;
        try {
            $this->settleStream();
        } catch (\Throwable $e) {
            $this->busy = false;
            throw $e;
        }
        try {
            while ($this->closeLater !== []) {
                $this->connection->closeStatement(array_shift($this->closeLater));
            }
        } catch (\Throwable $e) {
            $this->busy = false;
            throw $e;
        }
    }

    // ---- errors -----------------------------------------------------------------------------

    /** PDO_DBH_CLEAR_ERR */
    public function clearError(): void
    {
        $this->errorCode = SqlState::NONE;
        $this->queryError = null;
    }

    /** What pdo_mysql records when the server or the connection reports an error on the handle. */
    public function failed(MysqlException $error): void
    {
        [$this->errorCode, $this->driverError] = self::fromMysql($error);
    }

    /** @return array{string, ?DriverError} the SQLSTATE and the driver error for a statement or handle */
    public static function fromMysql(MysqlException $error): array
    {
        if ($error->errorCode === 0) {
            return [SqlState::NONE, null];
        }
        if ($error->errorCode === PgsqlSession::NO_ERROR_CODE) {
            return [$error->sqlState, new DriverError(null, $error->getMessage())];
        }

        return [$error->sqlState, new DriverError($error->errorCode, $error->getMessage())];
    }

    /**
     * An error PDO itself detects (bad parameter numbers, unsupported attributes, …): recorded on
     * the statement or handle, raised as PDOException in ERRMODE_EXCEPTION and as a warning in
     * both other modes (PHP warns even in ERRMODE_SILENT here). The exception's errorInfo is
     * [SQLSTATE, 0].
     */
    public function raise(?StatementStatus $statement, string $state, ?string $detail, string $where): void
    {
        if ($statement !== null) {
            $statement->errorCode = $state;
        } else {
            $this->errorCode = $state;
        }
        $message = 'SQLSTATE[' . $state . ']: ' . SqlState::describe($state) . ($detail === null ? '' : ': ' . $detail);
        if ($this->errorMode !== ErrorMode::Exception) {
            $this->warn($where, $message);

            return;
        }

        throw Errors::exception($message, $state, [$state, 0]);
    }

    /**
     * Reports the error recorded on the statement (or the handle) per ERRMODE, if there is one:
     * "SQLSTATE[42S02]: Base table or view not found: 1146 Table 'app.x' doesn't exist", errorInfo
     * [SQLSTATE, number, text] (just [SQLSTATE] when the driver has no error of its own).
     */
    public function report(?StatementStatus $statement, string $where): void
    {
        $state = $statement !== null ? $statement->errorCode : $this->errorCode;
        if ($state === SqlState::NONE || $this->errorMode === ErrorMode::Silent) {
            return;
        }
        $driver = $statement !== null ? $statement->driverError : $this->driverError;
        $this->reportState($state, $driver, $where);
    }

    public function reportQueryError(QueryError $error, string $where): void
    {
        if ($error->sqlState === SqlState::NONE || $this->errorMode === ErrorMode::Silent) {
            return;
        }
        $this->reportState($error->sqlState, $error->driverError, $where);
    }

    public function warn(string $where, string $message): void
    {
        if ($this->constructing) {
            throw Errors::exception($message, 0, null);
        }
        Errors::warn($where, $message);
    }

    /**
     * errorInfo() of the handle or a statement: [SQLSTATE, number, text], padded with nulls.
     *
     * @return array{0: string, 1: int|null, 2: string|null}
     */
    public static function errorInfo(string $state, ?DriverError $driver): array
    {
        if ($state !== SqlState::NONE && $driver !== null && $driver->code === null) {
            return [$state, null, $driver->message];
        }
        if ($state !== SqlState::NONE && $driver !== null) {
            return [$state, $driver->code, $driver->message];
        }

        return [$state, null, null];
    }

    /**
     * errorInfo() of this handle or one of its statements. pdo_pgsql keeps one driver error per
     * connection: every errorInfo() shows the last one the server (or the driver) reported, even
     * beside an SQLSTATE that PDO raised itself.
     *
     * @return array{0: string, 1: int|null, 2: string|null}
     */
    public function errorInfoFor(string $state, ?DriverError $own): array
    {
        if ($this->dialect !== Dialect::Pgsql || !$this->connection instanceof PgsqlLink) {
            return self::errorInfo($state, $own);
        }
        $last = $this->connection->lastError();
        if ($state === SqlState::NONE || $last === null) {
            return [$state, null, null];
        }

        return [$state, $last->code, $last->message];
    }

    private function reportState(string $state, ?DriverError $driver, string $where): void
    {
        $description = SqlState::describe($state);
        $message = match (true) {
            $driver === null => sprintf('SQLSTATE[%s]: %s', $state, $description),
            $driver->code === null => sprintf('SQLSTATE[%s]: %s: %s', $state, $description, $driver->message),
            default => sprintf('SQLSTATE[%s]: %s: %d %s', $state, $description, $driver->code, $driver->message),
        };
        if ($this->errorMode === ErrorMode::Warning) {
            $this->warn($where, $message);

            return;
        }
        $info = $driver !== null ? [$state, $driver->code, $driver->message] : [$state];

        throw Errors::exception($message, $state, $info);
    }
}
