<?php

declare(strict_types=1);

namespace Spindle\Database\Pdo;

use Spindle\Database\Pgsql\Connection;
use Spindle\Database\Pgsql\ConnectionConfig;
use Spindle\Database\Pgsql\PgsqlException;
use Spindle\Database\Pgsql\SslMode;

/**
 * Opens the PostgreSQL session of a "pgsql:" DSN as pdo_pgsql does: the DSN is a libpq
 * connection string with ";" for blanks ("host=db;port=5432;dbname=app;sslmode=require"), the
 * constructor's user and password win over the DSN's (an empty user is the OS user's name, as
 * in libpq), PDO::ATTR_TIMEOUT is connect_timeout
 * (30 s by default). Without host, the unix socket in /var/run/postgresql.
 *
 * @internal
 */
final class PgsqlConnect
{
    public const DEFAULT_SOCKET_DIR = '/var/run/postgresql';

    private function __construct()
    {
    }

    /**
     * @param array<int|string, mixed> $options
     *
     * @throws \PDOException SQLSTATE[08006] [7] … when the connection fails
     */
    public static function open(string $dataSource, ?string $username, #[\SensitiveParameter] ?string $password, array $options): Connection
    {
        try {
            $config = self::config($dataSource, $username, $password, $options);
        } catch (\InvalidArgumentException $e) {
            throw self::failed($e->getMessage());
        }
        try {
            return Connection::connect($config);
        } catch (PgsqlException $e) {
            throw self::failed($e->getMessage());
        }
    }

    /**
     * open(), or the connector's connection (Pdo::ATTR_CONNECTOR: a
     * Closure(ConnectionConfig): PgsqlLink|Connection that opens it instead, a pooled one).
     *
     * @param array<int|string, mixed> $options
     *
     * @throws \PDOException SQLSTATE[08006] [7] … when the connection fails
     */
    public static function connect(string $dataSource, ?string $username, #[\SensitiveParameter] ?string $password, array $options, mixed $connector): Connection|PgsqlLink
    {
        if ($connector === null) {
            return self::open($dataSource, $username, $password, $options);
        }
        if (!$connector instanceof \Closure) {
            throw new \TypeError(\sprintf('%s::ATTR_CONNECTOR must be a Closure(ConnectionConfig): %s|%s, %s given', \Spindle\Database\Pdo::class, PgsqlLink::class, Connection::class, \get_debug_type($connector)));
        }
        try {
            $config = self::config($dataSource, $username, $password, $options);
        } catch (\InvalidArgumentException $e) {
            throw self::failed($e->getMessage());
        }
        try {
            $connection = $connector($config);
        } catch (PgsqlException $e) {
            throw self::failed($e->getMessage());
        }
        if (!$connection instanceof Connection && !$connection instanceof PgsqlLink) {
            throw new \TypeError(\sprintf('%s::ATTR_CONNECTOR must return a %s or %s, %s returned', \Spindle\Database\Pdo::class, PgsqlLink::class, Connection::class, \get_debug_type($connection)));
        }

        return $connection;
    }

    /** @param array<int|string, mixed> $options */
    public static function config(string $dataSource, ?string $username, #[\SensitiveParameter] ?string $password, array $options): ConnectionConfig
    {
        $values = self::parse(str_replace(';', ' ', $dataSource));
        $timeout = (float) ConnectOptions::longOption($options, \PDO::ATTR_TIMEOUT, (int) ($values['connect_timeout'] ?? 30));
        $host = $values['host'] ?? $values['hostaddr'] ?? '';
        if ($host === '') {
            $host = self::DEFAULT_SOCKET_DIR;
        }
        // An empty user (DBAL passes '' when a URL names none) is libpq's default: the OS user.
        $user = $username ?? $values['user'] ?? '';
        if ($user === '') {
            $user = \function_exists('posix_getpwuid') ? (posix_getpwuid(posix_geteuid())['name'] ?? 'postgres') : 'postgres';
        }
        $parameters = [];
        foreach (['application_name', 'options', 'search_path'] as $name) {
            if (isset($values[$name])) {
                $parameters[$name] = $values[$name];
            }
        }
        $tls = [];
        if (isset($values['sslcert'])) {
            $tls['local_cert'] = $values['sslcert'];
        }
        if (isset($values['sslkey'])) {
            $tls['local_pk'] = $values['sslkey'];
        }

        return new ConnectionConfig(
            host: $host,
            port: (int) ($values['port'] ?? 5432),
            user: $user,
            password: $password ?? $values['password'] ?? '',
            database: $values['dbname'] ?? null,
            sslMode: SslMode::fromName($values['sslmode'] ?? 'prefer'),
            sslRootCert: $values['sslrootcert'] ?? null,
            tls: $tls,
            connectTimeout: $timeout > 0 ? $timeout : 0.0,
            parameters: $parameters,
        );
    }

    /**
     * A libpq connection string: key=value pairs separated by blanks, values in single quotes
     * where they hold blanks (with \' and \\ inside).
     *
     * @return array<string, string>
     */
    public static function parse(string $conninfo): array
    {
        $values = [];
        $length = \strlen($conninfo);
        $i = 0;
        while (true) {
            $i += strspn($conninfo, " \t\n\r\f\v", $i);
            if ($i >= $length) {
                return $values;
            }
            $equals = strpos($conninfo, '=', $i);
            if ($equals === false) {
                throw new \InvalidArgumentException(sprintf('missing "=" after "%s" in connection info string', substr($conninfo, $i)));
            }
            $key = rtrim(substr($conninfo, $i, $equals - $i));
            $i = $equals + 1;
            $i += strspn($conninfo, " \t\n\r\f\v", $i);
            $value = '';
            if ($i < $length && $conninfo[$i] === "'") {
                ++$i;
                while (true) {
                    if ($i >= $length) {
                        throw new \InvalidArgumentException('unterminated quoted string in connection info string');
                    }
                    $char = $conninfo[$i];
                    if ($char === '\\' && $i + 1 < $length) {
                        $value .= $conninfo[$i + 1];
                        $i += 2;
                        continue;
                    }
                    ++$i;
                    if ($char === "'") {
                        break;
                    }
                    $value .= $char;
                }
            } else {
                while ($i < $length && strpos(" \t\n\r\f\v", $conninfo[$i]) === false) {
                    if ($conninfo[$i] === '\\' && $i + 1 < $length) {
                        ++$i;
                    }
                    $value .= $conninfo[$i];
                    ++$i;
                }
            }
            $values[$key] = $value;
        }
    }

    private static function failed(string $message): \PDOException
    {
        return Errors::exception(sprintf('SQLSTATE[08006] [7] %s', $message), 7, ['08006', 7, $message]);
    }
}
