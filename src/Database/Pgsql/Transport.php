<?php

declare(strict_types=1);

namespace Spindle\Database\Pgsql;

use Spindle\Loop\ClientSocket;
use Spindle\Loop\ClientSocketException;
use Spindle\Loop\ClientSocketFailure;
use Spindle\Loop\SocketWaiter;

/**
 * The socket under a PostgreSQL connection, opened and put under TLS by Loop\ClientSocket (as
 * the MySQL, Redis and HTTP clients' are): non-blocking, and every wait (connect, write, read,
 * TLS handshake) suspends only the calling fiber through a SocketWaiter (outside a fiber the
 * event loop runs until the socket is ready). Deadlines are hrtime seconds, null for none.
 *
 * @internal
 */
final class Transport
{
    private const READ_CHUNK = 262144;

    /** @var resource|null */
    private $socket;
    private bool $tls = false;

    /** @param resource $socket */
    private function __construct($socket, private readonly SocketWaiter $waiter)
    {
        $this->socket = $socket;
    }

    /**
     * The socket of $config, opened by Loop\ClientSocket as every Spindle client's is.
     *
     * @throws PgsqlException 08001
     */
    public static function open(ConnectionConfig $config, ?float $deadline): self
    {
        try {
            $socket = ClientSocket::connect(ClientSocket::uri($config->host, $config->port, $config->isUnixSocket() ? $config->socketPath() : null), $deadline);
        } catch (ClientSocketException $e) {
            throw new PgsqlException(self::where($config) . ' failed: ' . match ($e->failure) {
                ClientSocketFailure::TimedOut => 'timeout expired',
                ClientSocketFailure::Refused => "Connection refused\n\tIs the server running on that host and accepting TCP/IP connections?",
                default => $e->reason !== '' ? $e->reason : 'Connection refused',
            }, '08001', null, $e);
        }

        return new self($socket, new SocketWaiter($socket, keepReading: true));
    }

    /** How libpq names the server in connection errors. */
    public static function where(ConnectionConfig $config): string
    {
        return $config->isUnixSocket()
            ? sprintf('connection to server on socket "%s"', $config->socketPath())
            : sprintf('connection to server at "%s", port %d', $config->host, $config->port);
    }

    public function isTls(): bool
    {
        return $this->tls;
    }

    /**
     * @return bool false when the deadline passed first
     *
     * @throws PgsqlException when the connection is lost
     */
    public function write(string $data, ?float $deadline): bool
    {
        $socket = $this->socket();
        $length = \strlen($data);
        $offset = 0;
        while ($offset < $length) {
            $written = @fwrite($socket, $offset === 0 ? $data : substr($data, $offset));
            if ($written === false) {
                throw new PgsqlException('server closed the connection unexpectedly', '08006');
            }
            if ($written === 0) {
                if (!$this->waiter->wait(true, $deadline)) {
                    return false;
                }
                continue;
            }
            $offset += $written;
        }

        return true;
    }

    /**
     * What the server sent, waiting for it; '' when the deadline passed first.
     *
     * @throws PgsqlException when the server closed the connection
     */
    public function read(?float $deadline, bool $waitFirst = true): string
    {
        $socket = $this->socket();
        if (!$waitFirst) {
            // Nothing there yet is the common answer, and a select() of this socket alone finds
            // that for less than half of what a TLS read that finds nothing costs (PHP counts
            // what TLS holds decrypted as readable). The end of the stream shows as readiness
            // at once, and the read after the wait tells it apart.
            $read = [$socket];
            $none = null;
            if (@stream_select($read, $none, $none, 0) === 1) {
                $data = @fread($socket, self::READ_CHUNK);
                if ($data !== '' && $data !== false) {
                    return $data;
                }
            }
        }
        while (true) {
            if (!$this->waiter->wait(false, $deadline)) {
                return '';
            }
            $data = @fread($socket, self::READ_CHUNK);
            if ($data === false || ($data === '' && ($this->tls ? feof($socket) : stream_get_meta_data($socket)['eof']))) {
                throw new PgsqlException("server closed the connection unexpectedly\n\tThis probably means the server terminated abnormally\n\tbefore or while processing the request.", '08006');
            }
            if ($data !== '') {
                return $data;
            }
        }
    }

    /** Reads what is there without waiting ('' when nothing is). */
    public function readNow(): string
    {
        $socket = $this->socket();
        $data = @fread($socket, self::READ_CHUNK);
        if ($data === false || ($data === '' && ($this->tls ? feof($socket) : stream_get_meta_data($socket)['eof']))) {
            throw new PgsqlException('server closed the connection unexpectedly', '08006');
        }

        return $data;
    }

    /**
     * Suspends until the socket is readable.
     *
     * @return bool false when the deadline passed first
     */
    public function waitReadable(?float $deadline): bool
    {
        $this->socket();

        return $this->waiter->wait(false, $deadline);
    }

    /**
     * Starts TLS on the socket (after the server accepted the SSLRequest), by Loop\ClientSocket.
     *
     * @param array<string, mixed> $options stream context ssl options
     *
     * @throws PgsqlException 08001
     */
    public function enableTls(array $options, ?float $deadline): void
    {
        try {
            ClientSocket::enableTls($this->socket(), $options, $deadline, $this->waiter);
        } catch (ClientSocketException $e) {
            throw new PgsqlException('SSL error: ' . match ($e->failure) {
                ClientSocketFailure::TlsTimedOut => 'the TLS handshake timed out',
                default => $e->warnings === [] ? 'handshake failed' : (string) preg_replace('/^stream_socket_enable_crypto\(\): /', '', $e->warnings[\count($e->warnings) - 1]),
            }, '08001', null, $e);
        }
        $this->tls = true;
    }

    /** Best effort, never waits: the last words (Terminate) of a healthy session. */
    public function writeNow(string $data): void
    {
        if ($this->socket !== null) {
            @fwrite($this->socket, $data);
        }
    }

    public function isOpen(): bool
    {
        return $this->socket !== null;
    }

    public function close(): void
    {
        if ($this->socket !== null) {
            $this->waiter->cancel();
            @fclose($this->socket);
            $this->socket = null;
        }
    }

    /** @return resource */
    private function socket()
    {
        return $this->socket ?? throw new PgsqlException('connection is closed', '08003');
    }
}
