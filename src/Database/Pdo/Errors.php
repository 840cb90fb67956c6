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
    public static function exception(string $message, int|string $code, ?array $errorInfo, ?\Throwable $previous = null): \PDOException
    {
        $exception = new \PDOException($message, 0, $previous);
        (new \ReflectionProperty(\PDOException::class, 'code'))->setValue($exception, $code);
        $exception->errorInfo = $errorInfo;
        self::pointAtCaller($exception);

        return $exception;
    }

    /**
     * A failed connect: "SQLSTATE[HY000] [2002] Connection refused", with the error number as
     * code. mysqlnd reports every error of the handshake (authentication, unknown database, …)
     * with SQLSTATE HY000, and a socket that cannot connect with just the system's reason; an
     * error of the init command keeps its own SQLSTATE.
     */
    public static function connectFailed(MysqlException $error, bool $handshake = true): \PDOException
    {
        $state = $handshake ? 'HY000' : $error->sqlState;
        $message = $error->getMessage();
        if ($error->errorCode === 2002 && preg_match('/^Can\'t connect to MySQL server on .* \(\d+: (.+)\)$/s', $message, $m) === 1) {
            $message = $m[1];
        } elseif ($error->errorCode === 2019 && str_starts_with($message, "Can't initialize character set")) {
            $message = 'Unknown character set';
        }

        // A host name that does not resolve also makes mysqlnd warn, and the constructor turns
        // that warning into the exception's previous one.
        $previous = str_starts_with($message, 'php_network_getaddresses:')
            ? self::exception('PDO::__construct(): ' . $message, 0, null)
            : null;

        return self::exception(
            sprintf('SQLSTATE[%s] [%d] %s', $state, $error->errorCode, $message),
            $error->errorCode,
            [$state, $error->errorCode, $message],
            $previous,
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

    /**
     * An error the engine raised inside this library (a property the fetch class does not let
     * it write, …), made to point at the caller like the same error raised by PHP's own PDO.
     *
     * @template T of \Throwable
     *
     * @param T $error
     *
     * @return T
     */
    public static function atCaller(\Throwable $error): \Throwable
    {
        self::pointAtCaller($error);

        return $error;
    }

    /**
     * The file and line of the first caller outside this library, and a trace that starts at
     * that call (`#0 app.php(12): Spindle\Database\Pdo->query('…')`), as a native exception's:
     * frames of the library's internals (a result iterator driven by foreach) are dropped too.
     */
    private static function pointAtCaller(\Throwable $exception): void
    {
        $base = $exception instanceof \Exception ? \Exception::class : \Error::class;
        foreach (debug_backtrace(DEBUG_BACKTRACE_IGNORE_ARGS) as $frame) {
            $file = $frame['file'] ?? null;
            if ($file === null || self::isOurs($file)) {
                continue;
            }
            (new \ReflectionProperty($base, 'file'))->setValue($exception, $file);
            (new \ReflectionProperty($base, 'line'))->setValue($exception, $frame['line'] ?? 0);
            $trace = $exception->getTrace();
            while ($trace !== [] && ((isset($trace[0]['file']) && self::isOurs($trace[0]['file'])) || self::isInternal($trace[0]['class'] ?? ''))) {
                array_shift($trace);
            }
            (new \ReflectionProperty($base, 'trace'))->setValue($exception, $trace);

            return;
        }
    }

    private static function isOurs(string $file): bool
    {
        return $file === \dirname(__DIR__) . '/Pdo.php' || str_starts_with($file, __DIR__ . \DIRECTORY_SEPARATOR);
    }

    /** A class of the library's internals (not Pdo, Statement or a generated statement class). */
    private static function isInternal(string $class): bool
    {
        return str_starts_with($class, __NAMESPACE__ . '\\')
            && !is_a($class, Statement::class, true)
            && !str_starts_with($class, __NAMESPACE__ . '\\Generated\\');
    }
}
