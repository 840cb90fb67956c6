<?php

declare(strict_types=1);

namespace Spindle\Redis\PhpRedis;

use Spindle\Redis\ConnectionException;
use Spindle\Redis\Protocol\ErrorReply;
use Spindle\Redis\RedisException;

/**
 * @internal phpredis's rule for error replies: `ERR …` and a few kinds a caller expects
 * (WRONGTYPE, NOSCRIPT, BUSYGROUP, NOGROUP, …) make the method return false and set
 * getLastError(); any other kind (NOAUTH, OOM, LOADING, READONLY, WRONGPASS, NOPERM, `ERR AUTH`)
 * throws \RedisException. Failures of the connection always throw \RedisException.
 */
final class ErrorPolicy
{
    private const RETURNED = ['NOSCRIPT', 'NOQUORUM', 'NOGOODSLAVE', 'WRONGTYPE', 'BUSYGROUP', 'NOGROUP'];

    private function __construct()
    {
    }

    public static function throws(ErrorReply $error): bool
    {
        $kind = $error->kind();
        if ($kind === 'ERR') {
            return str_starts_with($error->message, 'ERR AUTH');
        }

        return !\in_array($kind, self::RETURNED, true);
    }

    public static function exception(string $message, ?\Throwable $previous = null): \RedisException
    {
        if (!class_exists(\RedisException::class)) {
            require_once __DIR__ . '/RedisExceptionPolyfill.php';
        }

        return new \RedisException($message, 0, $previous);
    }

    /** Spindle's own exception as phpredis's (a lost connection keeps "went away" for Laravel's reconnect). */
    public static function convert(RedisException $e): \RedisException
    {
        return self::exception($e instanceof ConnectionException ? $e->getMessage() : $e->getMessage(), $e);
    }
}
