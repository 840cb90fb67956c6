<?php

declare(strict_types=1);

namespace Spindle\Database\Pdo;

use Spindle\Database\Mysql\MysqlException;

/**
 * Builds the PDOExceptions and warnings PDO raises. Exceptions carry the SQLSTATE as their code
 * (a string) and errorInfo, and point at the caller's line rather than at this library, as the
 * native ones do.
 */
final class Errors
{
    /**
     * @param int|string $code SQLSTATE for statement errors, the MySQL error number for connection errors
     * @param array<int, int|string|null>|null $errorInfo
     */
    public static function exception(string $message, int|string $code, ?array $errorInfo): \PDOException
    {
        $exception = new \PDOException($message);
        (new \ReflectionProperty(\PDOException::class, 'code'))->setValue($exception, $code);
        $exception->errorInfo = $errorInfo;
        self::pointAtCaller($exception);

        return $exception;
    }

    /** A failed connect: "SQLSTATE[HY000] [2002] Connection refused", with the error number as code. */
    public static function connectFailed(MysqlException $error): \PDOException
    {
        return self::exception(
            sprintf('SQLSTATE[%s] [%d] %s', $error->sqlState, $error->errorCode, $error->getMessage()),
            $error->errorCode,
            [$error->sqlState, $error->errorCode, $error->getMessage()],
        );
    }

    /** A PDOException without SQLSTATE, code 0 ("There is no active transaction"). */
    public static function plain(string $message): \PDOException
    {
        $exception = new \PDOException($message);
        self::pointAtCaller($exception);

        return $exception;
    }

    /**
     * The warning of ERRMODE_WARNING, prefixed with the method like PHP's own ("PDO::exec(): …").
     * PHP code can only raise E_USER_WARNING, so that is its level.
     */
    public static function warn(string $where, string $message): void
    {
        trigger_error(($where === '' ? '' : $where . '(): ') . $message, E_USER_WARNING);
    }

    private static function pointAtCaller(\Throwable $exception): void
    {
        $ours = \dirname(__DIR__);
        foreach (debug_backtrace(DEBUG_BACKTRACE_IGNORE_ARGS) as $frame) {
            $file = $frame['file'] ?? null;
            if ($file === null || $file === $ours . '/Pdo.php' || str_starts_with($file, __DIR__ . \DIRECTORY_SEPARATOR)) {
                continue;
            }
            (new \ReflectionProperty(\Exception::class, 'file'))->setValue($exception, $file);
            (new \ReflectionProperty(\Exception::class, 'line'))->setValue($exception, $frame['line'] ?? 0);

            return;
        }
    }
}
