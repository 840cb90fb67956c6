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
 * @internal The bytes of one MySQL session: writes what ClientProtocol queued, reads what the
 * server sent into it, suspending only the calling fiber while the socket is not ready (outside a
 * fiber the event loop runs until it is), within a deadline. It also runs the handshake (TLS
 * included), answers the server's LOCAL INFILE requests with the file's bytes (when the config
 * allows that file), and finds an idle session the server dropped. Failures are mysqlnd's
 * errors: 2002 while connecting, 2006 for a server gone before answering, 2013 during a query
 * (its timeout included). Which command runs, and what its failure breaks, is SocketConnection's.
 */
final class SocketTransport
{
    private const READ_CHUNK = 262144;
    private const WRITE_CHUNK = 1 << 20;
    /**
     * A connection idle for less than this (ns) is not probed before a command: statements in
     * a row (a request's queries) skip a system call each. A server that dropped it within the
     * window shows on the read instead (the same 2006, once the command was written).
     */
    private const IDLE_CHECK_AFTER_NS = 10_000_000;

    /** @var resource|null */
    private $socket;
    private bool $connecting = true;
    private bool $timedOut = false;
    /** whether any byte of the running command's answer arrived */
    private bool $answering = false;
    /** hrtime(true) when the last command's answer was complete */
    private int $lastAnswer = 0;

    /** @param resource $socket */
    private function __construct(
        private readonly ConnectionConfig $config,
        private readonly ClientProtocol $protocol,
        $socket,
        private readonly SocketWaiter $waiter,
    ) {
        $this->socket = $socket;
    }

    /**
     * Opens the socket (SocketOpener); the handshake is authenticate()'s.
     *
     * @throws MysqlException 2002
     */
    public static function open(ConnectionConfig $config, ClientProtocol $protocol, ?float $deadline): self
    {
        [$socket, $waiter] = SocketOpener::open($config, $deadline);

        return new self($config, $protocol, $socket, $waiter);
    }

    /**
     * Runs the handshake until the session is ready: TLS first when the protocol asks for it.
     *
     * @throws MysqlException
     */
    public function authenticate(?float $deadline): void
    {
        while (true) {
            $this->flush($deadline);
            $phase = $this->protocol->phase();
            if ($phase === Phase::Ready) {
                $this->protocol->takeOutcome();
                $this->connecting = false;

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

    public function isOpen(): bool
    {
        return $this->socket !== null;
    }

    /** Whether a wait for the server passed the query deadline (the query may still run there). */
    public function timedOut(): bool
    {
        return $this->timedOut;
    }

    /**
     * Writes the command the protocol queued and reads until its outcome is there: its results,
     * the prepared statement, true (ping), or the server's error.
     *
     * @return non-empty-list<Result>|PreparedStatement|MysqlException|true
     *
     * @throws MysqlException when the connection fails (it is then unusable)
     */
    public function exchange(?float $deadline): array|PreparedStatement|MysqlException|true
    {
        $this->answering = false;
        $sent = $this->flush($deadline);
        while (($outcome = $this->protocol->takeOutcome()) === null) {
            // advance(), unrolled (this loop runs for every statement), waiting first after a write.
            if ($this->protocol->phase() === Phase::LocalInfileRequested) {
                $this->protocol->sendLocalInfile($this->readLocalFile((string) $this->protocol->localInfileName()));
            } else {
                $this->receive($deadline, $sent);
            }
            $sent = $this->flush($deadline);
        }
        $this->lastAnswer = hrtime(true);

        return $outcome;
    }

    /**
     * Writes a streamed command the protocol queued; its answer comes through pull().
     *
     * @throws MysqlException
     */
    public function send(?float $deadline): void
    {
        $this->answering = false;
        $this->flush($deadline);
    }

    /**
     * One read of a streamed answer: its outcome once it is complete (its result sets carry no
     * rows: those went to the protocol's StreamedSets), null while rows are still coming.
     *
     * @return non-empty-list<Result>|PreparedStatement|MysqlException|true|null
     *
     * @throws MysqlException
     */
    public function pull(?float $deadline): array|PreparedStatement|MysqlException|true|null
    {
        $outcome = $this->protocol->takeOutcome();
        if ($outcome === null) {
            // Read first, even right after the command was sent: under load the send often
            // wakes the server's thread on this core and its answer is there when fwrite()
            // returns, and the fiber then never suspends. Waiting first was measured 0.76x on the
            // blog's /batch (2 workers, MariaDB on the same cores: CPU 17.8 -> 23.2 ms a request,
            // MariaDB's 7.5 -> 10.3 ms), though it saves a read that finds nothing when idle.
            $this->advance($deadline);
            $this->flush($deadline);
            $outcome = $this->protocol->takeOutcome();
        }
        if ($outcome !== null) {
            $this->lastAnswer = hrtime(true);
        }

        return $outcome;
    }

    /**
     * Writes everything the protocol queued.
     *
     * @return bool whether there was something to write
     *
     * @throws MysqlException
     */
    public function flush(?float $deadline): bool
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
     * One step towards the command's outcome: the file the server asked for (LOCAL INFILE) is
     * queued, or what the server sent is read (waiting for it).
     *
     * @throws MysqlException
     */
    private function advance(?float $deadline): void
    {
        if ($this->protocol->phase() === Phase::LocalInfileRequested) {
            $this->protocol->sendLocalInfile($this->readLocalFile((string) $this->protocol->localInfileName()));
        } else {
            $this->receive($deadline);
        }
    }

    /**
     * Before a command: bytes or EOF on an idle connection mean the server dropped it. Without
     * TLS one non-blocking peek tells (nothing waiting: the usual case); with TLS the record
     * layer must read (a session ticket is not a sign of trouble). Skipped right after a command
     * (IDLE_CHECK_AFTER_NS) unless bytes already wait.
     *
     * @throws MysqlException 2006
     */
    public function checkIdle(): void
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

    /** Sends COM_QUIT without waiting (best effort: the socket closes next). */
    public function quit(): void
    {
        if ($this->socket !== null) {
            $this->protocol->quit();
            @fwrite($this->socket, $this->protocol->takeOutgoing());
        }
    }

    public function close(): void
    {
        if ($this->socket !== null) {
            $this->waiter->cancel();
            @fclose($this->socket);
            $this->socket = null;
        }
    }

    /**
     * Reads what the server sent (waiting for it) and gives it to the protocol. $waitFirst right
     * after sending a command: the answer cannot be there yet, so a read would only find nothing.
     *
     * @throws MysqlException
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

    private function timeout(): MysqlException
    {
        if ($this->connecting) {
            return new MysqlException(
                sprintf("Can't connect to MySQL server on %s (timed out after %.3g s)", SocketOpener::describe($this->config), $this->config->connectTimeout),
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

    /** The file's bytes, or null (the protocol sends an empty file) when it may not be read or cannot be. */
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
}
