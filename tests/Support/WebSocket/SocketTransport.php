<?php

declare(strict_types=1);

namespace Spindle\Tests\Support\WebSocket;

use Spindle\Http\WebSocket\ClientHandshake;
use Spindle\Http\WebSocket\HandshakeException;

/**
 * A CaseTransport over TCP to a running WebSocket server (127.0.0.1 in tests): connect() does the
 * opening handshake with ClientHandshake; every send() is one write with TCP_NODELAY, so the
 * cases' chops reach the server as separate segments.
 */
final class SocketTransport implements CaseTransport
{
    private string $pending = '';
    private bool $closed = false;
    /** The subprotocol the server chose in its 101. */
    public ?string $subprotocol = null;
    /** @var array<string, list<string>> the 101's headers, by lower-case name */
    public array $headers = [];

    /** @param resource $stream */
    private function __construct(private $stream)
    {
    }

    /**
     * @param list<string> $subprotocols
     * @param array<string, string> $headers more request headers (Origin, …)
     */
    public static function connect(string $host, int $port, string $path = '/', float $timeout = 5.0, array $subprotocols = [], array $headers = []): self
    {
        $context = \stream_context_create(['socket' => ['tcp_nodelay' => true]]);
        $stream = @\stream_socket_client("tcp://{$host}:{$port}", $errno, $error, $timeout, \STREAM_CLIENT_CONNECT, $context);
        if ($stream === false) {
            throw new \RuntimeException(\sprintf('Cannot connect to %s:%d: %s', $host, $port, $error));
        }
        $handshake = new ClientHandshake("{$host}:{$port}", $path, $subprotocols, $headers);
        \fwrite($stream, $handshake->request());
        $transport = new self($stream);
        $response = '';
        $deadline = \microtime(true) + $timeout;
        while (!\str_contains($response, "\r\n\r\n")) {
            $bytes = $transport->read(\max(0.0, $deadline - \microtime(true)));
            if ($bytes === '') {
                throw new HandshakeException(\sprintf('No complete answer to the handshake from %s:%d', $host, $port));
            }
            $response .= $bytes;
        }
        [$head, $transport->pending] = \explode("\r\n\r\n", $response, 2);
        [$status, $headers] = ClientHandshake::parseResponseHead($head);
        $transport->subprotocol = $handshake->validate($status, $headers);
        $transport->headers = $headers;

        return $transport;
    }

    public function send(string $bytes): void
    {
        while ($bytes !== '' && !$this->closed) {
            $written = @\fwrite($this->stream, $bytes);
            if ($written === false || $written === 0) {
                return;
            }
            $bytes = (string) \substr($bytes, $written);
        }
    }

    public function receive(float $timeout): string
    {
        if ($this->pending !== '') {
            [$bytes, $this->pending] = [$this->pending, ''];

            return $bytes;
        }

        return $this->read($timeout);
    }

    public function isClosed(): bool
    {
        return $this->closed && $this->pending === '';
    }

    public function close(): void
    {
        if (\is_resource($this->stream)) {
            \fclose($this->stream);
        }
        $this->closed = true;
    }

    private function read(float $timeout): string
    {
        if ($this->closed || !\is_resource($this->stream)) {
            return '';
        }
        $read = [$this->stream];
        $write = $except = null;
        $seconds = (int) $timeout;
        if (@\stream_select($read, $write, $except, $seconds, (int) (($timeout - $seconds) * 1e6)) !== 1) {
            return '';
        }
        $bytes = @\fread($this->stream, 262144);
        if ($bytes === false || $bytes === '') {
            $this->closed = true;

            return '';
        }

        return $bytes;
    }
}
