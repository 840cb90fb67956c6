<?php

declare(strict_types=1);

namespace Spindle\Http\WebSocket;

/**
 * What an app does with a WebSocket connection it accepted (WebSocketUpgrade::accept()). Each
 * call runs in a task of its own (its own fiber and Loop\Context: it may wait on a database, a
 * Redis, an HTTP call, without holding up other connections), one at a time and in order for one
 * connection: a message is handled once the one before it is. Between calls a connection holds
 * no fiber and no app instance, so idle connections cost only their socket and buffers.
 */
interface WebSocketHandler
{
    /** The handshake is done: the connection is open. */
    public function onOpen(WebSocket $socket): void;

    /** A whole message arrived (text is valid UTF-8; $binary tells which kind it was). */
    public function onMessage(WebSocket $socket, string $message, bool $binary): void;

    /**
     * The connection closed: $code and $reason are the peer's close (1005 when it gave none), the
     * server's (1001 when the worker stops), or 1006 when the connection was lost without one.
     */
    public function onClose(WebSocket $socket, int $code, string $reason): void;
}
