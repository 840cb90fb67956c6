<?php

declare(strict_types=1);

namespace Spindle\Database\Pdo;

use Spindle\Database\Mysql\MysqlException;
use Spindle\Database\Mysql\ResultStream;

/**
 * pdo_pgsql's scrollable cursor (a statement prepared with ATTR_CURSOR => CURSOR_SCROLL): its
 * name ("pdo_crsr_%08x"), whether execute() declared it, and the orientation of the next fetch
 * ("NEXT", "BACKWARD", "ABSOLUTE 3", …). execute() declares the emulated query as a SCROLL
 * CURSOR WITH HOLD; each fetch is a FETCH from it, one round trip.
 *
 * @internal
 */
final class ScrollCursor
{
    public bool $declared = false;
    public string $orientation = 'NEXT';

    public function __construct(public readonly string $name)
    {
    }

    /**
     * pdo_pgsql's FETCH orientation for PDO's fetch orientation and offset; null for one it
     * does not know (the fetch then fails).
     */
    public static function orientation(int $orientation, int $offset): ?string
    {
        return match ($orientation) {
            \PDO::FETCH_ORI_NEXT => 'NEXT',
            \PDO::FETCH_ORI_PRIOR => 'BACKWARD',
            \PDO::FETCH_ORI_FIRST => 'FIRST',
            \PDO::FETCH_ORI_LAST => 'LAST',
            \PDO::FETCH_ORI_ABS => 'ABSOLUTE ' . $offset,
            \PDO::FETCH_ORI_REL => 'RELATIVE ' . $offset,
            default => null,
        };
    }

    /**
     * The execute: the cursor of the run before is closed (its error ignored), the query
     * declared, and "FETCH FORWARD 0" gives the columns (and a row count of 0) without moving.
     *
     * @throws MysqlException
     */
    public function declare(Handle $handle, string $sql, StatementCore $owner): ResultStream
    {
        if ($this->declared) {
            try {
                $handle->query('CLOSE ' . $this->name);
            } catch (MysqlException) {
            }
        }
        $this->declared = false;
        $handle->query('DECLARE ' . $this->name . ' SCROLL CURSOR WITH HOLD FOR ' . $sql);
        $this->declared = true;

        return $handle->queryStream('FETCH FORWARD 0 FROM ' . $this->name, $owner);
    }

    /**
     * The row a FETCH gives (in the orientation asked for, then NEXT again); null when there is
     * none or on an error (then the statement's error, reported by the fetch).
     *
     * @return list<int|float|string|null>|null
     */
    public function fetch(Handle $handle, StatementStatus $status): ?array
    {
        $orientation = $this->orientation;
        $this->orientation = 'NEXT';
        if (!$this->declared) {
            return null;
        }
        try {
            $results = $handle->query('FETCH ' . $orientation . ' FROM ' . $this->name);
        } catch (MysqlException $error) {
            [$status->errorCode, $status->driverError] = Handle::fromMysql($error);

            return null;
        }

        return $results[\count($results) - 1]->rows[0] ?? null;
    }

    /** With its statement: closed ahead of the next command, nothing waits (a destructor). */
    public function close(Handle $handle): void
    {
        if ($this->declared && $handle->connection instanceof PgsqlLink) {
            $handle->connection->heldSession()?->connection->closeCursor($this->name);
        }
    }
}
