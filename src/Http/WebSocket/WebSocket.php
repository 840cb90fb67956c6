<?php

declare(strict_types=1);

namespace Spindle\Http\WebSocket;

use Spindle\Http\Request;

/**
 * An open WebSocket connection, as the app sees it (WebSocketHandler's calls get it): send
 * messages, ping, close. Sending never waits: what the client has not taken yet is buffered, up to
 * WebSocketOptions::$maxBuffered, past which the client is dropped as too slow.
 */
final class WebSocket
{
    /** @var array<string, mixed> what the app keeps about this connection (the user, the channels it joined, …) */
    public array $attributes = [];

    /** @internal made by its WebSocketDriver */
    public function __construct(
        private readonly WebSocketDriver $driver,
        /** A number for this connection, unique among the worker's open connections. */
        public readonly int $id,
        /** The handshake request (its path, query, headers, cookies, the client's address). */
        public readonly Request $request,
        /** The subprotocol agreed on in the handshake, if any. */
        public readonly ?string $subprotocol,
    ) {
    }

    /** Sends a text message ($text must be valid UTF-8). Returns false once the connection is closing or closed. */
    public function send(string $text): bool
    {
        return $this->driver->send($text, false);
    }

    /** Sends a binary message. Returns false once the connection is closing or closed. */
    public function sendBinary(string $bytes): bool
    {
        return $this->driver->send($bytes, true);
    }

    /** Sends a ping (at most 125 bytes of payload); the client answers with a pong. */
    public function ping(string $payload = ''): void
    {
        $this->driver->ping($payload);
    }

    /** Starts the closing handshake with $code (1000, 3000–4999, …) and a reason of at most 123 bytes. */
    public function close(int|CloseCode $code = CloseCode::Normal, string $reason = ''): void
    {
        $this->driver->closeWith($code, $reason);
    }

    public function isOpen(): bool
    {
        return $this->driver->isOpen();
    }

    /** Bytes sent and not yet taken by the client. */
    public function bufferedAmount(): int
    {
        return $this->driver->buffered();
    }
}
