<?php

declare(strict_types=1);

namespace Spindle\Database\Pdo;

use Spindle\Database\Mysql\MysqlException;
use Spindle\Database\Pdo;

/**
 * PDO attributes of a Spindle\Database\Pdo: reading them (PDO::getAttribute()) and setting
 * them (PDO::setAttribute() and the constructor's options), with PDO's own checks of the value.
 *
 * @internal
 */
final class Attributes
{
    private function __construct()
    {
    }

    /** PDO::getAttribute() */
    public static function get(Handle $handle, int $attribute): mixed
    {
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
                return $handle->dialect->value;
            case \PDO::ATTR_STATEMENT_CLASS:
                return $handle->statementCtorArgs === null ? [$handle->statementClass] : [$handle->statementClass, $handle->statementCtorArgs];
            case \PDO::ATTR_DEFAULT_FETCH_MODE:
                return $handle->defaultFetchMode;
            case \PDO::ATTR_STRINGIFY_FETCHES:
                return $handle->stringify;
        }
        if ($handle->dialect === Dialect::Pgsql) {
            [$known, $value] = PgsqlAttributes::get($handle, $attribute);
            if ($known) {
                return $value;
            }
            $handle->raise(null, 'IM001', 'driver does not support that attribute', 'PDO::getAttribute');

            return false;
        }
        switch ($attribute) {
            case \PDO::ATTR_CLIENT_VERSION:
                return 'mysqlnd ' . \PHP_VERSION;
            case \PDO::ATTR_SERVER_VERSION:
                return $handle->connection->serverVersion();
            case \PDO::ATTR_CONNECTION_STATUS:
                return $handle->hostInfo;
            case \PDO::ATTR_SERVER_INFO:
                return self::serverInfo($handle);
            case \PDO::ATTR_AUTOCOMMIT:
                return (int) $handle->autocommit;
            case \PDO::ATTR_DEFAULT_STR_PARAM:
                return $handle->assumeNationalStrings ? \PDO::PARAM_STR_NATL : \PDO::PARAM_STR_CHAR;
            case Pdo::MYSQL_ATTR_USE_BUFFERED_QUERY:
                return (int) $handle->buffered;
            case \PDO::ATTR_EMULATE_PREPARES:
            case Pdo::MYSQL_ATTR_DIRECT_QUERY:
                return (int) $handle->emulatePrepares;
            case Pdo::MYSQL_ATTR_LOCAL_INFILE:
                return $handle->localInfile;
            case Pdo::MYSQL_ATTR_LOCAL_INFILE_DIRECTORY:
                return $handle->localInfileDirectory;
        }
        $handle->raise(null, 'IM001', 'driver does not support that attribute', 'PDO::getAttribute');

        return false;
    }

    /** pdo_dbh_attribute_set(): the generic attributes, then pdo_mysql's. */
    public static function apply(Handle $handle, int $attribute, mixed $value): bool
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
        if ($handle->dialect === Dialect::Pgsql) {
            return PgsqlAttributes::apply($handle, $attribute, $value);
        }
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
            case Pdo::MYSQL_ATTR_USE_BUFFERED_QUERY:
                $handle->buffered = self::boolParam($value);

                return true;
            case Pdo::MYSQL_ATTR_DIRECT_QUERY:
            case \PDO::ATTR_EMULATE_PREPARES:
                $handle->emulatePrepares = self::boolParam($value);

                return true;
            case \PDO::ATTR_FETCH_TABLE_NAMES:
                $handle->fetchTableNames = self::boolParam($value);

                return true;
        }

        return false;
    }

    /** mysqlnd answers COM_STATISTICS; the same line, built from SHOW GLOBAL STATUS. */
    public static function serverInfo(Handle $handle): string|false
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

    /** pdo_get_long_param() */
    public static function longParam(mixed $value): int
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
    public static function boolParam(mixed $value): bool
    {
        if (\is_bool($value) || \is_int($value)) {
            return (bool) $value;
        }

        throw new \TypeError(sprintf('Attribute value must be of type bool for selected attribute, %s given', get_debug_type($value)));
    }
}
