<?php

declare(strict_types=1);

namespace Spindle\Database\Pdo;

use Spindle\Database\Mysql\MysqlException;

/**
 * pdo_pgsql's own PDO methods: pgsqlCopyFromArray(), pgsqlCopyToArray(), pgsqlCopyFromFile(),
 * pgsqlCopyToFile(), pgsqlGetNotify() and pgsqlGetPid(), over Spindle's PostgreSQL session (a
 * wait suspends only the calling fiber). The COPY statements are built as pdo_pgsql builds them.
 *
 * @internal
 */
final class PgsqlMethods
{
    private function __construct()
    {
    }

    /** pdo_pgsql reports a file it cannot open as a driver error: "General error: 7 Unable to …". */
    private static function fileError(Handle $handle, string $message, string $where): void
    {
        $handle->failed(new MysqlException($message, PgsqlSession::ERROR_CODE, 'HY000'));
        $handle->report(null, $where);
    }

    /** @param array<mixed> $rows */
    public static function copyFromArray(Handle $handle, string $table, array $rows, string $separator, string $nullAs, ?string $fields, string $where): bool
    {
        $lines = [];
        foreach ($rows as $row) {
            $line = \is_scalar($row) || $row instanceof \Stringable ? (string) $row : '';
            $lines[] = str_ends_with($line, "\n") ? $line : $line . "\n";
        }

        return self::run($handle, $where, static function (PgsqlSession $session) use ($table, $lines, $separator, $nullAs, $fields): bool {
            $session->connection->copyFrom(self::copy($table, 'FROM STDIN', $separator, $nullAs, $fields), $lines);

            return true;
        }) ?? false;
    }

    /** @return list<string>|false */
    public static function copyToArray(Handle $handle, string $table, string $separator, string $nullAs, ?string $fields, string $where): array|false
    {
        return self::run($handle, $where, static fn (PgsqlSession $session): array => $session->connection->copyTo(self::copy($table, 'TO STDOUT', $separator, $nullAs, $fields))) ?? false;
    }

    public static function copyFromFile(Handle $handle, string $table, string $filename, string $separator, string $nullAs, ?string $fields, string $where): bool
    {
        $stream = @fopen($filename, 'rb');
        if ($stream === false) {
            self::fileError($handle, 'Unable to open the file', $where);

            return false;
        }
        try {
            $lines = (static function () use ($stream): \Generator {
                while (($line = fgets($stream)) !== false) {
                    yield $line;
                }
            })();

            return self::run($handle, $where, static function (PgsqlSession $session) use ($table, $lines, $separator, $nullAs, $fields): bool {
                $session->connection->copyFrom(self::copy($table, 'FROM STDIN', $separator, $nullAs, $fields), $lines);

                return true;
            }) ?? false;
        } finally {
            fclose($stream);
        }
    }

    public static function copyToFile(Handle $handle, string $table, string $filename, string $separator, string $nullAs, ?string $fields, string $where): bool
    {
        $stream = @fopen($filename, 'wb');
        if ($stream === false) {
            self::fileError($handle, 'Unable to open the file for writing', $where);

            return false;
        }
        try {
            $lines = self::copyToArray($handle, $table, $separator, $nullAs, $fields, $where);
            if ($lines === false) {
                return false;
            }
            foreach ($lines as $line) {
                fwrite($stream, $line);
            }

            return true;
        } finally {
            fclose($stream);
        }
    }

    /** @return array<int|string, int|string>|false */
    public static function getNotify(Handle $handle, int $fetchMode, int $timeoutMilliseconds): array|false
    {
        if ($fetchMode === \PDO::FETCH_DEFAULT) {
            $fetchMode = $handle->defaultFetchMode;
        }
        if (!\in_array($fetchMode, [\PDO::FETCH_BOTH, \PDO::FETCH_ASSOC, \PDO::FETCH_NUM], true)) {
            throw new \ValueError('PDO::pgsqlGetNotify(): Argument #1 ($fetchMode) must be one of PDO::FETCH_BOTH, PDO::FETCH_ASSOC, or PDO::FETCH_NUM');
        }
        if ($timeoutMilliseconds < 0) {
            throw new \ValueError('PDO::pgsqlGetNotify(): Argument #2 ($timeoutMilliseconds) must be greater than or equal to 0');
        }
        $notification = self::run($handle, 'PDO::pgsqlGetNotify', static fn (PgsqlSession $session) => $session->connection->nextNotification($timeoutMilliseconds / 1000));
        if ($notification === null) {
            return false;
        }
        $result = [];
        if ($fetchMode !== \PDO::FETCH_ASSOC) {
            $result[0] = $notification->channel;
            $result[1] = $notification->processId;
        }
        if ($fetchMode !== \PDO::FETCH_NUM) {
            $result['message'] = $notification->channel;
            $result['pid'] = $notification->processId;
        }
        if ($notification->payload !== '') {
            if ($fetchMode !== \PDO::FETCH_ASSOC) {
                $result[2] = $notification->payload;
            }
            if ($fetchMode !== \PDO::FETCH_NUM) {
                $result['payload'] = $notification->payload;
            }
        }

        return $result;
    }

    private static function copy(string $table, string $direction, string $separator, string $nullAs, ?string $fields): string
    {
        return sprintf(
            "COPY %s%s %s WITH DELIMITER E'%s' NULL AS E'%s'",
            $table,
            $fields === null ? '' : ' (' . $fields . ')',
            $direction,
            $separator === '' ? "\t" : $separator[0],
            $nullAs === '' ? '\\\\N' : $nullAs,
        );
    }

    /**
     * @template T
     *
     * @param \Closure(PgsqlSession): T $operation
     *
     * @return T|null null after reporting the error
     */
    private static function run(Handle $handle, string $where, \Closure $operation): mixed
    {
        $handle->clearError();
        try {
            return $handle->withPgsqlSession($operation);
        } catch (MysqlException $error) {
            $handle->failed($error);
            $handle->report(null, $where);

            return null;
        }
    }
}
