<?php

declare(strict_types=1);

namespace Spindle\HttpClient;

use Spindle\Loop\ClientSocket;
use Spindle\Loop\ClientSocketException;
use Spindle\Loop\ClientSocketFailure;
use Spindle\Loop\SocketWaiter;

/**
 * One TCP (or TLS) connection to an origin, non-blocking: every wait suspends the calling fiber
 * (or runs the loop outside a fiber). Deadlines are hrtime seconds; a missed one raises
 * TimeoutException and closes the connection.
 */
final class Connection
{
    private const READ_SIZE = 65536;

    private SocketWaiter $waiter;
    private bool $closed = false;
    public float $idleSince = 0.0;
    public int $requests = 0;

    /** @param resource $socket */
    private function __construct(private $socket, public readonly string $key, public readonly string $peer)
    {
        $this->waiter = new SocketWaiter($socket);
    }

    /**
     * Connects to $host:$port (over TLS when $tls is given), by $deadline. With $tunnel, $host is
     * an HTTP proxy asked to CONNECT to the tunnel's host and port, and TLS is then spoken with
     * that host through it.
     *
     * @param array{host: string, port: int, authorization: ?string}|null $tunnel
     *
     * @throws ConnectException|CertificateException|TimeoutException
     */
    public static function open(string $key, string $ip, string $host, int $port, ?TlsOptions $tls, ?float $deadline, ?array $tunnel = null): self
    {
        $peer = $host . ':' . $port;
        $address = \str_contains($ip, ':') ? '[' . $ip . ']:' . $port : $ip . ':' . $port;
        try {
            $socket = ClientSocket::connect('tcp://' . $address, $deadline);
        } catch (ClientSocketException $e) {
            throw match ($e->failure) {
                ClientSocketFailure::TimedOut => new TimeoutException(\sprintf('Connection to %s timed out', $peer), TimeoutKind::Connect),
                ClientSocketFailure::Refused => new ConnectException(\sprintf('Failed to connect to %s: %s', $peer, $e->reason !== '' ? $e->reason : 'Connection refused')),
                default => new ConnectException(\sprintf('Failed to connect to %s: %s', $peer, $e->reason !== '' ? $e->reason : 'unknown error')),
            };
        }
        $connection = new self($socket, $key, $peer);
        try {
            if ($tunnel !== null) {
                $connection->connectTunnel($tunnel, $deadline);
            }
            if ($tls !== null) {
                $connection->handshake($tunnel['host'] ?? $host, $tls, $deadline);
            }
        } catch (\Throwable $e) {
            $connection->close();
            throw $e;
        }

        return $connection;
    }

    /** @param array{host: string, port: int, authorization: ?string} $tunnel */
    private function connectTunnel(array $tunnel, ?float $deadline): void
    {
        $authority = (\str_contains($tunnel['host'], ':') ? '[' . $tunnel['host'] . ']' : $tunnel['host']) . ':' . $tunnel['port'];
        $request = 'CONNECT ' . $authority . " HTTP/1.1\r\nHost: " . $authority . "\r\n"
            . ($tunnel['authorization'] !== null ? 'Proxy-Authorization: ' . $tunnel['authorization'] . "\r\n" : '') . "\r\n";
        try {
            $this->write($request, $deadline);
            $parser = new Protocol\ResponseParser(true);
            while ($parser->head() === null) {
                $bytes = $this->read($deadline, TimeoutKind::Connect);
                $bytes === '' ? $parser->close() : $parser->push($bytes);
            }
        } catch (ConnectionLost|Protocol\ResponseParseException $e) {
            throw new ConnectException(\sprintf('The proxy %s did not open a tunnel to %s: %s', $this->peer, $authority, $e->getMessage()), 0, $e);
        }
        $head = $parser->head();
        if ($head->status < 200 || $head->status > 299) {
            throw new ConnectException(\sprintf('The proxy %s refused a tunnel to %s: %s', $this->peer, $authority, $head->statusLine()));
        }
    }

    private function handshake(string $host, TlsOptions $tls, ?float $deadline): void
    {
        try {
            ClientSocket::enableTls($this->socket, $tls->contextOptions($host), $deadline, $this->waiter);
        } catch (ClientSocketException $e) {
            if ($e->failure === ClientSocketFailure::TlsTimedOut) {
                throw new TimeoutException(\sprintf('TLS handshake with %s timed out', $this->peer), TimeoutKind::Connect);
            }
            $message = \implode('; ', \array_map(static fn (string $m): string => \preg_replace('/^stream_socket_enable_crypto\(\): /', '', $m) ?? $m, $e->warnings));
            $text = \sprintf('TLS handshake with %s failed: %s', $this->peer, $message !== '' ? $message : 'the connection was closed');
            throw \preg_match('/certificate verify failed|did not match expected CN|Peer certificate/i', $message) === 1
                ? new CertificateException($text)
                : new ConnectException($text);
        }
    }

    /** @throws HttpClientException|TimeoutException */
    public function write(string $bytes, ?float $deadline): void
    {
        while ($bytes !== '') {
            $written = @\fwrite($this->socket, $bytes);
            if ($written === false || ($written === 0 && \feof($this->socket))) {
                $this->close();
                throw new ConnectionLost(\sprintf('Sending the request to %s failed: the connection was closed', $this->peer));
            }
            $bytes = (string) \substr($bytes, $written);
            if ($bytes !== '' && !$this->waiter->wait(true, $deadline)) {
                $this->close();
                throw new TimeoutException(\sprintf('Sending the request to %s timed out', $this->peer), TimeoutKind::Idle);
            }
        }
    }

    /**
     * The next bytes, '' when the peer closed the connection.
     *
     * @param float|null $deadline
     *
     * @throws TimeoutException
     */
    public function read(?float $deadline, TimeoutKind $kind = TimeoutKind::Idle): string
    {
        while (true) {
            $bytes = @\fread($this->socket, self::READ_SIZE);
            if ($bytes !== false && $bytes !== '') {
                return $bytes;
            }
            if ($bytes === false || \feof($this->socket)) {
                return '';
            }
            if (!$this->waiter->wait(false, $deadline)) {
                $this->close();
                throw new TimeoutException(\sprintf('No data from %s within the %s timeout', $this->peer, $kind->value), $kind);
            }
        }
    }

    /** True when an idle connection still looks usable: not closed by the peer, nothing unexpected to read. */
    public function isUsable(): bool
    {
        if ($this->closed) {
            return false;
        }
        $bytes = @\fread($this->socket, 1);

        return $bytes === '' && !\feof($this->socket);
    }

    public function isClosed(): bool
    {
        return $this->closed;
    }

    public function close(): void
    {
        if ($this->closed) {
            return;
        }
        $this->closed = true;
        $this->waiter->cancel();
        @\fclose($this->socket);
    }

    public function __destruct()
    {
        $this->close();
    }
}
