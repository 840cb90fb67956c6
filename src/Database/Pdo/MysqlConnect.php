<?php

declare(strict_types=1);

namespace Spindle\Database\Pdo;

use Spindle\Database\Mysql\Connection;
use Spindle\Database\Mysql\ConnectionConfig;
use Spindle\Database\Mysql\MysqlException;
use Spindle\Database\Mysql\SocketConnection;
use Spindle\Database\Mysql\StatementCacheStats;
use Spindle\Database\Pdo;

/**
 * Opens the MySQL/MariaDB session of a "mysql:" DSN as pdo_mysql (mysqlnd) does: host, port,
 * dbname, charset and unix_socket from the DSN (host "localhost" is the unix socket), the
 * constructor's user and password over the DSN's, the PDO::MYSQL_ATTR_* options (TLS, LOCAL
 * INFILE, init command, multi statements, found rows…), and Pdo::ATTR_CONNECTOR in place of a
 * socket of its own. The handle it returns carries the connection, its quoting and what
 * ATTR_CONNECTION_STATUS reports.
 *
 * @internal
 */
final class MysqlConnect
{
    private function __construct()
    {
    }

    /**
     * @param array<int|string, mixed>|null $options null: no options at all (then mysqlnd waits
     *                                               default_socket_timeout to connect)
     *
     * @throws \PDOException as pdo_mysql's constructor throws it when the connection fails
     */
    public static function open(string $dataSource, ?string $username, #[\SensitiveParameter] ?string $password, ?array $options): Handle
    {
        // Without options mysqlnd waits default_socket_timeout to connect; with them, ATTR_TIMEOUT or 30 s.
        $connectTimeout = $options === null ? (int) \ini_get('default_socket_timeout') : ConnectOptions::longOption($options, \PDO::ATTR_TIMEOUT, 30);
        $options ??= [];
        $vars = Dsn::parse($dataSource);
        $connector = $options[Pdo::ATTR_CONNECTOR] ?? null;
        if ($connector !== null && !$connector instanceof \Closure) {
            throw new \TypeError(\sprintf('%s::ATTR_CONNECTOR must be a Closure(ConnectionConfig): Connection, %s given', Pdo::class, \get_debug_type($connector)));
        }

        $host = $vars->host();
        $socket = null;
        if ($host === 'localhost') {
            $socket = $vars->get('unix_socket') ?? ConnectOptions::defaultSocket();
        }
        $charset = $vars->get('charset');
        $initCommand = ConnectOptions::stringOption($options, Pdo::MYSQL_ATTR_INIT_COMMAND);
        $settings = [
            'host' => $host,
            'port' => $vars->port(),
            'unixSocket' => $socket,
            'user' => $username ?? $vars->get('user') ?? '',
            'password' => $password ?? $vars->get('password') ?? '',
            'database' => ($vars->get('dbname') ?? '') === '' ? null : $vars->get('dbname'),
            'charset' => $charset ?? 'utf8mb4',
            'connectTimeout' => (float) $connectTimeout,
            'allowLocalInfile' => ConnectOptions::longOption($options, Pdo::MYSQL_ATTR_LOCAL_INFILE, 0) !== 0,
            'tls' => ConnectOptions::tlsOptions($options),
            'serverPublicKey' => ConnectOptions::serverPublicKey($options),
            'multiStatements' => ConnectOptions::longOption($options, Pdo::MYSQL_ATTR_MULTI_STATEMENTS, 1) !== 0,
            'localInfileDirectory' => ConnectOptions::localInfileDirectory($options),
            'foundRows' => ConnectOptions::longOption($options, Pdo::MYSQL_ATTR_FOUND_ROWS, 0) !== 0,
            'ignoreSpace' => ConnectOptions::longOption($options, Pdo::MYSQL_ATTR_IGNORE_SPACE, 0) !== 0,
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
                throw new \TypeError(\sprintf('%s::ATTR_CONNECTOR must return a %s, %s returned', Pdo::class, Connection::class, \get_debug_type($connection)));
            }
        } else {
            // The init command runs here rather than in connect(), so that its errors keep their
            // SQLSTATE while those of the handshake read HY000, as with mysqlnd.
            try {
                $connection = SocketConnection::connect(new ConnectionConfig(...$settings));
            } catch (MysqlException $error) {
                throw Errors::connectFailed($error, true);
            }
            $keep = $options[Pdo::ATTR_STATEMENT_CACHE] ?? 0;
            if (!\is_int($keep) || $keep < 0) {
                $connection->close();
                throw new \PDOException(\sprintf('%s::ATTR_STATEMENT_CACHE must be a whole number of statements (0: none kept), %s given', Pdo::class, \get_debug_type($keep)));
            }
            if ($keep > 0) {
                $connection->keepStatements($keep, new StatementCacheStats());
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

        return new Handle(
            $connection,
            new Escaper(Charset::fromName($charset ?? 'utf8mb4')),
            $socket !== null ? 'Localhost via UNIX socket' : $host . ' via TCP/IP',
            $config->allowLocalInfile,
            ConnectOptions::localInfileDirectory($options),
        );
    }

    /**
     * The handle of a Pdo over $connection, already open: the DSN tells only the character set
     * used for quoting and what ATTR_CONNECTION_STATUS reports.
     *
     * @param array<int|string, mixed> $options
     */
    public static function over(Connection $connection, array $options, string $dsn): Handle
    {
        $vars = Dsn::parse(ConnectOptions::dataSource($dsn));

        return new Handle(
            $connection,
            new Escaper(Charset::fromName($vars->get('charset') ?? 'utf8mb4')),
            $vars->host() === 'localhost' ? 'Localhost via UNIX socket' : $vars->host() . ' via TCP/IP',
            ConnectOptions::longOption($options, Pdo::MYSQL_ATTR_LOCAL_INFILE, 0) !== 0,
            ConnectOptions::localInfileDirectory($options),
        );
    }
}
