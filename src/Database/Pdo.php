<?php

declare(strict_types=1);

namespace Spindle\Database;

use Spindle\Database\Mysql\Connection;
use Spindle\Database\Mysql\ConnectionConfig;
use Spindle\Database\Mysql\MysqlException;
use Spindle\Database\Mysql\SocketConnection;
use Spindle\Database\Pdo\Attributes;
use Spindle\Database\Pdo\Charset;
use Spindle\Database\Pdo\ConnectOptions;
use Spindle\Database\Pdo\Dialect;
use Spindle\Database\Pdo\ErrorMode;
use Spindle\Database\Pdo\Errors;
use Spindle\Database\Pdo\Escaper;
use Spindle\Database\Pdo\Handle;
use Spindle\Database\Pdo\MysqlConnect;
use Spindle\Database\Pdo\PgsqlAttributes;
use Spindle\Database\Pdo\PgsqlConnect;
use Spindle\Database\Pdo\PgsqlLargeObjects;
use Spindle\Database\Pdo\PgsqlLink;
use Spindle\Database\Pdo\PgsqlMethods;
use Spindle\Database\Pdo\PgsqlSession;
use Spindle\Database\Pdo\QueryError;
use Spindle\Database\Pdo\SqlState;
use Spindle\Database\Pdo\Statement;
use Spindle\Database\Pgsql\Connection as PgsqlConnection;
use Spindle\Database\Pdo\StatementClass;
use Spindle\Database\Pdo\StatementCore;

/**
 * A PDO for MySQL, MariaDB and PostgreSQL that talks to the server through Spindle's own
 * connection, so a query suspends only the fiber that runs it. Construct it exactly like PDO:
 *
 *     new Spindle\Database\Pdo('mysql:host=127.0.0.1;dbname=app;charset=utf8mb4', $user, $pass, $options);
 *     new Spindle\Database\Pdo('pgsql:host=127.0.0.1;dbname=app', $user, $pass, $options);
 *
 * With a mysql: DSN it behaves like pdo_mysql (PHP 8.2, mysqlnd): emulated prepares by default,
 * the same fetch modes, attributes, messages and error modes. With a pgsql: DSN it behaves like
 * pdo_pgsql (PHP 8.2): server-side prepares by default, pdo_pgsql's types, messages and
 * attributes (Pdo\PgsqlSession carries the PostgreSQL session under the same statement code).
 * docs/database.md lists the deliberate differences. The native PDO object underneath is never
 * initialised and every public method is overridden, so neither extension need be loaded;
 * PDO::MYSQL_ATTR_* and PDO::PGSQL_ATTR_DISABLE_PREPARES exist here with the same values.
 * ATTR_CONNECTOR and fromConnection() take a MySQL connection, or with a pgsql: DSN a
 * Pgsql\Connection or a Pdo\PgsqlLink (a session of a worker's pool).
 *
 * Over 500 lines: it is PDO's whole public surface plus pdo_pgsql's own methods (COPY, NOTIFY,
 * large objects), each a few lines that check their arguments and hand over to Pdo\*.
 *
 * One Pdo is one connection: use it from one fiber at a time (a second fiber calling while the
 * first waits for the server gets an error at once: 2014 on MySQL, "another command is already
 * in progress" on PostgreSQL).
 */
class Pdo extends \PDO
{
    public const MYSQL_ATTR_USE_BUFFERED_QUERY = 1000;
    public const MYSQL_ATTR_LOCAL_INFILE = 1001;
    public const MYSQL_ATTR_INIT_COMMAND = 1002;
    public const MYSQL_ATTR_COMPRESS = 1003;
    public const MYSQL_ATTR_DIRECT_QUERY = 1004;
    public const MYSQL_ATTR_FOUND_ROWS = 1005;
    public const MYSQL_ATTR_IGNORE_SPACE = 1006;
    public const MYSQL_ATTR_SSL_KEY = 1007;
    public const MYSQL_ATTR_SSL_CERT = 1008;
    public const MYSQL_ATTR_SSL_CA = 1009;
    public const MYSQL_ATTR_SSL_CAPATH = 1010;
    public const MYSQL_ATTR_SSL_CIPHER = 1011;
    public const MYSQL_ATTR_SERVER_PUBLIC_KEY = 1012;
    public const MYSQL_ATTR_MULTI_STATEMENTS = 1013;
    public const MYSQL_ATTR_SSL_VERIFY_SERVER_CERT = 1014;
    public const MYSQL_ATTR_LOCAL_INFILE_DIRECTORY = 1015;

    /** PDO::PGSQL_ATTR_DISABLE_PREPARES: statements go unnamed, parsed anew at each execute. */
    public const PGSQL_ATTR_DISABLE_PREPARES = 1000;

    /**
     * Constructor option (a string key, which PDO itself ignores): a
     * Closure(ConnectionConfig): Connection that opens the connection instead of
     * SocketConnection::connect(), e.g. to take it from a pool or, in tests, to return a fake.
     */
    public const ATTR_CONNECTOR = 'spindle.connector';

    /**
     * Constructor option (MySQL): keep up to this many server-side prepared statements after
     * their PDOStatements are gone, so that preparing the same text again costs no round trip
     * (Spindle\Database\Mysql\StatementCache). 0 (the default, as pdo_mysql): none kept.
     * Laravel's connections under `spindle serve` keep 256 (SPINDLE_DB_STATEMENT_CACHE).
     */
    public const ATTR_STATEMENT_CACHE = 'spindle.statement_cache';

    private ?Handle $handle = null;

    /**
     * @param array<int|string, mixed>|null $options PDO attributes, PDO::MYSQL_ATTR_* (use
     *                                               self::MYSQL_ATTR_*) and self::ATTR_CONNECTOR
     */
    public function __construct(string $dsn, ?string $username = null, #[\SensitiveParameter] ?string $password = null, ?array $options = null)
    {
        [$dialect, $dataSource] = ConnectOptions::split($dsn);
        if ($dialect === Dialect::Pgsql) {
            $options ??= [];
            $connection = self::pgsqlLink(PgsqlConnect::connect($dataSource, $username, $password, $options, $options[self::ATTR_CONNECTOR] ?? null));
            $this->open(new Handle($connection, new Escaper(Charset::fromName('utf8mb4')), '', dialect: Dialect::Pgsql), $options);

            return;
        }
        $this->open(MysqlConnect::open($dataSource, $username, $password, $options), $options ?? []);
    }

    /**
     * A Pdo over a connection that is already open (a pooled one, or a fake in tests). The
     * options are applied as the constructor applies them; the DSN only tells the character set
     * used for quoting and what ATTR_CONNECTION_STATUS reports. The Pdo owns the connection from
     * now on and closes it when it is gone. A PostgreSQL connection (Pgsql\Connection) gives a
     * Pdo with pdo_pgsql's behaviour, as a pgsql: DSN does.
     *
     * @param array<int|string, mixed> $options
     */
    public static function fromConnection(Connection|PgsqlConnection|PgsqlLink $connection, array $options = [], string $dsn = 'mysql:host=127.0.0.1;charset=utf8mb4'): self
    {
        $pdo = (new \ReflectionClass(self::class))->newInstanceWithoutConstructor();
        if ($connection instanceof PgsqlConnection || $connection instanceof PgsqlLink) {
            $session = self::pgsqlLink($connection);
            $pdo->open(new Handle($session, new Escaper(Charset::fromName('utf8mb4')), '', dialect: Dialect::Pgsql), $options);

            return $pdo;
        }
        $pdo->open(MysqlConnect::over($connection, $options, $dsn), $options);

        return $pdo;
    }

    private static function pgsqlLink(PgsqlConnection|PgsqlLink $connection): PgsqlLink
    {
        return $connection instanceof PgsqlLink ? $connection : new PgsqlSession($connection);
    }

    public function beginTransaction(): bool
    {
        $handle = $this->handle();
        if ($handle->inTransaction()) {
            throw Errors::plain('There is already an active transaction');
        }

        return $this->transactionCommand($handle, 'START TRANSACTION', 'PDO::beginTransaction');
    }

    public function commit(): bool
    {
        $handle = $this->handle();
        if (!$handle->inTransaction()) {
            throw Errors::plain('There is no active transaction');
        }

        // Large object streams close with the transaction, as pdo_pgsql's do.
        return $this->transactionCommand($handle, 'COMMIT', 'PDO::commit') && PgsqlLargeObjects::closeAll($handle);
    }

    public function rollBack(): bool
    {
        $handle = $this->handle();
        if (!$handle->inTransaction()) {
            throw Errors::plain('There is no active transaction');
        }

        return $this->transactionCommand($handle, 'ROLLBACK', 'PDO::rollBack') && PgsqlLargeObjects::closeAll($handle);
    }

    /** The server's own transaction state (SERVER_STATUS_IN_TRANS), as pdo_mysql reports it. */
    public function inTransaction(): bool
    {
        return $this->handle()->inTransaction();
    }

    public function errorCode(): ?string
    {
        $handle = $this->handle();
        if ($handle->queryError !== null) {
            return $handle->queryError->sqlState;
        }

        return $handle->errorCode === '' ? null : $handle->errorCode;
    }

    /** @return array{0: string, 1: int|null, 2: string|null} */
    public function errorInfo(): array
    {
        $handle = $this->handle();
        if ($handle->queryError !== null) {
            return $handle->errorInfoFor($handle->queryError->sqlState, $handle->queryError->driverError);
        }

        return $handle->errorInfoFor($handle->errorCode, $handle->driverError);
    }

    /**
     * Runs a statement and returns the rows it affected. For a statement that returns rows it
     * returns 0 and drops them.
     */
    public function exec(string $statement): int|false
    {
        if ($statement === '') {
            throw new \ValueError('PDO::exec(): Argument #1 ($statement) cannot be empty');
        }
        $handle = $this->handle();
        $handle->clearError();
        try {
            $results = $handle->query($statement);
        } catch (MysqlException $error) {
            $handle->failed($error);
            $handle->report(null, 'PDO::exec');

            return false;
        }
        $handle->lastInsertId = (string) $results[\count($results) - 1]->lastInsertId;
        $first = $results[0];

        return $first->columns === [] ? $first->affectedRows : 0;
    }

    public function getAttribute(int $attribute): mixed
    {
        return Attributes::get($this->handle(), $attribute);
    }

    /** @return list<string> */
    public static function getAvailableDrivers(): array
    {
        return ['mysql', 'pgsql'];
    }

    /**
     * MySQL: the AUTO_INCREMENT value of the last statement that generated one ("0" after any
     * other). PostgreSQL: lastval(), or currval() of the sequence named (false and the
     * server's error when there is none).
     */
    public function lastInsertId(?string $name = null): string|false
    {
        $handle = $this->handle();
        $handle->clearError();
        if ($handle->dialect === Dialect::Pgsql) {
            try {
                return PgsqlAttributes::lastInsertId($handle, $name);
            } catch (MysqlException $error) {
                $handle->failed($error);
                $handle->report(null, 'PDO::lastInsertId');

                return false;
            }
        }

        return $handle->lastInsertId;
    }

    /**
     * @param array<int|string, mixed> $options only PDO::ATTR_STATEMENT_CLASS is used
     *
     * @return \PDOStatement|false declared as PDO declares it, so that PDO's subclasses fit; a Statement unless ATTR_STATEMENT_CLASS names a class that extends \PDOStatement directly
     */
    public function prepare(string $query, array $options = []): \PDOStatement|false
    {
        if ($query === '') {
            throw new \ValueError('PDO::prepare(): Argument #1 ($query) cannot be empty');
        }
        $handle = $this->handle();
        $handle->clearError();
        [$class, $ctorArgs] = \array_key_exists(\PDO::ATTR_STATEMENT_CLASS, $options)
            ? StatementClass::fromAttribute($options[\PDO::ATTR_STATEMENT_CLASS])
            : [$handle->statementClass, $handle->statementCtorArgs];

        $statement = StatementClass::instantiate($class, $ctorArgs);
        $core = new StatementCore($handle, $query);
        // Without options (the common call) no per-statement attribute applies: no closure to make.
        $prepared = $handle->dialect === Dialect::Pgsql && $options !== []
            ? PgsqlAttributes::prepareWith($handle, $options, static fn (): bool => $core->prepare('PDO::prepare'), $core->cursor)
            : $core->prepare('PDO::prepare');
        if (!$prepared) {
            $handle->report(null, 'PDO::prepare');

            return false;
        }
        StatementClass::construct($statement, $core, $ctorArgs);

        return $statement;
    }

    /** @return \PDOStatement|false (see prepare()) */
    public function query(string $query, ?int $fetchMode = null, mixed ...$fetchModeArgs): \PDOStatement|false
    {
        if ($query === '') {
            throw new \ValueError('PDO::query(): Argument #1 ($query) cannot be empty');
        }
        $handle = $this->handle();
        $handle->clearError();
        $statement = StatementClass::instantiate($handle->statementClass, $handle->statementCtorArgs);
        $core = new StatementCore($handle, $query);
        if (!$core->prepare('PDO::query')) {
            $handle->report(null, 'PDO::query');

            return false;
        }
        $core->status->errorCode = SqlState::NONE;
        if ($fetchMode !== null) {
            $core->fetch->setFetchMode($fetchMode, array_values($fetchModeArgs), 2, 'PDO::query', '($fetchMode)');
        }
        $core->status->errorCode = SqlState::NONE;
        if ($core->executeDirectly()) {
            StatementClass::construct($statement, $core, $handle->statementCtorArgs);

            return $statement;
        }
        $handle->queryError = new QueryError($core->status->errorCode, $core->status->driverError);
        $handle->reportQueryError($handle->queryError, 'PDO::query');

        return false;
    }

    /**
     * Quotes with mysql_real_escape_string() rules for the connection character set. The type
     * only matters for PDO::PARAM_STR_NATL (N'…').
     */
    public function quote(string $string, int $type = \PDO::PARAM_STR): string|false
    {
        $handle = $this->handle();
        $handle->clearError();

        return $handle->quote($string, $type);
    }

    public function setAttribute(int $attribute, mixed $value): bool
    {
        $handle = $this->handle();
        $handle->clearError();

        return Attributes::apply($handle, $attribute, $value);
    }

    /**
     * What var_dump() shows: the properties of a subclass, not Spindle's own state (a native PDO
     * shows none of its internals either).
     *
     * @return array<string, mixed>
     */
    public function __debugInfo(): array
    {
        $properties = (array) $this;
        unset($properties["\0" . self::class . "\0handle"]);

        return $properties;
    }

    // ---- pdo_pgsql's own methods ---------------------------------------------------------------
    // Untyped as PDO's stubs declare them (they exist on PDO only with pdo_pgsql); the arguments
    // are checked as pdo_pgsql checks them.

    /**
     * @param string      $tableName
     * @param array<mixed> $rows
     * @param string      $separator
     * @param string      $nullAs
     * @param string|null $fields
     */
    public function pgsqlCopyFromArray($tableName, $rows, $separator = "\t", $nullAs = "\\\\N", $fields = null): bool
    {
        if (!\is_array($rows)) {
            throw new \TypeError(sprintf('PDO::pgsqlCopyFromArray(): Argument #2 ($rows) must be of type array, %s given', get_debug_type($rows)));
        }

        return PgsqlMethods::copyFromArray($this->pgsqlHandle(__FUNCTION__), self::stringArgument(__FUNCTION__, 1, 'tableName', $tableName), $rows, self::stringArgument(__FUNCTION__, 3, 'separator', $separator), self::stringArgument(__FUNCTION__, 4, 'nullAs', $nullAs), self::nullableStringArgument(__FUNCTION__, 5, 'fields', $fields), 'PDO::pgsqlCopyFromArray');
    }

    /**
     * @param string      $tableName
     * @param string      $separator
     * @param string      $nullAs
     * @param string|null $fields
     *
     * @return list<string>|false
     */
    public function pgsqlCopyToArray($tableName, $separator = "\t", $nullAs = "\\\\N", $fields = null): array|false
    {
        return PgsqlMethods::copyToArray($this->pgsqlHandle(__FUNCTION__), self::stringArgument(__FUNCTION__, 1, 'tableName', $tableName), self::stringArgument(__FUNCTION__, 2, 'separator', $separator), self::stringArgument(__FUNCTION__, 3, 'nullAs', $nullAs), self::nullableStringArgument(__FUNCTION__, 4, 'fields', $fields), 'PDO::pgsqlCopyToArray');
    }

    /**
     * @param string      $tableName
     * @param string      $filename
     * @param string      $separator
     * @param string      $nullAs
     * @param string|null $fields
     */
    public function pgsqlCopyFromFile($tableName, $filename, $separator = "\t", $nullAs = "\\\\N", $fields = null): bool
    {
        return PgsqlMethods::copyFromFile($this->pgsqlHandle(__FUNCTION__), self::stringArgument(__FUNCTION__, 1, 'tableName', $tableName), self::stringArgument(__FUNCTION__, 2, 'filename', $filename), self::stringArgument(__FUNCTION__, 3, 'separator', $separator), self::stringArgument(__FUNCTION__, 4, 'nullAs', $nullAs), self::nullableStringArgument(__FUNCTION__, 5, 'fields', $fields), 'PDO::pgsqlCopyFromFile');
    }

    /**
     * @param string      $tableName
     * @param string      $filename
     * @param string      $separator
     * @param string      $nullAs
     * @param string|null $fields
     */
    public function pgsqlCopyToFile($tableName, $filename, $separator = "\t", $nullAs = "\\\\N", $fields = null): bool
    {
        return PgsqlMethods::copyToFile($this->pgsqlHandle(__FUNCTION__), self::stringArgument(__FUNCTION__, 1, 'tableName', $tableName), self::stringArgument(__FUNCTION__, 2, 'filename', $filename), self::stringArgument(__FUNCTION__, 3, 'separator', $separator), self::stringArgument(__FUNCTION__, 4, 'nullAs', $nullAs), self::nullableStringArgument(__FUNCTION__, 5, 'fields', $fields), 'PDO::pgsqlCopyToFile');
    }

    /**
     * @param int $fetchMode
     * @param int $timeoutMilliseconds
     *
     * @return array<int|string, int|string>|false
     */
    public function pgsqlGetNotify($fetchMode = \PDO::FETCH_DEFAULT, $timeoutMilliseconds = 0): array|false
    {
        if (!\is_int($fetchMode) || !\is_int($timeoutMilliseconds)) {
            throw new \TypeError('PDO::pgsqlGetNotify(): Arguments #1 ($fetchMode) and #2 ($timeoutMilliseconds) must be of type int');
        }

        return PgsqlMethods::getNotify($this->pgsqlHandle(__FUNCTION__), $fetchMode, $timeoutMilliseconds);
    }

    // Large objects: PgsqlLargeObjects (lo_* functions) and PgsqlLobStream.
    public function pgsqlLOBCreate(): string|false
    {
        return PgsqlLargeObjects::create($this->pgsqlHandle(__FUNCTION__));
    }

    /**
     * @param string $oid
     * @param string $mode
     *
     * @return resource|false
     */
    public function pgsqlLOBOpen($oid, $mode = 'rb')
    {
        return PgsqlLargeObjects::open($this->pgsqlHandle(__FUNCTION__), self::stringArgument(__FUNCTION__, 1, 'oid', $oid), self::stringArgument(__FUNCTION__, 2, 'mode', $mode));
    }

    /** @param string $oid */
    public function pgsqlLOBUnlink($oid): bool
    {
        return PgsqlLargeObjects::unlink($this->pgsqlHandle(__FUNCTION__), self::stringArgument(__FUNCTION__, 1, 'oid', $oid));
    }

    public function pgsqlGetPid(): int
    {
        $session = $this->pgsqlHandle(__FUNCTION__)->connection;

        return $session instanceof PgsqlLink ? $session->connectionId() : 0;
    }

    private static function stringArgument(string $method, int $position, string $name, mixed $value): string
    {
        if (\is_string($value) || \is_int($value) || \is_float($value)) {
            return (string) $value;
        }

        throw new \TypeError(sprintf('PDO::%s(): Argument #%d ($%s) must be of type string, %s given', $method, $position, $name, get_debug_type($value)));
    }

    private static function nullableStringArgument(string $method, int $position, string $name, mixed $value): ?string
    {
        return $value === null ? null : self::stringArgument($method, $position, $name, $value);
    }

    // ---- internals ----------------------------------------------------------------------------

    /** The handle, for pdo_pgsql's methods; on MySQL they do not exist, as with pdo_mysql. */
    private function pgsqlHandle(string $method): Handle
    {
        $handle = $this->handle();
        if ($handle->dialect !== Dialect::Pgsql) {
            throw new \Error(sprintf('Call to undefined method %s::%s()', static::class, $method));
        }

        return $handle;
    }

    private function handle(): Handle
    {
        return $this->handle ?? throw new \Error('PDO object is not initialized, constructor was not called');
    }

    /** @param array<int|string, mixed> $options */
    private function open(Handle $handle, array $options): void
    {
        $this->handle = $handle;
        $handle->autocommit = ConnectOptions::longOption($options, \PDO::ATTR_AUTOCOMMIT, 1) !== 0;
        $handle->errorMode = ErrorMode::tryFrom(ConnectOptions::longOption($options, \PDO::ATTR_ERRMODE, ErrorMode::Exception->value)) ?? ErrorMode::Exception;
        $handle->emulatePrepares = $handle->dialect === Dialect::Pgsql
            ? ConnectOptions::longOption($options, \PDO::ATTR_EMULATE_PREPARES, 0) !== 0
            : ConnectOptions::longOption($options, \PDO::ATTR_EMULATE_PREPARES, ConnectOptions::longOption($options, self::MYSQL_ATTR_DIRECT_QUERY, 1)) !== 0;
        $handle->assumeNationalStrings = ConnectOptions::longOption($options, \PDO::ATTR_DEFAULT_STR_PARAM, 0) === \PDO::PARAM_STR_NATL;
        $handle->buffered = $handle->dialect === Dialect::Pgsql || ConnectOptions::longOption($options, self::MYSQL_ATTR_USE_BUFFERED_QUERY, 1) !== 0;
        if (!$handle->autocommit && $handle->dialect === Dialect::Mysql) {
            try {
                $handle->query('SET AUTOCOMMIT=0');
            } catch (MysqlException $error) {
                throw Errors::connectFailed($error, false);
            }
        }

        $handle->constructing = true;
        try {
            foreach ($options as $attribute => $value) {
                if (\is_int($attribute)) {
                    Attributes::apply($handle, $attribute, $value);
                }
            }
        } finally {
            $handle->constructing = false;
        }
    }

    private function transactionCommand(Handle $handle, string $sql, string $where): bool
    {
        try {
            $results = $handle->query($sql);
        } catch (MysqlException $error) {
            $handle->failed($error);
            $handle->report(null, $where);

            return false;
        }
        $handle->lastInsertId = (string) $results[\count($results) - 1]->lastInsertId;

        return true;
    }

}
