<?php

declare(strict_types=1);

namespace Spindle\Tests\Support\WebSocket;

/**
 * How the Autobahn test client reaches the WebSocket server under test, after the opening
 * handshake: InMemoryEchoTransport drives a WebSocketSession directly; a socket transport talks
 * to a running server whose handler echoes every message.
 */
interface CaseTransport
{
    /** Writes $bytes to the server as one write (one TCP segment where the transport can). */
    public function send(string $bytes): void;

    /**
     * Bytes the server wrote, waiting at most $timeout seconds for the first of them; '' when
     * none came in that time (a transport without I/O never waits).
     */
    public function receive(float $timeout): string;

    /** Whether the server closed the connection (and everything it wrote was received). */
    public function isClosed(): bool;

    /** Drops the connection from the client's side. */
    public function close(): void;
}
