<?php

declare(strict_types=1);

namespace Spindle\Database\Mysql;

use Spindle\Database\Mysql\Protocol\Capability;
use Spindle\Database\Mysql\Protocol\ClientProtocol;
use Spindle\Database\Mysql\Protocol\ServerStatus;

/**
 * What a MySQL session carries from one holder to the next (a pool hands sessions from request to
 * request), and how it is made as a new one: whether the server tracks its changes, whether a
 * statement since the last reset may have changed it (SessionChanges, the server's marks, a
 * transaction open), the setup statements a reset runs again, and the first statement of a new
 * holder. The commands themselves (COM_RESET_CONNECTION, the statements) run on the connection,
 * passed to each call that runs one: holding it would make a cycle, and a connection dropped
 * without close() would keep its socket until the cycle collector runs.
 *
 * @internal SocketConnection's
 */
final class SessionHandOver
{
    /** What track() has the server track (run again after every reset). */
    private const TRACK_STATE = 'SET SESSION session_track_state_change = ON';

    /** @var list<string> statements a reset runs again after SET NAMES and the init commands */
    private array $setup = [];
    /** Whether the server tracks this session's changes (track()). */
    private bool $tracking = false;
    /** A statement since the last reset may have changed the session (SessionChanges::mayChange()). */
    private bool $changed = false;
    /** The session was handed to a new holder (reset or kept) who has run nothing on it yet. */
    private bool $handedOver = false;

    public function __construct(
        private readonly ConnectionConfig $config,
        private readonly ClientProtocol $protocol,
    ) {
    }

    /** @param list<string> $statements what set the session up when it was opened */
    public function remember(array $statements): void
    {
        $this->setup = $statements;
    }

    /**
     * Has the server track what changes this session; false where it cannot (see
     * SocketConnection::trackSessionChanges()).
     *
     * @throws MysqlException from the server, when the connection broke
     */
    public function track(SocketConnection $connection): bool
    {
        if ($this->tracking) {
            return true;
        }
        if (($this->protocol->capabilities() & Capability::SESSION_TRACK) === 0) {
            return false;
        }
        // A view runs what its definition calls, out of sight of the statement that reads it.
        $views = $connection->query("SELECT VIEW_DEFINITION FROM information_schema.VIEWS WHERE TABLE_SCHEMA NOT IN ('sys', 'mysql', 'information_schema', 'performance_schema')");
        foreach ($views[0]->rows as $view) {
            if (SessionChanges::mayChange((string) $view[0])) {
                return false;
            }
        }
        $connection->query(self::TRACK_STATE);
        $this->tracking = true;
        $this->forget();

        return true;
    }

    /** See SocketConnection::sessionChanged(). */
    public function changed(): bool
    {
        return !$this->tracking || $this->changed || $this->protocol->sessionMarks() !== 0
            || ($this->protocol->statusFlags() & ServerStatus::IN_TRANS) !== 0;
    }

    /**
     * $sql is about to run: while changes are tracked, whether it may change the session; and when
     * it is a new holder's first, what the last holder's statements leave that it may read.
     * FOUND_ROWS() and ROW_COUNT() still answer for the last holder's last statement:
     * COM_RESET_CONNECTION and the setup statements leave them (MariaDB 10.11,
     * tests/Integration/Mysql/SessionChangesTest.php). A first statement that reads them finds
     * them as on a new session, 0 and 0, after a SELECT of no rows and a DO; any other costs
     * nothing more.
     *
     * @throws MysqlException
     */
    public function beforeStatement(string $sql, SocketConnection $connection): void
    {
        if ($this->handedOver) {
            $this->handedOver = false;
            if (SessionChanges::readsLastStatement($sql)) {
                $connection->query('SELECT 0 FROM DUAL WHERE 0');
                $connection->query('DO 0');
                // Spindle's own statements: the session is as unchanged as it was handed over.
                $this->forget();
            }
        }
        if ($this->tracking && !$this->changed) {
            $this->changed = SessionChanges::mayChange($sql);
        }
    }

    /** The session goes to its next holder as it is (nothing changed it). */
    public function keep(): void
    {
        $this->handedOver = true;
    }

    /**
     * After COM_RESET_CONNECTION: USE of the database connected to (the reset keeps the one a USE
     * chose), SET NAMES, the init commands and the remembered setup, as one multi-statement query
     * where the connection allows it; then the session goes to its next holder as a new one.
     *
     * @throws MysqlException
     */
    public function afterReset(SocketConnection $connection): void
    {
        $setup = [...$this->config->initCommands, ...$this->setup];
        $setNames = $this->protocol->setNamesStatement();
        if ($setNames !== null) {
            \array_unshift($setup, $setNames);
        }
        if ($this->config->database !== null && $this->config->database !== '') {
            \array_unshift($setup, 'USE `' . \str_replace('`', '``', $this->config->database) . '`');
        }
        if ($this->tracking) {
            $setup[] = self::TRACK_STATE;
        }
        if ($setup !== []) {
            if (!$this->config->multiStatements) {
                foreach ($setup as $sql) {
                    $connection->query($sql);
                }
            } else {
                $connection->query(\implode('; ', \array_map(static fn (string $sql): string => \rtrim($sql, " \t\r\n;"), $setup)));
            }
        }
        $this->forget();
        $this->handedOver = true;
    }

    /** The session is as a new one now: what changed it before is forgotten. */
    private function forget(): void
    {
        $this->changed = false;
        $this->protocol->clearSessionMarks();
    }
}
