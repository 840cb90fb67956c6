<?php

declare(strict_types=1);

namespace Spindle\Database\Mysql;

use Spindle\Database\Mysql\Protocol\ClientProtocol;
use Spindle\Database\Mysql\Protocol\Errors;
use Spindle\Database\Mysql\Protocol\Phase;
use Spindle\Loop\ClientSocket;
use Spindle\Loop\ClientSocketException;
use Spindle\Loop\ClientSocketFailure;
use Spindle\Loop\SocketWaiter;

/**
 * A Connection over a TCP or unix socket, non-blocking: while it waits for the server only the
 * calling fiber is suspended (outside a fiber the event loop runs until the answer is there).
 * The protocol itself lives in ClientProtocol; this class moves its bytes.
 *
 * A lost connection, a malformed packet or a query timeout breaks the connection: it is closed,
 * isBroken() is true, and every later call throws MysqlException 2006 at once. Server errors
 * (ERR packets answering a statement) leave it usable. isBroken() is also true after close().
 *
 * Over 500 lines: the command lifecycle of one MySQL session (sending a command, reading its
 * results whole or streamed, LOCAL INFILE); opening the socket and killing a query after its
 * timeout are SocketOpener and QueryKiller. Streamed results are the next part to move out.
 */
final class SocketConnection implements StreamingConnection
{
    private const READ_CHUNK = 262144;
    /**
     * Server errors after which the server closes the connection: ER_SERVER_SHUTDOWN,
     * ER_CONNECTION_KILLED (MariaDB), ER_SESSION_WAS_KILLED and ER_CLIENT_INTERACTION_TIMEOUT (MySQL 8).
     */
    private const FATAL_SERVER_ERRORS = [1053, 1927, 3169, 4031];
    private const WRITE_CHUNK = 1 << 20;
    /**
     * A connection idle for less than this (ns) is not probed before a command: statements in
     * a row (a request's queries) skip a system call each. A server that dropped it within the
     * window shows on the read instead (the same 2006, once the command was written).
     */
    private const IDLE_CHECK_AFTER_NS = 10_000_000;

    /** @var resource|null */
    private $socket;
    private bool $busy = false;
    private bool $broken = false;
    private bool $closed = false;
    private bool $connecting = true;
    private bool $timedOut = false;
    /** hrtime(true) when the last command's answer was complete */
    private int $lastAnswer = 0;
    /** whether any byte of the running command's answer arrived */
    private bool $answering = false;
    /** A streamed command's answer is still being read: no other command until it is complete. */
    private bool $streaming = false;

    /** @param resource $socket */
    private function __construct(
        private readonly ConnectionConfig $config,
        $socket,
        private readonly SocketWaiter $waiter,
        private readonly ClientProtocol $protocol,
    ) {
        $this->socket = $socket;
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
        [$socket, $waiter] = SocketOpener::open($config, $deadline);
        $connection = new self($config, $socket, $waiter, $protocol);
        try {
            $connection->authenticate($deadline);
            $connection->connecting = false;
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
        $this->begin();
        $this->protocol->prepare($sql);
        $statement = $this->finish();
        if (!$statement instanceof PreparedStatement) {
            throw Errors::malformed('COM_STMT_PREPARE answered without a statement');
        }

        return $statement;
    }

    /**
     * @param list<mixed> $params
     *
     * @throws MysqlException
     * @throws ConnectionBusy while another fiber runs a statement on this connection
     */
    public function execute(PreparedStatement $statement, array $params): array
    {
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
        $this->begin();
        $this->protocol->execute($statement, $params, stream: true);

        return $this->openStream();
    }

    public function closeStatement(PreparedStatement $statement): void
    {
        if ($this->broken || $this->closed || $this->socket === null || $this->streaming) {
            return;
        }
        $this->enter();
        $this->busy = true;
        try {
            $this->protocol->closeStatement($statement->id);
            $this->flush($this->queryDeadline());
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
        if ($this->socket === null) {
            $this->closed = true;

            return;
        }
        if (!$this->broken && $this->protocol->phase() === Phase::Ready) {
            $this->protocol->quit();
            @fwrite($this->socket, $this->protocol->takeOutgoing());
        }
        $this->closed = true;
        $this->closeSocket();
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
            $this->checkIdle();
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
            $this->lastAnswer = hrtime(true);
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
        $deadline = $this->queryDeadline();
        $this->answering = false;
        try {
            $sent = $this->flush($deadline);
            while (($outcome = $this->protocol->takeOutcome()) === null) {
                if ($this->protocol->phase() === Phase::LocalInfileRequested) {
                    $this->protocol->sendLocalInfile($this->readLocalFile((string) $this->protocol->localInfileName()));
                } else {
                    $this->receive($deadline, $sent);
                }
                $sent = $this->flush($deadline);
            }

            return $outcome;
        } catch (\Throwable $e) {
            $this->fail();
            if ($this->timedOut && $this->config->killQueryOnTimeout) {
                QueryKiller::killInBackground($this->config, $this->connectionId());
            }
            throw $e;
        }
    }

    /** Writes the queued streamed command and waits for the first result set (or the error). */
    private function openStream(): ResultStream
    {
        $this->busy = true;
        $this->answering = false;
        try {
            $this->flush($this->queryDeadline());
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
            $deadline = $this->queryDeadline();
            $outcome = $this->protocol->takeOutcome();
            if ($outcome === null) {
                if ($this->protocol->phase() === Phase::LocalInfileRequested) {
                    $this->protocol->sendLocalInfile($this->readLocalFile((string) $this->protocol->localInfileName()));
                } else {
                    $this->receive($deadline);
                }
                $this->flush($deadline);
                $outcome = $this->protocol->takeOutcome();
            }
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
        $this->lastAnswer = hrtime(true);
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
        if ($this->broken || $this->socket === null) {
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

    /**
     * Before a command: bytes or EOF on an idle connection mean the server dropped it. Without
     * TLS one non-blocking peek tells (nothing waiting: the usual case); with TLS the record
     * layer must read (a session ticket is not a sign of trouble). Skipped right after a command
     * (IDLE_CHECK_AFTER_NS) unless bytes already wait.
     */
    private function checkIdle(): void
    {
        if (hrtime(true) - $this->lastAnswer < self::IDLE_CHECK_AFTER_NS && !$this->protocol->hasUnconsumedInput()) {
            return;
        }
        $socket = $this->socket();
        $buffered = $this->protocol->unconsumedInput();
        if ($buffered === '' && $this->config->tls === null && @stream_socket_recvfrom($socket, 1, STREAM_PEEK) === false) {
            // Nothing to read (EAGAIN); a socket error shows on the write that follows.
            return;
        }
        $read = @fread($socket, self::READ_CHUNK);
        $data = $buffered . ($read === false ? '' : $read);
        if ($read === false || ($data === '' && $this->atEof($socket))) {
            throw new MysqlException('MySQL server has gone away', Errors::SERVER_GONE);
        }
        if ($data !== '') {
            $server = ClientProtocol::describeUnsolicited($data);
            throw new MysqlException(
                'MySQL server has gone away' . ($server !== null ? ': ' . $server->getMessage() : ''),
                Errors::SERVER_GONE,
                'HY000',
                $server,
            );
        }
    }

    /**
     * Whether the last read hit the end of the stream. Without TLS the flag the read set, not
     * feof(): that probes the socket again (poll and peek) when the read found nothing. With TLS
     * feof(), which also asks the record layer.
     *
     * @param resource $socket
     */
    private function atEof($socket): bool
    {
        return $this->config->tls === null ? stream_get_meta_data($socket)['eof'] : feof($socket);
    }

    private function authenticate(?float $deadline): void
    {
        while (true) {
            $this->flush($deadline);
            $phase = $this->protocol->phase();
            if ($phase === Phase::Ready) {
                $this->protocol->takeOutcome();

                return;
            }
            if ($phase === Phase::TlsRequested) {
                $this->enableTls($deadline);
                $this->protocol->tlsEstablished();
                continue;
            }
            $this->receive($deadline);
        }
    }

    private function enableTls(?float $deadline): void
    {
        $options = ($this->config->tls ?? []) + ['peer_name' => $this->config->host, 'SNI_enabled' => true];
        try {
            ClientSocket::enableTls($this->socket(), $options, $deadline, $this->waiter);
        } catch (ClientSocketException $e) {
            throw new MysqlException('SSL connection error: ' . ($e->failure === ClientSocketFailure::TlsTimedOut
                ? 'the TLS handshake timed out'
                : ($e->warnings !== [] ? $e->warnings[\count($e->warnings) - 1] : 'handshake failed')), Errors::SSL_CONNECTION_ERROR);
        }
    }

    /**
     * Writes everything the protocol queued.
     *
     * @return bool whether there was something to write
     */
    private function flush(?float $deadline): bool
    {
        $data = $this->protocol->takeOutgoing();
        $length = \strlen($data);
        $offset = 0;
        $socket = $this->socket();
        while ($offset < $length) {
            $chunk = $offset === 0 && $length <= self::WRITE_CHUNK ? $data : substr($data, $offset, self::WRITE_CHUNK);
            $written = @fwrite($socket, $chunk);
            if ($written === false) {
                throw new MysqlException('MySQL server has gone away', Errors::SERVER_GONE);
            }
            if ($written === 0) {
                if (!$this->await(true, $deadline)) {
                    throw $this->timeout();
                }
                continue;
            }
            $offset += $written;
        }

        return $length > 0;
    }

    /**
     * Reads what the server sent (waiting for it) and gives it to the protocol. $waitFirst right
     * after sending a command: the answer cannot be there yet, so a read would only find nothing.
     */
    private function receive(?float $deadline, bool $waitFirst = false): void
    {
        $socket = $this->socket();
        while (true) {
            if ($waitFirst && !$this->await(false, $deadline)) {
                throw $this->timeout();
            }
            $waitFirst = true;
            $data = @fread($socket, self::READ_CHUNK);
            if ($data === false || ($data === '' && $this->atEof($socket))) {
                throw match (true) {
                    $this->connecting => new MysqlException("Lost connection to MySQL server at 'reading authorization packet'", Errors::SERVER_LOST),
                    // Closed before answering at all (it was gone before the command, or dropped
                    // it unread): mysqlnd's "gone away", as when the idle check finds it closed.
                    !$this->answering => new MysqlException('MySQL server has gone away', Errors::SERVER_GONE),
                    default => new MysqlException('Lost connection to MySQL server during query', Errors::SERVER_LOST),
                };
            }
            if ($data !== '') {
                $this->answering = true;
                $this->protocol->push($data);

                return;
            }
        }
    }

    private function timeout(): MysqlException
    {
        if ($this->connecting) {
            return new MysqlException(
                sprintf("Can't connect to MySQL server on %s (timed out after %.3g s)", $this->where(), $this->config->connectTimeout),
                Errors::CONNECTION_ERROR,
            );
        }
        $this->timedOut = true;

        return new MysqlException(
            sprintf('Lost connection to MySQL server during query: query timed out after %.3g s', $this->config->queryTimeout),
            Errors::SERVER_LOST,
        );
    }

    /**
     * Suspends the calling fiber until the socket is readable (or writable) or the deadline passes.
     *
     * @return bool false on timeout
     */
    private function await(bool $write, ?float $deadline): bool
    {
        if ($this->socket === null) {
            throw new MysqlException('MySQL server has gone away: the connection is closed', Errors::SERVER_GONE);
        }

        return $this->waiter->wait($write, $deadline);
    }

    private function where(): string
    {
        return SocketOpener::describe($this->config);
    }

    private function readLocalFile(string $name): ?string
    {
        if (!$this->config->mayReadLocalFile($name)) {
            return null;
        }
        $contents = @file_get_contents($name);

        return $contents === false ? null : $contents;
    }

    /** @return resource */
    private function socket()
    {
        if ($this->socket === null) {
            throw new MysqlException('MySQL server has gone away: the connection is closed', Errors::SERVER_GONE);
        }

        return $this->socket;
    }

    private function fail(): void
    {
        $this->broken = true;
        $this->protocol->markBroken();
        $this->closeSocket();
    }

    private function closeSocket(): void
    {
        if ($this->socket !== null) {
            $this->waiter->cancel();
            @fclose($this->socket);
            $this->socket = null;
        }
    }

    private static function now(): float
    {
        return hrtime(true) / 1e9;
    }
}
