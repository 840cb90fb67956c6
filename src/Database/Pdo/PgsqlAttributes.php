<?php

declare(strict_types=1);

namespace Spindle\Database\Pdo;

use Spindle\Database\Mysql\MysqlException;
use Spindle\Database\Pdo;
use Spindle\Database\Pgsql\Connection;

/**
 * The driver part of PDO attributes for PostgreSQL, as pdo_pgsql has them: emulated prepares
 * and PGSQL_ATTR_DISABLE_PREPARES can be set, the versions, connection status and server info
 * read; anything else is not supported (IM001 when read, false when set).
 *
 * @internal
 */
final class PgsqlAttributes
{
    private function __construct()
    {
    }

    /** @return array{bool, mixed} whether the attribute is one of the driver's, and its value */
    public static function get(Handle $handle, int $attribute): array
    {
        $link = $handle->connection;
        $connection = null;
        if ($link instanceof PgsqlLink && \in_array($attribute, [\PDO::ATTR_CLIENT_VERSION, \PDO::ATTR_SERVER_VERSION, \PDO::ATTR_CONNECTION_STATUS, \PDO::ATTR_SERVER_INFO], true)) {
            try {
                $connection = $link->withSession(static fn (PgsqlSession $session): Connection => $session->connection);
            } catch (MysqlException) {
                $connection = null;
            }
        }

        return match ($attribute) {
            \PDO::ATTR_EMULATE_PREPARES => [true, $handle->emulatePrepares],
            Pdo::PGSQL_ATTR_DISABLE_PREPARES => [true, $link instanceof PgsqlLink && $link->disablesPrepares()],
            // No libpq underneath: the protocol's version is what the client speaks.
            \PDO::ATTR_CLIENT_VERSION => [true, self::versionNumber($connection?->parameter('server_version') ?? '')],
            \PDO::ATTR_SERVER_VERSION => [true, $connection?->parameter('server_version') ?? ''],
            \PDO::ATTR_CONNECTION_STATUS => [true, $connection === null || $connection->isBroken() ? 'Connection BAD' : 'Connection OK; waiting to send.'],
            \PDO::ATTR_SERVER_INFO => [true, $connection === null ? false : sprintf(
                'PID: %d; Client Encoding: %s; Is Superuser: %s; Session Authorization: %s; Date Style: %s',
                $connection->processId(),
                $connection->parameter('client_encoding') ?? '',
                $connection->parameter('is_superuser') ?? '',
                $connection->parameter('session_authorization') ?? '',
                $connection->parameter('DateStyle') ?? '',
            )],
            default => [false, null],
        };
    }

    public static function apply(Handle $handle, int $attribute, mixed $value): bool
    {
        switch ($attribute) {
            case \PDO::ATTR_EMULATE_PREPARES:
                $handle->emulatePrepares = Attributes::boolParam($value);

                return true;
            case Pdo::PGSQL_ATTR_DISABLE_PREPARES:
                $disable = Attributes::boolParam($value);
                if ($handle->connection instanceof PgsqlLink) {
                    $handle->connection->setDisablePrepares($disable);
                }

                return true;
            case \PDO::ATTR_DEFAULT_STR_PARAM:
                $handle->assumeNationalStrings = Attributes::longParam($value) === \PDO::PARAM_STR_NATL;

                return true;
        }

        return false;
    }

    /**
     * Runs a statement's preparer with PDO::prepare()'s options in force, as pdo_pgsql reads
     * them there: ATTR_EMULATE_PREPARES and PGSQL_ATTR_DISABLE_PREPARES for this statement only.
     *
     * @param array<int|string, mixed> $options
     * @param \Closure(): bool          $prepare
     */
    public static function prepareWith(Handle $handle, array $options, \Closure $prepare, ?Cursor $cursor = null): bool
    {
        $session = $handle->connection instanceof PgsqlLink ? $handle->connection : null;
        $emulate = $handle->emulatePrepares;
        $disable = $session !== null && $session->disablesPrepares();
        try {
            if (\array_key_exists(\PDO::ATTR_EMULATE_PREPARES, $options)) {
                $handle->emulatePrepares = Attributes::boolParam($options[\PDO::ATTR_EMULATE_PREPARES]);
            }
            if ($session !== null && \array_key_exists(Pdo::PGSQL_ATTR_DISABLE_PREPARES, $options)) {
                $session->setDisablePrepares(Attributes::boolParam($options[Pdo::PGSQL_ATTR_DISABLE_PREPARES]));
            }
            if ($cursor !== null && $session !== null && \is_scalar($options[\PDO::ATTR_CURSOR] ?? null) && (int) $options[\PDO::ATTR_CURSOR] === \PDO::CURSOR_SCROLL) {
                // As pdo_pgsql: a scrollable statement is a named cursor over the emulated query.
                $cursor->scroll = new ScrollCursor($session->cursorName());
                $handle->emulatePrepares = true;
            }

            return $prepare();
        } finally {
            $handle->emulatePrepares = $emulate;
            if ($session !== null) {
                $session->setDisablePrepares($disable);
            }
        }
    }

    /** "15.18 (Debian 15.18-0+deb12u1)" → "15.18" */
    private static function versionNumber(string $version): string
    {
        return preg_match('/^\d+(?:\.\d+)*/', $version, $m) === 1 ? $m[0] : $version;
    }

    /**
     * PDO::lastInsertId() for PostgreSQL: lastval(), or currval() of the sequence named.
     *
     * @throws MysqlException
     */
    public static function lastInsertId(Handle $handle, ?string $sequence): string
    {
        $session = $handle->connection;
        if (!$session instanceof PgsqlLink) {
            return '0';
        }
        if ($sequence === null) {
            $result = $handle->query('SELECT LASTVAL()')[0];
        } else {
            $statement = $session->prepareNumbered('SELECT CURRVAL($1)', 1);
            $result = $handle->execute($statement, [$sequence])[0];
        }

        return (string) ($result->rows[0][0] ?? '0');
    }
}
