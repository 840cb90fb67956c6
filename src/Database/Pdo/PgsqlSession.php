<?php

declare(strict_types=1);

namespace Spindle\Database\Pdo;

use Spindle\Database\Mysql\ColumnDefinition;
use Spindle\Database\Mysql\MysqlException;
use Spindle\Database\Mysql\PreparedStatement;
use Spindle\Database\Mysql\Protocol\StreamedSet;
use Spindle\Database\Mysql\Result;
use Spindle\Database\Mysql\StatementCacheStats;
use Spindle\Database\Mysql\ResultStream;
use Spindle\Database\Pgsql\Connection;
use Spindle\Database\Pgsql\PgsqlException;
use Spindle\Database\Pgsql\Protocol\Field;
use Spindle\Database\Pgsql\Protocol\Frontend;
use Spindle\Database\Pgsql\Result as PgsqlResult;
use Spindle\Database\Pgsql\TypeDecoder;

/**
 * A PostgreSQL session as the PDO layer's connection: the statement, fetch and error machinery
 * of Spindle\Database\Pdo runs unchanged over it, and this class gives its answers pdo_pgsql's
 * shape.
 *
 * - query() (PDO::exec, transactions) is the simple protocol, which allows several statements;
 *   like PQexec, only the last statement's result is kept. queryStream() (emulated statements)
 *   is the same after "??" became "?".
 * - prepare() only numbers the placeholders ("?" becomes $1, $2, …; "??" becomes "?") and names
 *   the statement "pdo_stmt_%08x"; the server parses it on the first execute, in the same round
 *   trip as Bind/Describe/Execute/Sync, as pdo_pgsql defers it.
 * - Values come as pdo_pgsql gives them: int2/int4/int8/oid as int, bool as bool, bytea as a
 *   stream, NULL as null, everything else (numeric, float, dates, json, arrays) as the text.
 * - Columns travel in ColumnDefinition: $type holds the type oid, $charset the table oid,
 *   $length the type's size and $decimals its modifier (getColumnMeta() reads them back).
 * - Errors become MysqlException with code 7 (PGRES_FATAL_ERROR, what pdo_pgsql reports as the
 *   driver code), the SQLSTATE and libpq's text of the error.
 *
 * @internal
 *
 * Over 500 lines: the statement paths of one PostgreSQL session (simple, extended, numbered,
 * COPY, notifications, the pooled reset) share its protocol state; placeholder numbering is
 * PgsqlPlaceholders already.
 */
final class PgsqlSession implements PgsqlLink
{
    /** pdo_pgsql's driver error code: PGRES_FATAL_ERROR */
    public const ERROR_CODE = 7;
    /** An error without a driver error number (errorInfo()[1] is null): an empty query. */
    public const NO_ERROR_CODE = -1;

    /** The last error the session reported: pdo_pgsql shows it in every errorInfo(). */
    private ?DriverError $lastError = null;

    private int $statementCounter = 0;
    /** @var list<Field> the fields $describedColumns were made for */
    private array $describedFields = [];
    /** @var list<ColumnDefinition> */
    private array $describedColumns = [];
    /** @var list<int> the bytea columns of $describedFields */
    private array $byteaColumns = [];
    /** @var array<string, string|null> names of types and tables getColumnMeta() asked for */
    private array $catalogNames = [];

    /**
     * Statement id => server name and columns of the statements the server parsed: once known,
     * the columns are not described again (no Describe, no RowDescription to decode).
     *
     * @var array<int, array{string, list<Field>}>
     */
    private array $parsed = [];
    /** @var array<int, string> statement id => its server name, until parsed */
    private array $pending = [];
    private int $nextId = 0;
    /** @var array<int, list<ColumnDefinition>> the parameter list of a statement with so many (immutable, shared) */
    private array $parameterLists = [];
    /** @var list<resource> the large object streams opened in this session (PgsqlLargeObjects) */
    public array $lobStreams = [];
    /** Unnamed statements only (PDO::PGSQL_ATTR_DISABLE_PREPARES). */
    private bool $disablePrepares = false;
    /** @var list<string> what set the session up when it opened, run again after each reset (rememberSetup()) */
    private array $setup = [];
    /** The statements kept across PDOStatements and requests (keepStatements()); null: none kept. */
    private ?PgsqlStatementCache $cache = null;
    /** @var array<int, string> statement id => its text, for the statements the cache serves */
    private array $cacheable = [];

    public function __construct(public readonly Connection $connection)
    {
    }

    public function query(string $sql): array
    {
        return [self::result($this->queryLast($sql))];
    }

    public function queryStream(string $sql): ResultStream
    {
        return ResultStream::ofSet($this->queryLast($sql));
    }

    private function queryLast(string $sql): StreamedSet
    {
        try {
            $results = $this->connection->query($sql, true);
        } catch (PgsqlException $error) {
            throw $this->error($error);
        }

        return $this->last($results);
    }

    /** Numbers the "?" placeholders; nothing goes to the server yet. */
    public function prepare(string $sql): PreparedStatement
    {
        [$numbered, $count] = PgsqlPlaceholders::number($sql);

        return $this->prepareNumbered($numbered, $count);
    }

    /**
     * A statement whose placeholders are $1 … $count already; nothing goes to the server yet
     * (pdo_pgsql names it now and parses it at the first execute).
     */
    public function prepareNumbered(string $numbered, int $count): PreparedStatement
    {
        $id = ++$this->nextId;
        if ($this->cache !== null && !$this->disablePrepares) {
            $this->cacheable[$id] = $numbered;
        } else {
            $this->pending[$id] = $this->disablePrepares ? '' : sprintf('pdo_stmt_%08x', ++$this->statementCounter);
        }
        if (!isset($this->parameterLists[$count])) {
            $params = [];
            for ($i = 0; $i < $count; ++$i) {
                $params[] = new ColumnDefinition('def', '', '', '', '$' . ($i + 1), '', 0, 0, 0, 0, 0);
            }
            if (\count($this->parameterLists) >= 64) {
                $this->parameterLists = [];
            }
            $this->parameterLists[$count] = $params;
        }

        return new PreparedStatement($id, $numbered, $this->parameterLists[$count], []);
    }

    /** A scrollable statement's cursor name: numbered with the statements, as pdo_pgsql does. */
    public function cursorName(): string
    {
        return sprintf('pdo_crsr_%08x', ++$this->statementCounter);
    }

    public function execute(PreparedStatement $statement, array $params): array
    {
        return [self::result($this->executeLast($statement, $params))];
    }

    public function executeStream(PreparedStatement $statement, array $params): ResultStream
    {
        return ResultStream::ofSet($this->executeLast($statement, $params));
    }

    /**
     * @param list<mixed> $params
     *
     * @throws MysqlException
     */
    private function executeLast(PreparedStatement $statement, array $params): StreamedSet
    {
        // Types are left to the server, binary values included (pdo_pgsql sends a PARAM_LOB as
        // binary of no stated type: a bytea column takes the bytes, a text column the text).
        [$values, $formats] = Connection::encodeParams($params);
        if (isset($this->cacheable[$statement->id])) {
            return $this->executeKept($statement, $values, $formats);
        }
        $types = [];
        $known = $this->parsed[$statement->id] ?? null;
        if ($known !== null) {
            [$name, $fields] = $known;
            $bytes = Frontend::bind('', $name, $values, $formats) . Frontend::executeSync();
        } else {
            $name = $this->pending[$statement->id] ?? '';
            $fields = [];
            $bytes = Frontend::parse($name, $statement->sql, $types) . Frontend::bind('', $name, $values, $formats)
                . Frontend::describeExecuteSync();
        }
        try {
            $results = $this->connection->exchange($bytes, $statement->sql, $fields, true);
        } catch (PgsqlException $pgsqlError) {
            $error = $this->error($pgsqlError);
            if ($known === null && $name !== '') {
                // The Parse may have succeeded before the Bind failed: drop the statement so that
                // the next execute parses it afresh.
                $this->connection->closeStatementNamed($name);
            }
            throw $error;
        }
        if ($name !== '' && $known === null) {
            $this->parsed[$statement->id] = [$name, isset($results[0]) ? $results[\count($results) - 1]->fields : []];
        }

        return $this->last($results);
    }

    /**
     * Executes a statement the cache serves: Bind and Execute of the kept statement, or Parse,
     * Bind, Describe and Execute under a new name that the cache then keeps. Inside a
     * transaction block a kept statement is not used (the statement is parsed unnamed, as once
     * more on a new session): if another session changed a table it reads, the server would
     * refuse it ("cached plan must not change result type") and fail the whole transaction, an
     * error pdo_pgsql never gives. Outside one, that refusal changes nothing on the server: the
     * statement is parsed again and run once more.
     *
     * @param list<string|null> $values
     * @param list<int> $formats
     *
     * @throws MysqlException
     */
    private function executeKept(PreparedStatement $statement, array $values, array $formats): StreamedSet
    {
        $cache = $this->cache;
        \assert($cache !== null);
        $sql = $statement->sql;
        $inTransaction = $this->connection->transactionStatus()->inTransaction();
        $kept = $inTransaction ? null : $cache->find($sql);
        if ($kept !== null) {
            ++$cache->stats->hits;
            [$name, $fields] = $kept;
            try {
                return $this->last($this->connection->exchange(Frontend::bind('', $name, $values, $formats) . Frontend::executeSync(), $sql, $fields, true));
            } catch (PgsqlException $pgsqlError) {
                if ($pgsqlError->sqlState !== '0A000' || $this->connection->transactionStatus()->inTransaction() || $this->connection->isBroken()) {
                    throw $this->error($pgsqlError);
                }
                // The kept plan no longer fits the tables: parsed again below.
                $cache->forget($sql);
                $this->connection->closeStatementNamed($name);
            }
        }
        ++$cache->stats->misses;
        $name = $inTransaction ? '' : sprintf('pdo_stmt_%08x', ++$this->statementCounter);
        $bytes = Frontend::parse($name, $sql, []) . Frontend::bind('', $name, $values, $formats) . Frontend::describeExecuteSync();
        try {
            $results = $this->connection->exchange($bytes, $sql, [], true);
        } catch (PgsqlException $pgsqlError) {
            if ($name !== '') {
                $this->connection->closeStatementNamed($name);
            }
            throw $this->error($pgsqlError);
        }
        if ($name !== '') {
            $evicted = $cache->keep($sql, $name, isset($results[0]) ? $results[\count($results) - 1]->fields : []);
            if ($evicted !== null) {
                $this->connection->closeStatementNamed($evicted);
            }
        }

        return $this->last($results);
    }

    /**
     * Keeps up to $capacity server-side statements by their text, across PDOStatements and
     * across resets (resetSession() then leaves them): a pooled session's (SessionPools).
     */
    public function keepStatements(int $capacity, StatementCacheStats $stats): void
    {
        $this->cache ??= new PgsqlStatementCache($capacity, $stats);
    }

    /** How many statements are kept now (keepStatements()). */
    public function keptStatements(): int
    {
        return $this->cache?->count() ?? 0;
    }

    public function closeStatement(PreparedStatement $statement): void
    {
        unset($this->pending[$statement->id], $this->cacheable[$statement->id]);
        if (isset($this->parsed[$statement->id])) {
            $this->connection->closeStatementNamed($this->parsed[$statement->id][0]);
            unset($this->parsed[$statement->id]);
        }
    }

    public function ping(): void
    {
        $this->query('SELECT 1');
    }

    public function serverVersion(): string
    {
        return $this->connection->parameter('server_version') ?? '';
    }

    public function connectionId(): int
    {
        return $this->connection->processId();
    }

    /** SERVER_STATUS_IN_TRANS (1) inside a transaction block, healthy or failed, as PQtransactionStatus() > IDLE. */
    public function statusFlags(): int
    {
        return $this->connection->transactionStatus()->inTransaction() ? 1 : 0;
    }

    public function isBroken(): bool
    {
        return $this->connection->isBroken();
    }

    public function close(): void
    {
        try {
            $this->connection->close();
        } catch (PgsqlException) {
        }
    }

    public function lastError(): ?DriverError
    {
        return $this->lastError;
    }

    public function setLastError(?DriverError $error): void
    {
        $this->lastError = $error;
    }

    public function disablesPrepares(): bool
    {
        return $this->disablePrepares;
    }

    public function setDisablePrepares(bool $disable): void
    {
        $this->disablePrepares = $disable;
    }

    public function parameter(string $name): ?string
    {
        return $this->connection->parameter($name);
    }

    public function withSession(\Closure $operation): mixed
    {
        return $operation($this);
    }

    public function heldSession(): self
    {
        return $this;
    }

    public function catalogName(string $key, \Closure $lookup): ?string
    {
        if (\array_key_exists($key, $this->catalogNames)) {
            return $this->catalogNames[$key];
        }
        if (\count($this->catalogNames) >= 256) {
            $this->catalogNames = [];
        }

        return $this->catalogNames[$key] = $lookup();
    }

    /**
     * Statements that resetSession() runs again after DISCARD ALL: what set the session up when
     * it was opened (a framework's `SET search_path`, `SET TIME ZONE`, `SET NAMES`).
     *
     * @param list<string> $statements
     */
    public function rememberSetup(array $statements): void
    {
        $this->setup = $statements;
    }

    /**
     * Makes the session as a new one for its next holder: an open (or failed) transaction rolled
     * back; then `DISCARD ALL` (session variables back to their defaults, temporary tables,
     * prepared statements, cursors, LISTEN registrations, advisory locks and cached plans gone;
     * it refuses to run inside a transaction block, hence the ROLLBACK first); notifications
     * received and not yet read dropped; and the setup of rememberSetup() run again. Two round
     * trips, three after a transaction left open.
     *
     * A session that keeps statements (keepStatements()) gets what DISCARD ALL does except
     * DEALLOCATE ALL and DISCARD PLANS, with its setup, in one query: SET SESSION AUTHORIZATION
     * DEFAULT, RESET ALL, CLOSE ALL, UNLISTEN *, pg_advisory_unlock_all(), DISCARD TEMP,
     * DISCARD SEQUENCES; the statements prepared in SQL (PREPARE) are deallocated by name (a
     * second round trip only when there are some). One round trip.
     *
     * @throws MysqlException the session is not usable (the caller closes it)
     */
    public function resetSession(): void
    {
        $setup = \array_map(static fn (string $sql): string => \rtrim($sql, " \t\r\n;"), $this->setup);
        try {
            if ($this->connection->transactionStatus()->inTransaction()) {
                $this->connection->query('ROLLBACK');
            }
            if ($this->cache === null) {
                $this->connection->query('DISCARD ALL');
                if ($setup !== []) {
                    $this->connection->query(\implode('; ', $setup));
                }
                // The server forgot them: a statement executed again is parsed again.
                $this->parsed = [];
            } else {
                $results = $this->connection->query(\implode('; ', [
                    'SET SESSION AUTHORIZATION DEFAULT', 'RESET ALL', 'CLOSE ALL', 'UNLISTEN *',
                    'SELECT pg_advisory_unlock_all()', 'DISCARD TEMP', 'DISCARD SEQUENCES', ...$setup,
                    'SELECT name FROM pg_prepared_statements WHERE from_sql',
                ]));
                $names = \array_column($results[\count($results) - 1]->rows, 0);
                if ($names !== []) {
                    $this->connection->query(\implode('; ', \array_map(static fn (mixed $name): string => 'DEALLOCATE ' . Connection::quoteIdentifier((string) $name), $names)));
                }
            }
            $this->connection->forgetNotifications();
        } catch (PgsqlException $error) {
            throw $this->error($error);
        }
        $this->lastError = null;
    }

    /** A PgsqlException as the PDO layer's error: code 7, the SQLSTATE, libpq's text. */
    public function error(PgsqlException $error): MysqlException
    {
        $this->lastError = new DriverError(self::ERROR_CODE, $error->getMessage());

        return new MysqlException($error->getMessage(), self::ERROR_CODE, $error->sqlState, $error);
    }

    /** A set read whole as the Result the non-streaming calls give: its summary, rows included. */
    private static function result(StreamedSet $set): Result
    {
        $summary = $set->summary;
        \assert($summary !== null);

        return $summary;
    }

    /**
     * The last statement's result as a set read whole: its rows, and a summary with the rows
     * affected and the transaction status.
     *
     * @param list<PgsqlResult> $results
     */
    private function last(array $results): StreamedSet
    {
        $result = $results[\count($results) - 1] ?? new PgsqlResult([], [], '');
        if ($result->fields === [] && $result->tag === '') {
            // An empty query: pdo_pgsql reports PGRES_EMPTY_QUERY as a general error.
            $this->lastError = new DriverError(null, '');

            throw new MysqlException('', self::NO_ERROR_CODE, 'HY000');
        }
        if ($result->fields === []) {
            return StreamedSet::ok(new Result([], [], $result->affectedRows(), 0, 0, $this->statusFlags()));
        }
        if ($result->fields !== $this->describedFields) {
            $this->describedFields = $result->fields;
            $this->describedColumns = array_map(self::column(...), $result->fields);
            $this->byteaColumns = [];
            foreach ($result->fields as $index => $field) {
                if ($field->typeOid === TypeDecoder::BYTEA) {
                    $this->byteaColumns[] = $index;
                }
            }
        }
        $columns = $this->describedColumns;
        $rows = $result->rows;
        // int and bool columns came converted (Connection's $phpTypes); bytea becomes a stream.
        foreach ($this->byteaColumns as $index) {
            foreach ($rows as &$row) {
                if (\is_string($row[$index])) {
                    $row[$index] = self::stream(TypeDecoder::bytea($row[$index]));
                }
            }
            unset($row);
        }

        $set = new StreamedSet($columns);
        /** @var list<list<int|float|string|null>> $rows bool and stream values too: the fetch code passes them through */
        $set->rows = $rows;
        // The summary of a set read whole carries its rows: the cursor takes it as its result.
        $set->summary = new Result($columns, $rows, $result->affectedRows(), 0, 0, $this->statusFlags());

        return $set;
    }

    private static function column(Field $field): ColumnDefinition
    {
        return new ColumnDefinition('', '', '', '', $field->name, $field->name, $field->tableOid, $field->typeSize, $field->typeOid, 0, $field->typeModifier);
    }

    /** @return resource */
    private static function stream(string $bytes)
    {
        $stream = fopen('php://memory', 'r+');
        \assert(\is_resource($stream));
        fwrite($stream, $bytes);
        rewind($stream);

        return $stream;
    }
}
