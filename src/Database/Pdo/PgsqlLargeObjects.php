<?php

declare(strict_types=1);

namespace Spindle\Database\Pdo;

use Spindle\Database\Mysql\MysqlException;
use Spindle\Database\Pgsql\Bytea;

/**
 * pdo_pgsql's large objects over the server's lo_* functions: pgsqlLOBCreate(), pgsqlLOBOpen()
 * (a stream, PgsqlLobStream), pgsqlLOBUnlink(), and the stream a bindColumn(PARAM_LOB) of an
 * oid column fetches. Each call is one query on the PDO's session, so a wait suspends only the
 * calling fiber. As with libpq, a descriptor lives until the end of its transaction: the
 * streams a PDO opened are closed by its commit() and rollBack().
 *
 * @internal
 */
final class PgsqlLargeObjects
{
    /** libpq's INV_WRITE and INV_READ */
    private const INV_WRITE = 0x20000;
    private const INV_READ = 0x40000;

    private function __construct()
    {
    }

    /** The new object's oid as a string (pdo_pgsql's "%u"), false after reporting the error. */
    public static function create(Handle $handle): string|false
    {
        $oid = self::run($handle, 'PDO::pgsqlLOBCreate', static fn (PgsqlSession $session): mixed => self::scalar($session, 'SELECT lo_creat(-1)', []));

        return $oid === null ? false : (string) $oid;
    }

    /** @return resource|false */
    public static function open(Handle $handle, string $oid, string $mode)
    {
        $number = self::oid($oid);
        if ($number === null) {
            return false;
        }
        $access = strpbrk($mode, '+w') !== false ? self::INV_READ | self::INV_WRITE : self::INV_READ;
        $stream = self::run($handle, 'PDO::pgsqlLOBOpen', static fn (PgsqlSession $session): mixed => self::openStream($handle, $session, $number, $access, $mode));

        return \is_resource($stream) ? $stream : false;
    }

    public static function unlink(Handle $handle, string $oid): bool
    {
        $number = self::oid($oid);
        if ($number === null) {
            return false;
        }

        return self::run($handle, 'PDO::pgsqlLOBUnlink', static fn (PgsqlSession $session): mixed => self::scalar($session, 'SELECT lo_unlink($1::oid)', [$number])) !== null;
    }

    /**
     * The stream of an oid column fetched into a bindColumn(PARAM_LOB) (read only); null when
     * the object cannot be opened (pdo_pgsql then gives the oid).
     *
     * @return resource|null
     */
    public static function openForFetch(Handle $handle, int $oid)
    {
        try {
            $stream = $handle->withPgsqlSession(static fn (PgsqlSession $session): mixed => self::openStream($handle, $session, $oid, self::INV_READ, 'rb'));
        } catch (MysqlException) {
            return null;
        }

        return \is_resource($stream) ? $stream : null;
    }

    /**
     * After COMMIT or ROLLBACK: the server closed every descriptor, and the streams close too.
     * Always true (for the caller's && chain).
     */
    public static function closeAll(Handle $handle): bool
    {
        $link = $handle->connection;
        $session = $link instanceof PgsqlLink ? $link->heldSession() : null;
        if ($session === null) {
            return true;
        }
        $streams = $session->lobStreams;
        $session->lobStreams = [];
        foreach ($streams as $stream) {
            if (\is_resource($stream)) {
                $wrapper = stream_get_meta_data($stream)['wrapper_data'] ?? null;
                if ($wrapper instanceof PgsqlLobStream) {
                    $wrapper->detach();
                }
                fclose($stream);
            }
        }

        return true;
    }

    /**
     * One of the lo_* functions; null when it returned NULL. Runs inside the session's
     * exclusive use (the caller's withPgsqlSession()).
     *
     * @param list<mixed> $params
     *
     * @throws \Spindle\Database\Pgsql\PgsqlException
     */
    public static function scalar(PgsqlSession $session, string $sql, array $params, bool $binary = false): mixed
    {
        $values = $session->connection->execute($sql, $params, $binary)->values();

        return $values[0][0] ?? null;
    }

    /**
     * lo_open() and its stream.
     *
     * @return resource
     *
     * @throws \Spindle\Database\Pgsql\PgsqlException
     */
    private static function openStream(Handle $handle, PgsqlSession $session, int $oid, int $access, string $mode)
    {
        $descriptor = self::scalar($session, 'SELECT lo_open($1::oid, $2::int4)', [$oid, $access]);
        $stream = PgsqlLobStream::open($handle, $oid, (int) $descriptor, $mode);
        $session->lobStreams[] = $stream;

        return $stream;
    }

    /** The oid as pdo_pgsql reads it (strtoul); null for text that is no number. */
    private static function oid(string $oid): ?int
    {
        if (preg_match('/^\s*\+?(\d+)/', $oid, $match) !== 1) {
            return 0;
        }
        $digits = ltrim($match[1], '0');

        // Beyond an unsigned long strtoul() reports ERANGE; below, the oid is its low 32 bits.
        return \strlen($digits) > 19 || (\strlen($digits) === 19 && $digits > '18446744073709551615') ? null : ((int) $digits) & 0xFFFFFFFF;
    }

    /**
     * @param \Closure(PgsqlSession): mixed $operation
     *
     * @return mixed null after reporting the error (pdo_pgsql's "General error: 7 …", HY000)
     */
    private static function run(Handle $handle, string $where, \Closure $operation): mixed
    {
        $handle->clearError();
        try {
            return $handle->withPgsqlSession($operation);
        } catch (MysqlException $error) {
            $handle->failed(new MysqlException($error->getMessage(), PgsqlSession::ERROR_CODE, 'HY000', $error));
            $handle->report(null, $where);

            return null;
        }
    }

    /** lowrite()'s argument: the bytes as bytea. */
    public static function bytes(string $data): Bytea
    {
        return new Bytea($data);
    }
}
