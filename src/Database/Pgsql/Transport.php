<?php

declare(strict_types=1);

namespace Spindle\Database\Pgsql;

use Spindle\Loop\SocketWaiter;

/**
 * The socket under a PostgreSQL connection: non-blocking, and every wait (connect, write, read,
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

    /** @throws PgsqlException 08001 */
    public static function open(ConnectionConfig $config, ?float $deadline): self
    {
        $uri = $config->isUnixSocket()
            ? 'unix://' . $config->socketPath()
            : 'tcp://' . (str_contains($config->host, ':') ? '[' . $config->host . ']' : $config->host) . ':' . $config->port;
        $errno = 0;
        $errstr = '';
        $context = stream_context_create(['socket' => ['tcp_nodelay' => true]]);
        $socket = @stream_socket_client($uri, $errno, $errstr, null, STREAM_CLIENT_CONNECT | STREAM_CLIENT_ASYNC_CONNECT, $context);
        if ($socket === false) {
            throw new PgsqlException(self::where($config) . ' failed: ' . ($errstr !== '' ? $errstr : 'Connection refused'), '08001');
        }
        stream_set_blocking($socket, false);
        stream_set_read_buffer($socket, 0);
        $transport = new self($socket, new SocketWaiter($socket, keepReading: true));
        try {
            if (!$transport->waiter->wait(true, $deadline)) {
                throw new PgsqlException(self::where($config) . ' failed: timeout expired', '08001');
            }
            if (!$config->isUnixSocket() && @stream_socket_get_name($socket, true) === false) {
                throw new PgsqlException(self::where($config) . ' failed: Connection refused' . "\n\tIs the server running on that host and accepting TCP/IP connections?", '08001');
            }
        } catch (\Throwable $e) {
            $transport->close();
            throw $e;
        }

        return $transport;
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
     * @param array<string, mixed> $options stream context ssl options
     *
     * @throws PgsqlException 08001
     */
    public function enableTls(array $options, ?float $deadline): void
    {
        $socket = $this->socket();
        foreach ($options as $name => $value) {
            stream_context_set_option($socket, 'ssl', $name, $value);
        }
        $method = STREAM_CRYPTO_METHOD_TLSv1_2_CLIENT | STREAM_CRYPTO_METHOD_TLSv1_3_CLIENT;
        while (true) {
            error_clear_last();
            $result = @stream_socket_enable_crypto($socket, true, $method);
            if ($result === true) {
                $this->tls = true;

                return;
            }
            if ($result === false) {
                $reason = error_get_last()['message'] ?? 'handshake failed';
                throw new PgsqlException('SSL error: ' . preg_replace('/^stream_socket_enable_crypto\(\): /', '', $reason), '08001');
            }
            if (!$this->waiter->wait(false, $deadline)) {
                throw new PgsqlException('SSL error: the TLS handshake timed out', '08001');
            }
        }
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
