<?php

declare(strict_types=1);

namespace Spindle\Database\Mysql;

use Spindle\Database\Mysql\Protocol\ClientProtocol;
use Spindle\Database\Mysql\Protocol\Errors;
use Spindle\Database\Mysql\Protocol\Phase;

/**
 * A Connection over a TCP or unix socket, non-blocking: while it waits for the server only the
 * calling fiber is suspended (outside a fiber the event loop runs until the answer is there).
 *
 * This class is the command lifecycle of one MySQL session: one command at a time (a fiber
 * that tries a second gets ConnectionBusy), its answer read whole or streamed (ResultStream),
 * and what a failure breaks. The protocol itself lives in ClientProtocol; SocketTransport moves
 * its bytes (handshake, TLS, LOCAL INFILE, the idle check); SocketOpener opens the socket and
 * QueryKiller kills a query after its timeout.
 *
 * A lost connection, a malformed packet or a query timeout breaks the connection: it is closed,
 * isBroken() is true, and every later call throws MysqlException 2006 at once. Server errors
 * (ERR packets answering a statement) leave it usable. isBroken() is also true after close().
 *
 * Over 500 lines: the commands and the reset of a pooled session (resetSession(),
 * resetSessionIfChanged()) share one command-at-a-time state (busy, broken, streaming) that must
 * not be reachable from outside; what they need besides lives in classes of their own: what
 * changed the session and how it goes to its next holder (SessionHandOver, SessionChanges), the
 * statement cache, the server's marks (ClientProtocol).
 */
final class SocketConnection implements StreamingConnection
{
    /**
     * Server errors after which the server closes the connection: ER_SERVER_SHUTDOWN,
     * ER_CONNECTION_KILLED (MariaDB), ER_SESSION_WAS_KILLED and ER_CLIENT_INTERACTION_TIMEOUT (MySQL 8).
     */
    private const FATAL_SERVER_ERRORS = [1053, 1927, 3169, 4031];

    private bool $busy = false;
    private bool $broken = false;
    private bool $closed = false;
    /** A streamed command's answer is still being read: no other command until it is complete. */
    private bool $streaming = false;
    /** Prepared statements kept after their users closed them (keepStatements()); null: none kept. */
    private ?StatementCache $statements = null;
    /** Whether the session changed, and how it is handed to its next holder. */
    private readonly SessionHandOver $session;

    private function __construct(
        private readonly ConnectionConfig $config,
        private readonly SocketTransport $transport,
        private readonly ClientProtocol $protocol,
    ) {
        $this->session = new SessionHandOver($config, $protocol);
    }

    /**
     * Connects, authenticates (TLS first when configured), sets the collation if the handshake
     * could not, and runs the init commands.
     *
     * @throws MysqlException
     */
    public static function connect(ConnectionConfig $config): self
    {
        $protocol = new ClientProtocol($config, $config->unixSocket !== null);
        $deadline = $config->connectTimeout > 0 ? self::now() + $config->connectTimeout : null;
        $connection = new self($config, SocketTransport::open($config, $protocol, $deadline), $protocol);
        try {
            $connection->transport->authenticate($deadline);
            $setNames = $protocol->setNamesStatement();
            if ($setNames !== null) {
                $connection->query($setNames);
            }
            foreach ($config->initCommands as $sql) {
                $connection->query($sql);
            }
        } catch (\Throwable $e) {
            $connection->fail();
            throw $e;
        }

        return $connection;
    }

    /**
     * @throws MysqlException
     * @throws ConnectionBusy while another fiber runs a statement on this connection
     */
    public function query(string $sql): array
    {
        $this->session->beforeStatement($sql, $this);
        $this->begin();
        $this->protocol->query($sql);
        $results = $this->finish();
        if (!\is_array($results)) {
            throw Errors::malformed('COM_QUERY answered without results');
        }

        return $results;
    }

    /**
     * @throws MysqlException
     * @throws ConnectionBusy while another fiber runs a statement on this connection
     */
    public function prepare(string $sql): PreparedStatement
    {
        $this->session->beforeStatement($sql, $this);
        $cache = $this->statements;
        if ($cache === null) {
            return $this->prepareOnServer($sql);
        }
        $this->enter();
        $statement = $cache->take($sql);
        if ($statement !== null) {
            return $statement;
        }
        try {
            $statement = $this->prepareOnServer($sql);
        } catch (MysqlException $e) {
            // ER_MAX_PREPARED_STMT_COUNT_REACHED: the server's limit counts the kept statements too.
            if ($e->errorCode !== 1461) {
                throw $e;
            }
            $this->closeOnServer($cache->evictIdle());
            $statement = $this->prepareOnServer($sql);
        }
        $this->closeOnServer($cache->add($statement));

        return $statement;
    }

    /**
     * Keeps up to $capacity server-side prepared statements after their users closed them (see
     * StatementCache): prepare() of a text prepared before is then answered without the server.
     */
    public function keepStatements(int $capacity, StatementCacheStats $stats): void
    {
        if ($capacity < 1) {
            throw new \InvalidArgumentException(\sprintf('A statement cache needs a capacity of at least 1, %d given', $capacity));
        }
        $this->statements ??= new StatementCache($capacity, $stats);
    }

    /** How many prepared statements are kept now (keepStatements()). */
    public function keptStatements(): int
    {
        return $this->statements?->count() ?? 0;
    }

    /**
     * Statements that resetSession() runs again after SET NAMES and the init commands: what set
     * the session up when it was opened (a framework's `SET NAMES`, `time_zone`, `sql_mode`).
     *
     * @param list<string> $statements
     */
    public function rememberSetup(array $statements): void
    {
        $this->session->remember($statements);
    }

    private function prepareOnServer(string $sql): PreparedStatement
    {
        $this->begin();
        $this->protocol->prepare($sql);
        $statement = $this->finish();
        if (!$statement instanceof PreparedStatement) {
            throw Errors::malformed('COM_STMT_PREPARE answered without a statement');
        }

        return $statement;
    }

    /** @param list<PreparedStatement> $statements */
    private function closeOnServer(array $statements): void
    {
        foreach ($statements as $statement) {
            $this->closeStatementOnServer($statement);
        }
    }

    /**
     * @param list<mixed> $params
     *
     * @throws MysqlException
     * @throws ConnectionBusy while another fiber runs a statement on this connection
     */
    public function execute(PreparedStatement $statement, array $params): array
    {
        $this->session->beforeStatement($statement->sql, $this);
        $this->begin();
        // Bad parameters are refused before anything is sent: the connection stays usable.
        $this->protocol->execute($statement, $params);
        $results = $this->finish();
        if (!\is_array($results)) {
            throw Errors::malformed('COM_STMT_EXECUTE answered without results');
        }

        return $results;
    }

    /**
     * @throws MysqlException
     * @throws ConnectionBusy while another fiber runs a statement on this connection
     */
    public function queryStream(string $sql): ResultStream
    {
        $this->session->beforeStatement($sql, $this);
        $this->begin();
        $this->protocol->query($sql, stream: true);

        return $this->openStream();
    }

    /**
     * @param list<mixed> $params
     *
     * @throws MysqlException
     * @throws ConnectionBusy while another fiber runs a statement on this connection
     */
    public function executeStream(PreparedStatement $statement, array $params): ResultStream
    {
        $this->session->beforeStatement($statement->sql, $this);
        $this->begin();
        $this->protocol->execute($statement, $params, stream: true);

        return $this->openStream();
    }

    public function closeStatement(PreparedStatement $statement): void
    {
        if ($this->statements !== null && $this->statements->release($statement)) {
            return;
        }
        $this->closeStatementOnServer($statement);
    }

    private function closeStatementOnServer(PreparedStatement $statement): void
    {
        if ($this->broken || $this->closed || !$this->transport->isOpen() || $this->streaming) {
            return;
        }
        $this->enter();
        $this->busy = true;
        try {
            $this->protocol->closeStatement($statement->id);
            $this->transport->flush($this->queryDeadline());
        } catch (\Throwable) {
            $this->fail();
        } finally {
            $this->busy = false;
        }
    }

    /**
     * @throws MysqlException
     * @throws ConnectionBusy while another fiber runs a statement on this connection
     */
    public function ping(): void
    {
        $this->begin();
        $this->protocol->ping();
        $this->finish();
    }

    /**
     * Has the server track what changes this session (session_track_state_change, now and after
     * every reset), so that resetSessionIfChanged() can tell a session nothing changed: true when
     * it does. Not with a server without CLIENT_SESSION_TRACK, nor with one that has a view whose
     * definition may change a session (SessionChanges), or that the account may not read: a
     * statement that reads the view runs it out of sight of its own text.
     *
     * @throws MysqlException
     * @throws ConnectionBusy while another fiber runs a statement on this connection
     */
    public function trackSessionChanges(): bool
    {
        try {
            return $this->session->track($this);
        } catch (MysqlException $e) {
            // A server that refuses it (no session_track_state_change): reset every time.
            if ($this->isBroken()) {
                throw $e;
            }

            return false;
        }
    }

    /**
     * Whether the session may differ from a new one since it was opened or last reset: a
     * statement that may change it (SessionChanges), a change the server reported
     * (SERVER_SESSION_STATE_CHANGED, an insert id, warnings, an error), a transaction open. Always
     * true while changes are not tracked (trackSessionChanges()).
     */
    public function sessionChanged(): bool
    {
        return $this->session->changed();
    }

    /**
     * resetSession() if the session may have changed (sessionChanged()); otherwise nothing, and
     * the session keeps its prepared statements. True when it was reset.
     *
     * @throws MysqlException
     * @throws ConnectionBusy while another fiber runs a statement on this connection
     */
    public function resetSessionIfChanged(): bool
    {
        if (!$this->session->changed()) {
            $this->enter();
            $this->session->keep();

            return false;
        }
        $this->resetSession();

        return true;
    }

    /**
     * COM_RESET_CONNECTION, then USE of the database connected to, SET NAMES and the init
     * commands as after connect(): the session is as a new one (no transaction, user variables,
     * temporary tables, prepared statements, locks; session variables at their global values;
     * LAST_INSERT_ID() 0), without a new handshake. The statements prepared before are gone on
     * the server.
     *
     * @throws MysqlException
     * @throws ConnectionBusy while another fiber runs a statement on this connection
     */
    public function resetSession(): void
    {
        $this->begin();
        $this->statements?->clear();
        $this->protocol->resetConnection();
        $this->finish();
        $this->session->afterReset($this);
    }

    /** Where and how this connection was opened. */
    public function config(): ConnectionConfig
    {
        return $this->config;
    }

    public function serverVersion(): string
    {
        return $this->protocol->handshake()?->displayVersion() ?? '';
    }

    public function connectionId(): int
    {
        return $this->protocol->handshake()->connectionId ?? 0;
    }

    public function statusFlags(): int
    {
        return $this->protocol->statusFlags();
    }

    public function isBroken(): bool
    {
        return $this->broken || $this->closed;
    }

    public function close(): void
    {
        if ($this->busy) {
            throw new ConnectionBusy('This MySQL connection is running a statement in another fiber; it cannot be closed now');
        }
        $this->shutdown();
    }

    public function __destruct()
    {
        $this->shutdown();
    }

    /** Sends COM_QUIT if the session is healthy (best effort, never waits) and closes the socket. */
    private function shutdown(): void
    {
        if (!$this->broken && $this->protocol->phase() === Phase::Ready) {
            $this->transport->quit();
        }
        $this->closed = true;
        $this->transport->close();
    }

    /**
     * Before a command: the connection must be usable and idle. Nothing here or in the protocol
     * call that queues the command suspends, so the connection is marked busy only by finish(),
     * and a command the protocol refuses leaves nothing to undo.
     *
     * @throws MysqlException
     * @throws ConnectionBusy
     */
    private function begin(): void
    {
        $this->enter();
        try {
            $this->transport->checkIdle();
        } catch (\Throwable $e) {
            $this->fail();
            throw $e;
        }
    }

    /**
     * After the protocol queued a command: writes it and reads until its outcome is there.
     *
     * @return non-empty-list<Result>|PreparedStatement|true
     *
     * @throws MysqlException
     */
    private function finish(): array|PreparedStatement|true
    {
        $this->busy = true;
        try {
            $outcome = $this->awaitOutcome();
        } finally {
            $this->busy = false;
        }
        if ($outcome instanceof MysqlException) {
            if (\in_array($outcome->errorCode, self::FATAL_SERVER_ERRORS, true)) {
                $this->fail();
            }
            throw $outcome;
        }

        return $outcome;
    }

    /**
     * Writes the queued command and reads until its outcome is there; any failure breaks the
     * connection.
     *
     * @return non-empty-list<Result>|PreparedStatement|MysqlException|true
     */
    private function awaitOutcome(): array|PreparedStatement|MysqlException|true
    {
        try {
            return $this->transport->exchange($this->queryDeadline());
        } catch (\Throwable $e) {
            $this->fail();
            if ($this->transport->timedOut() && $this->config->killQueryOnTimeout) {
                QueryKiller::killInBackground($this->config, $this->connectionId());
            }
            throw $e;
        }
    }

    /** Writes the queued streamed command and waits for the first result set (or the error). */
    private function openStream(): ResultStream
    {
        $this->busy = true;
        try {
            $this->transport->send($this->queryDeadline());
        } catch (\Throwable $e) {
            $this->fail();
            throw $e;
        } finally {
            $this->busy = false;
        }
        $this->streaming = true;
        $stream = new ResultStream($this->pullStream(...));
        $stream->current();

        return $stream;
    }

    /**
     * One read of a streamed answer.
     *
     * @return array{list<Protocol\StreamedSet>, bool, ?MysqlException} the sets begun, whether the
     *         answer is complete, its error
     */
    private function pullStream(): array
    {
        if ($this->busy) {
            throw new ConnectionBusy('This MySQL connection is already running a statement in another fiber; use one connection per fiber');
        }
        $this->busy = true;
        try {
            $outcome = $this->transport->pull($this->queryDeadline());
        } catch (\Throwable $e) {
            $this->fail();
            $this->streaming = false;
            if (!$e instanceof MysqlException) {
                throw $e;
            }

            return [$this->protocol->takeStreamSets(), true, $e];
        } finally {
            $this->busy = false;
        }
        $sets = $this->protocol->takeStreamSets();
        if ($outcome === null) {
            return [$sets, false, null];
        }
        $this->streaming = false;
        if ($outcome instanceof MysqlException) {
            if (\in_array($outcome->errorCode, self::FATAL_SERVER_ERRORS, true)) {
                $this->fail();
            }

            return [$sets, true, $outcome];
        }

        return [$sets, true, null];
    }

    /**
     * @throws MysqlException 2006 once closed or broken, 2014 while a streamed answer is unread
     * @throws ConnectionBusy
     */
    private function enter(): void
    {
        if ($this->busy) {
            throw new ConnectionBusy(
                'This MySQL connection is already running a statement in another fiber; use one connection per fiber',
            );
        }
        if ($this->closed) {
            throw new MysqlException('MySQL server has gone away: the connection was closed', Errors::SERVER_GONE);
        }
        // The transport closes only through fail() (broken) and shutdown() (closed).
        if ($this->broken) {
            throw new MysqlException('MySQL server has gone away: the connection broke earlier', Errors::SERVER_GONE);
        }
        if ($this->streaming) {
            throw new MysqlException("Commands out of sync; you can't run this command now", Errors::COMMANDS_OUT_OF_SYNC);
        }
    }

    private function queryDeadline(): ?float
    {
        return $this->config->queryTimeout > 0 ? self::now() + $this->config->queryTimeout : null;
    }

    private function fail(): void
    {
        $this->broken = true;
        $this->protocol->markBroken();
        $this->transport->close();
    }

    private static function now(): float
    {
        return hrtime(true) / 1e9;
    }
}
