<?php

declare(strict_types=1);

namespace Spindle\Database;

use Spindle\Database\Mysql\Connection;
use Spindle\Database\Mysql\ConnectionConfig;
use Spindle\Database\Mysql\MysqlException;
use Spindle\Database\Mysql\SocketConnection;
use Spindle\Database\Pdo\Charset;
use Spindle\Database\Pdo\Dsn;
use Spindle\Database\Pdo\ErrorMode;
use Spindle\Database\Pdo\Errors;
use Spindle\Database\Pdo\Escaper;
use Spindle\Database\Pdo\Handle;
use Spindle\Database\Pdo\QueryError;
use Spindle\Database\Pdo\SqlState;
use Spindle\Database\Pdo\Statement;
use Spindle\Database\Pdo\StatementClass;
use Spindle\Database\Pdo\StatementCore;

/**
 * A PDO for MySQL and MariaDB that talks to the server through Spindle's own connection, so a
 * query suspends only the fiber that runs it. Construct it exactly like PDO:
 *
 *     new Spindle\Database\Pdo('mysql:host=127.0.0.1;dbname=app;charset=utf8mb4', $user, $pass, $options);
 *
 * It behaves like pdo_mysql (PHP 8.2, mysqlnd): emulated prepares by default, the same fetch
 * modes, attributes, messages and error modes; docs/database.md lists the deliberate
 * differences. The native PDO object underneath is never initialised and every public method is
 * overridden, so the pdo_mysql extension need not be loaded; PDO::MYSQL_ATTR_* exist here as
 * Spindle\Database\Pdo::MYSQL_ATTR_* with the same values.
 *
 * One Pdo is one connection: use it from one fiber at a time (a second fiber calling while the
 * first waits for the server gets error 2014).
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

    /**
     * Constructor option (a string key, which PDO itself ignores): a
     * Closure(ConnectionConfig): Connection that opens the connection instead of
     * SocketConnection::connect(), e.g. to take it from a pool or, in tests, to return a fake.
     */
    public const ATTR_CONNECTOR = 'spindle.connector';

    private const DEFAULT_SOCKET = '/tmp/mysql.sock';

    private ?Handle $handle = null;

    /**
     * @param array<int|string, mixed>|null $options PDO attributes, PDO::MYSQL_ATTR_* (use
     *                                               self::MYSQL_ATTR_*) and self::ATTR_CONNECTOR
     */
    public function __construct(string $dsn, ?string $username = null, #[\SensitiveParameter] ?string $password = null, ?array $options = null)
    {
        $dataSource = self::dataSource($dsn);
        // Without options mysqlnd waits default_socket_timeout to connect; with them, ATTR_TIMEOUT or 30 s.
        $connectTimeout = $options === null ? (int) ini_get('default_socket_timeout') : self::longOption($options, \PDO::ATTR_TIMEOUT, 30);
        $options ??= [];
        $vars = Dsn::parse($dataSource);
        $connector = $options[self::ATTR_CONNECTOR] ?? null;
        if ($connector !== null && !$connector instanceof \Closure) {
            throw new \TypeError(sprintf('%s::ATTR_CONNECTOR must be a Closure(ConnectionConfig): Connection, %s given', self::class, get_debug_type($connector)));
        }

        $host = $vars->host();
        $socket = null;
        if ($host === 'localhost') {
            $socket = $vars->get('unix_socket') ?? self::defaultSocket();
        }
        $charset = $vars->get('charset');
        $initCommand = self::stringOption($options, self::MYSQL_ATTR_INIT_COMMAND);
        $settings = [
            'host' => $host,
            'port' => $vars->port(),
            'unixSocket' => $socket,
            'user' => $username ?? $vars->get('user') ?? '',
            'password' => $password ?? $vars->get('password') ?? '',
            'database' => ($vars->get('dbname') ?? '') === '' ? null : $vars->get('dbname'),
            'charset' => $charset ?? 'utf8mb4',
            'connectTimeout' => (float) $connectTimeout,
            'allowLocalInfile' => self::longOption($options, self::MYSQL_ATTR_LOCAL_INFILE, 0) !== 0,
            'tls' => self::tlsOptions($options),
            'serverPublicKey' => self::serverPublicKey($options),
            'multiStatements' => self::longOption($options, self::MYSQL_ATTR_MULTI_STATEMENTS, 1) !== 0,
            'localInfileDirectory' => self::localInfileDirectory($options),
            'foundRows' => self::longOption($options, self::MYSQL_ATTR_FOUND_ROWS, 0) !== 0,
            'ignoreSpace' => self::longOption($options, self::MYSQL_ATTR_IGNORE_SPACE, 0) !== 0,
        ];
        $config = new ConnectionConfig(...$settings, initCommands: $initCommand === null ? [] : [$initCommand]);

        if ($connector !== null) {
            // The connector runs the init command (it is in the config it gets).
            try {
                $connection = $connector($config);
            } catch (MysqlException $error) {
                throw Errors::connectFailed($error, true);
            }
            if (!$connection instanceof Connection) {
                throw new \TypeError(sprintf('%s::ATTR_CONNECTOR must return a %s, %s returned', self::class, Connection::class, get_debug_type($connection)));
            }
        } else {
            // The init command runs here rather than in connect(), so that its errors keep their
            // SQLSTATE while those of the handshake read HY000, as with mysqlnd.
            try {
                $connection = SocketConnection::connect(new ConnectionConfig(...$settings));
            } catch (MysqlException $error) {
                throw Errors::connectFailed($error, true);
            }
            try {
                if ($initCommand !== null) {
                    $connection->query($initCommand);
                }
            } catch (MysqlException $error) {
                $connection->close();
                throw Errors::connectFailed($error, false);
            }
        }

        $this->open(new Handle(
            $connection,
            new Escaper(Charset::fromName($charset ?? 'utf8mb4')),
            $socket !== null ? 'Localhost via UNIX socket' : $host . ' via TCP/IP',
            $config->allowLocalInfile,
            self::localInfileDirectory($options),
        ), $options);
    }

    /**
     * A Pdo over a connection that is already open (a pooled one, or a fake in tests). The
     * options are applied as the constructor applies them; the DSN only tells the character set
     * used for quoting and what ATTR_CONNECTION_STATUS reports. The Pdo owns the connection from
     * now on and closes it when it is gone.
     *
     * @param array<int|string, mixed> $options
     */
    public static function fromConnection(Connection $connection, array $options = [], string $dsn = 'mysql:host=127.0.0.1;charset=utf8mb4'): self
    {
        $vars = Dsn::parse(self::dataSource($dsn));
        $pdo = (new \ReflectionClass(self::class))->newInstanceWithoutConstructor();
        $socket = $vars->host() === 'localhost';
        $pdo->open(new Handle(
            $connection,
            new Escaper(Charset::fromName($vars->get('charset') ?? 'utf8mb4')),
            $socket ? 'Localhost via UNIX socket' : $vars->host() . ' via TCP/IP',
            self::longOption($options, self::MYSQL_ATTR_LOCAL_INFILE, 0) !== 0,
            self::localInfileDirectory($options),
        ), $options);

        return $pdo;
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

        return $this->transactionCommand($handle, 'COMMIT', 'PDO::commit');
    }

    public function rollBack(): bool
    {
        $handle = $this->handle();
        if (!$handle->inTransaction()) {
            throw Errors::plain('There is no active transaction');
        }

        return $this->transactionCommand($handle, 'ROLLBACK', 'PDO::rollBack');
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
            return Handle::errorInfo($handle->queryError->sqlState, $handle->queryError->driverError);
        }

        return Handle::errorInfo($handle->errorCode, $handle->driverError);
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
        $handle = $this->handle();
        $handle->clearError();
        switch ($attribute) {
            case \PDO::ATTR_PERSISTENT:
                return false;
            case \PDO::ATTR_CASE:
                return $handle->case;
            case \PDO::ATTR_ORACLE_NULLS:
                return $handle->oracleNulls;
            case \PDO::ATTR_ERRMODE:
                return $handle->errorMode->value;
            case \PDO::ATTR_DRIVER_NAME:
                return 'mysql';
            case \PDO::ATTR_STATEMENT_CLASS:
                return $handle->statementCtorArgs === null ? [$handle->statementClass] : [$handle->statementClass, $handle->statementCtorArgs];
            case \PDO::ATTR_DEFAULT_FETCH_MODE:
                return $handle->defaultFetchMode;
            case \PDO::ATTR_CLIENT_VERSION:
                return 'mysqlnd ' . \PHP_VERSION;
            case \PDO::ATTR_SERVER_VERSION:
                return $handle->connection->serverVersion();
            case \PDO::ATTR_CONNECTION_STATUS:
                return $handle->hostInfo;
            case \PDO::ATTR_SERVER_INFO:
                return $this->serverInfo($handle);
            case \PDO::ATTR_AUTOCOMMIT:
                return (int) $handle->autocommit;
            case \PDO::ATTR_DEFAULT_STR_PARAM:
                return $handle->assumeNationalStrings ? \PDO::PARAM_STR_NATL : \PDO::PARAM_STR_CHAR;
            case \PDO::ATTR_STRINGIFY_FETCHES:
                return $handle->stringify;
            case self::MYSQL_ATTR_USE_BUFFERED_QUERY:
                return (int) $handle->buffered;
            case \PDO::ATTR_EMULATE_PREPARES:
            case self::MYSQL_ATTR_DIRECT_QUERY:
                return (int) $handle->emulatePrepares;
            case self::MYSQL_ATTR_LOCAL_INFILE:
                return $handle->localInfile;
            case self::MYSQL_ATTR_LOCAL_INFILE_DIRECTORY:
                return $handle->localInfileDirectory;
        }
        $handle->raise(null, 'IM001', 'driver does not support that attribute', 'PDO::getAttribute');

        return false;
    }

    /** @return list<string> */
    public static function getAvailableDrivers(): array
    {
        return ['mysql'];
    }

    /** The AUTO_INCREMENT value of the last statement that generated one ("0" after any other). */
    /** @return string */
    public function lastInsertId(?string $name = null): string|false
    {
        $handle = $this->handle();
        $handle->clearError();

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
        if (!$core->prepare('PDO::prepare')) {
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
        $core->errorCode = SqlState::NONE;
        if ($fetchMode !== null) {
            $core->setFetchMode($fetchMode, array_values($fetchModeArgs), 2, 'PDO::query', '($fetchMode)');
        }
        $core->errorCode = SqlState::NONE;
        if ($core->executeDirectly()) {
            StatementClass::construct($statement, $core, $handle->statementCtorArgs);

            return $statement;
        }
        $handle->queryError = new QueryError($core->errorCode, $core->driverError);
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

        return $this->applyAttribute($handle, $attribute, $value);
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

    // ---- internals ----------------------------------------------------------------------------

    private function handle(): Handle
    {
        return $this->handle ?? throw new \Error('PDO object is not initialized, constructor was not called');
    }

    /** @param array<int|string, mixed> $options */
    private function open(Handle $handle, array $options): void
    {
        $this->handle = $handle;
        $handle->autocommit = self::longOption($options, \PDO::ATTR_AUTOCOMMIT, 1) !== 0;
        $handle->errorMode = ErrorMode::tryFrom(self::longOption($options, \PDO::ATTR_ERRMODE, ErrorMode::Exception->value)) ?? ErrorMode::Exception;
        $handle->emulatePrepares = self::longOption($options, \PDO::ATTR_EMULATE_PREPARES, self::longOption($options, self::MYSQL_ATTR_DIRECT_QUERY, 1)) !== 0;
        $handle->assumeNationalStrings = self::longOption($options, \PDO::ATTR_DEFAULT_STR_PARAM, 0) === \PDO::PARAM_STR_NATL;
        $handle->buffered = self::longOption($options, self::MYSQL_ATTR_USE_BUFFERED_QUERY, 1) !== 0;
        if (!$handle->autocommit) {
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
                    $this->applyAttribute($handle, $attribute, $value);
                }
            }
        } finally {
            $handle->constructing = false;
        }
    }

    /** pdo_dbh_attribute_set(): the generic attributes, then pdo_mysql's. */
    private function applyAttribute(Handle $handle, int $attribute, mixed $value): bool
    {
        switch ($attribute) {
            case \PDO::ATTR_ERRMODE:
                $mode = ErrorMode::tryFrom(self::longParam($value))
                    ?? throw new \ValueError('Error mode must be one of the PDO::ERRMODE_* constants');
                $handle->errorMode = $mode;

                return true;
            case \PDO::ATTR_CASE:
                $case = self::longParam($value);
                if (!\in_array($case, [\PDO::CASE_NATURAL, \PDO::CASE_UPPER, \PDO::CASE_LOWER], true)) {
                    throw new \ValueError('Case folding mode must be one of the PDO::CASE_* constants');
                }
                $handle->case = $case;

                return true;
            case \PDO::ATTR_ORACLE_NULLS:
                $handle->oracleNulls = self::longParam($value);

                return true;
            case \PDO::ATTR_DEFAULT_FETCH_MODE:
                if (\is_array($value)) {
                    if (\in_array($value[0] ?? null, [\PDO::FETCH_INTO, \PDO::FETCH_CLASS], true)) {
                        throw new \ValueError('PDO::FETCH_INTO and PDO::FETCH_CLASS cannot be set as the default fetch mode');
                    }
                    $mode = $value === [] ? 0 : 1;
                } else {
                    $mode = self::longParam($value);
                }
                if ($mode === \PDO::FETCH_DEFAULT) {
                    throw new \ValueError('Fetch mode must be a bitmask of PDO::FETCH_* constants');
                }
                $handle->defaultFetchMode = $mode;

                return true;
            case \PDO::ATTR_STRINGIFY_FETCHES:
                $handle->stringify = self::boolParam($value);

                return true;
            case \PDO::ATTR_STATEMENT_CLASS:
                [$handle->statementClass, $handle->statementCtorArgs] = StatementClass::fromAttribute($value);

                return true;
        }

        $handle->clearError();
        switch ($attribute) {
            case \PDO::ATTR_AUTOCOMMIT:
                $autocommit = self::boolParam($value);
                if ($autocommit !== $handle->autocommit) {
                    $handle->autocommit = $autocommit;
                    try {
                        $handle->query($autocommit ? 'SET AUTOCOMMIT=1' : 'SET AUTOCOMMIT=0');
                        $handle->lastInsertId = '0';
                    } catch (MysqlException $error) {
                        $handle->failed($error);
                        $handle->report(null, 'PDO::setAttribute');

                        return false;
                    }
                }

                return true;
            case \PDO::ATTR_DEFAULT_STR_PARAM:
                $handle->assumeNationalStrings = self::longParam($value) === \PDO::PARAM_STR_NATL;

                return true;
            case self::MYSQL_ATTR_USE_BUFFERED_QUERY:
                $handle->buffered = self::boolParam($value);

                return true;
            case self::MYSQL_ATTR_DIRECT_QUERY:
            case \PDO::ATTR_EMULATE_PREPARES:
                $handle->emulatePrepares = self::boolParam($value);

                return true;
            case \PDO::ATTR_FETCH_TABLE_NAMES:
                $handle->fetchTableNames = self::boolParam($value);

                return true;
        }

        return false;
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

    /** mysqlnd answers COM_STATISTICS; the same line, built from SHOW GLOBAL STATUS. */
    private function serverInfo(Handle $handle): string|false
    {
        try {
            $results = $handle->query("SHOW GLOBAL STATUS WHERE Variable_name IN ('Uptime', 'Threads_connected', 'Questions', 'Slow_queries', 'Opened_tables', 'Flush_commands', 'Open_tables')");
        } catch (MysqlException $error) {
            $handle->failed($error);
            $handle->report(null, 'PDO::getAttribute');

            return false;
        }
        $status = [];
        foreach ($results[0]->rows as $row) {
            $status[(string) $row[0]] = (string) ($row[1] ?? '0');
        }
        $uptime = (int) ($status['Uptime'] ?? 0);
        $line = sprintf('Uptime: %d  Threads: %d  Questions: %d  Slow queries: %d  Opens: %d', $uptime, (int) ($status['Threads_connected'] ?? 0), (int) ($status['Questions'] ?? 0), (int) ($status['Slow_queries'] ?? 0), (int) ($status['Opened_tables'] ?? 0));
        if (isset($status['Flush_commands'])) {
            $line .= sprintf('  Flush tables: %d', (int) $status['Flush_commands']);
        }

        return $line . sprintf('  Open tables: %d  Queries per second avg: %.3f', (int) ($status['Open_tables'] ?? 0), $uptime > 0 ? (int) ($status['Questions'] ?? 0) / $uptime : 0);
    }

    /** The part after "mysql:", resolving php.ini aliases and "uri:" files like PDO. */
    private static function dataSource(string $dsn): string
    {
        // PDO reads the DSN as a C string: nothing after a NUL byte counts.
        $dsn = explode("\0", $dsn, 2)[0];
        if (!str_contains($dsn, ':')) {
            $alias = get_cfg_var('pdo.dsn.' . $dsn);
            if (!\is_string($alias)) {
                throw Errors::exception('PDO::__construct(): Argument #1 ($dsn) must be a valid data source name', 0, null);
            }
            if (!str_contains($alias, ':')) {
                throw Errors::exception(sprintf('invalid data source name (via INI: pdo.dsn.%s)', $dsn), 0, null);
            }
            $dsn = $alias;
        }
        if (str_starts_with($dsn, 'uri:')) {
            $stream = @fopen(substr($dsn, 4), 'rb');
            $line = $stream === false ? false : fgets($stream, 512);
            if ($stream !== false) {
                fclose($stream);
            }
            if ($line === false) {
                throw Errors::exception('PDO::__construct(): Argument #1 ($dsn) must be a valid data source URI', 0, null);
            }
            $dsn = $line;
            if (!str_contains($dsn, ':')) {
                throw Errors::exception('PDO::__construct(): Argument #1 ($dsn) must be a valid data source name (via URI)', 0, null);
            }
        }
        [$driver, $dataSource] = explode(':', $dsn, 2);
        if ($driver !== 'mysql') {
            // Like PDO, do not repeat the DSN: it may hold a password.
            throw Errors::exception('could not find driver', 0, null);
        }

        return $dataSource;
    }


    /**
     * MYSQL_ATTR_SSL_* as stream context ssl options; null when none is set (no TLS).
     *
     * @param array<int|string, mixed> $options
     *
     * @return array<string, mixed>|null
     */
    private static function tlsOptions(array $options): ?array
    {
        $map = [
            self::MYSQL_ATTR_SSL_KEY => 'local_pk',
            self::MYSQL_ATTR_SSL_CERT => 'local_cert',
            self::MYSQL_ATTR_SSL_CA => 'cafile',
            self::MYSQL_ATTR_SSL_CAPATH => 'capath',
            self::MYSQL_ATTR_SSL_CIPHER => 'ciphers',
        ];
        $tls = [];
        foreach ($map as $attribute => $option) {
            $value = self::stringOption($options, $attribute);
            if ($value !== null) {
                $tls[$option] = $value;
            }
        }
        if (\array_key_exists(self::MYSQL_ATTR_SSL_VERIFY_SERVER_CERT, $options)) {
            $verify = self::longOption($options, self::MYSQL_ATTR_SSL_VERIFY_SERVER_CERT, 1) !== 0;
            $tls['verify_peer'] = $verify;
            $tls['verify_peer_name'] = $verify;
        }

        return $tls === [] ? null : $tls;
    }

    /**
     * The LOCAL INFILE directory; an empty one (null, '') is none, as in pdo_mysql.
     *
     * @param array<int|string, mixed> $options
     */
    private static function localInfileDirectory(array $options): ?string
    {
        $directory = self::stringOption($options, self::MYSQL_ATTR_LOCAL_INFILE_DIRECTORY);

        return $directory === '' ? null : $directory;
    }

    /** @param array<int|string, mixed> $options */
    private static function serverPublicKey(array $options): ?string
    {
        $path = self::stringOption($options, self::MYSQL_ATTR_SERVER_PUBLIC_KEY);
        if ($path === null) {
            return null;
        }
        $key = @file_get_contents($path);

        return $key === false ? null : $key;
    }

    private static function defaultSocket(): string
    {
        foreach (['pdo_mysql.default_socket', 'mysqli.default_socket'] as $setting) {
            $socket = ini_get($setting);
            if (\is_string($socket) && $socket !== '') {
                return $socket;
            }
        }

        return self::DEFAULT_SOCKET;
    }

    /**
     * pdo_attr_lval(): an option as an integer, loosely converted.
     *
     * @param array<int|string, mixed> $options
     */
    private static function longOption(array $options, int $attribute, int $default): int
    {
        if (!\array_key_exists($attribute, $options)) {
            return $default;
        }
        $value = $options[$attribute];

        return match (true) {
            \is_int($value) => $value,
            \is_bool($value), \is_float($value), \is_null($value) => (int) $value,
            \is_string($value) => (int) $value,
            \is_array($value) => $value === [] ? 0 : 1,
            // zval_get_long() warns, and the constructor turns the warning into a PDOException.
            \is_object($value) => throw Errors::exception(sprintf('Object of class %s could not be converted to int', $value::class), 0, null),
            default => 1,
        };
    }

    /**
     * pdo_attr_strval()
     *
     * @param array<int|string, mixed> $options
     */
    private static function stringOption(array $options, int $attribute): ?string
    {
        if (!\array_key_exists($attribute, $options)) {
            return null;
        }
        $value = $options[$attribute];
        if (\is_array($value) || (\is_object($value) && !$value instanceof \Stringable)) {
            return null;
        }

        return \is_scalar($value) || $value instanceof \Stringable ? (string) $value : '';
    }

    /** pdo_get_long_param() */
    private static function longParam(mixed $value): int
    {
        if (\is_int($value) || \is_bool($value)) {
            return (int) $value;
        }
        if (\is_string($value) && preg_match('/^[ \t\n\r\v\f]*[+-]?[0-9]+[ \t\n\r\v\f]*$/', $value) === 1) {
            return (int) $value;
        }

        throw new \TypeError(sprintf('Attribute value must be of type int for selected attribute, %s given', get_debug_type($value)));
    }

    /** pdo_get_bool_param() */
    private static function boolParam(mixed $value): bool
    {
        if (\is_bool($value) || \is_int($value)) {
            return (bool) $value;
        }

        throw new \TypeError(sprintf('Attribute value must be of type bool for selected attribute, %s given', get_debug_type($value)));
    }
}
