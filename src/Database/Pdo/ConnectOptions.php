<?php

declare(strict_types=1);

namespace Spindle\Database\Pdo;

use Spindle\Database\Pdo;

/**
 * The DSN and the constructor options of a Spindle\Database\Pdo as pdo_mysql reads them: the
 * data source after "mysql:" (ini aliases, "uri:" files, a NUL byte ends it), integer and string
 * options loosely converted as PDO does, TLS options, the LOCAL INFILE directory, the socket.
 *
 * @internal
 */
final class ConnectOptions
{
    private const DEFAULT_SOCKET = '/tmp/mysql.sock';

    private function __construct()
    {
    }

    /** The part after "mysql:", resolving php.ini aliases and "uri:" files like PDO. */
    public static function dataSource(string $dsn): string
    {
        [$dialect, $dataSource] = self::split($dsn);
        if ($dialect !== Dialect::Mysql) {
            throw Errors::exception('could not find driver', 0, null);
        }

        return $dataSource;
    }

    /**
     * The driver ("mysql:" or "pgsql:") and the part after it, resolving php.ini aliases and
     * "uri:" files like PDO.
     *
     * @return array{Dialect, string}
     */
    public static function split(string $dsn): array
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
        $dialect = Dialect::tryFrom($driver);
        if ($dialect === null) {
            // Like PDO, do not repeat the DSN: it may hold a password.
            throw Errors::exception('could not find driver', 0, null);
        }

        return [$dialect, $dataSource];
    }

    /**
     * MYSQL_ATTR_SSL_* as stream context ssl options; null when none is set (no TLS).
     *
     * @param array<int|string, mixed> $options
     *
     * @return array<string, mixed>|null
     */
    public static function tlsOptions(array $options): ?array
    {
        $map = [
            Pdo::MYSQL_ATTR_SSL_KEY => 'local_pk',
            Pdo::MYSQL_ATTR_SSL_CERT => 'local_cert',
            Pdo::MYSQL_ATTR_SSL_CA => 'cafile',
            Pdo::MYSQL_ATTR_SSL_CAPATH => 'capath',
            Pdo::MYSQL_ATTR_SSL_CIPHER => 'ciphers',
        ];
        $tls = [];
        foreach ($map as $attribute => $option) {
            $value = self::stringOption($options, $attribute);
            if ($value !== null) {
                $tls[$option] = $value;
            }
        }
        if (\array_key_exists(Pdo::MYSQL_ATTR_SSL_VERIFY_SERVER_CERT, $options)) {
            $verify = self::longOption($options, Pdo::MYSQL_ATTR_SSL_VERIFY_SERVER_CERT, 1) !== 0;
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
    public static function localInfileDirectory(array $options): ?string
    {
        $directory = self::stringOption($options, Pdo::MYSQL_ATTR_LOCAL_INFILE_DIRECTORY);

        return $directory === '' ? null : $directory;
    }

    /** @param array<int|string, mixed> $options */
    public static function serverPublicKey(array $options): ?string
    {
        $path = self::stringOption($options, Pdo::MYSQL_ATTR_SERVER_PUBLIC_KEY);
        if ($path === null) {
            return null;
        }
        $key = @file_get_contents($path);

        return $key === false ? null : $key;
    }

    public static function defaultSocket(): string
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
    public static function longOption(array $options, int $attribute, int $default): int
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
    public static function stringOption(array $options, int $attribute): ?string
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
}
