<?php

declare(strict_types=1);

namespace Spindle\Tests\Support\WebSocket;

use Spindle\Http\WebSocket\ClientHandshake;

/**
 * The Autobahn test client's transport to a running server: a TCP connection to 127.0.0.1 that
 * made the opening handshake (ClientHandshake) on $path. Bytes the server sent after its 101 in
 * the same read are kept for the first receive().
 */
final class SocketTransport implements CaseTransport
{
    /** @var resource */
    private mixed $socket;
    private string $pending = '';
    private bool $closed = false;
    /** @var array<string, list<string>> the 101's headers */
    public readonly array $headers;
    /** The subprotocol the server chose. */
    public readonly ?string $subprotocol;

    /** @param list<string> $subprotocols */
    public function __construct(int $port, string $path = '/echo', array $subprotocols = [])
    {
        $socket = \stream_socket_client('tcp://127.0.0.1:' . $port, $errno, $error, 5.0);
        if ($socket === false) {
            throw new \RuntimeException("Cannot connect to 127.0.0.1:$port: $error");
        }
        $this->socket = $socket;
        $handshake = new ClientHandshake('127.0.0.1:' . $port, $path, $subprotocols);
        \fwrite($socket, $handshake->request());
        $head = '';
        $deadline = \microtime(true) + 5.0;
        while (($end = \strpos($head, "\r\n\r\n")) === false) {
            $read = [$socket];
            $write = $except = null;
            if (\microtime(true) > $deadline || @\stream_select($read, $write, $except, 0, 200000) === false) {
                throw new \RuntimeException('No handshake response');
            }
            $bytes = \fread($socket, 65536);
            if ($bytes === false || ($bytes === '' && \feof($socket))) {
                throw new \RuntimeException('Closed during the handshake: ' . $head);
            }
            $head .= $bytes;
        }
        $this->pending = (string) \substr($head, $end + 4);
        [$status, $headers] = ClientHandshake::parseResponseHead(\substr($head, 0, $end + 4));
        $this->subprotocol = $handshake->validate($status, $headers);
        $this->headers = $headers;
        \stream_set_blocking($socket, false);
    }

    public function send(string $bytes): void
    {
        \stream_set_blocking($this->socket, true);
        @\fwrite($this->socket, $bytes);
        \stream_set_blocking($this->socket, false);
    }

    public function receive(float $timeout): string
    {
        if ($this->pending !== '') {
            $bytes = $this->pending;
            $this->pending = '';

            return $bytes;
        }
        if ($this->closed) {
            return '';
        }
        $read = [$this->socket];
        $write = $except = null;
        $seconds = (int) $timeout;
        if (@\stream_select($read, $write, $except, $seconds, (int) (($timeout - $seconds) * 1e6)) !== 1) {
            return '';
        }
        $bytes = @\fread($this->socket, 1 << 20);
        if ($bytes === false || ($bytes === '' && \feof($this->socket))) {
            $this->closed = true;

            return '';
        }

        return $bytes;
    }

    public function isClosed(): bool
    {
        if (!$this->closed && $this->pending === '') {
            $read = [$this->socket];
            $write = $except = null;
            if (@\stream_select($read, $write, $except, 0) === 1) {
                $bytes = @\fread($this->socket, 1 << 20);
                if ($bytes === false || ($bytes === '' && \feof($this->socket))) {
                    $this->closed = true;
                } else {
                    $this->pending = $bytes;
                }
            }
        }

        return $this->closed && $this->pending === '';
    }

    public function close(): void
    {
        if (\is_resource($this->socket)) {
            \fclose($this->socket);
        }
        $this->closed = true;
    }
}
