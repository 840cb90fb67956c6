<?php

declare(strict_types=1);

namespace Spindle\Http\WebSocket;

/** How an accepted WebSocket connection behaves (WebSocketUpgrade::accept()). */
final class WebSocketOptions
{
    /** @param list<string> $subprotocols */
    public function __construct(
        /** Message, frame and fragment bounds (a message past them is closed with 1009). */
        public readonly WebSocketLimits $limits = new WebSocketLimits(),
        /** The subprotocols the app speaks, preferred first (Sec-WebSocket-Protocol). */
        public readonly array $subprotocols = [],
        /** Origins allowed to open a connection (null: any). */
        public readonly ?OriginPolicy $origins = null,
        /**
         * Seconds without a byte from the client before the server pings it; as many again
         * without an answer and the connection is dropped (0: never).
         */
        public readonly float $idleTimeout = 60.0,
        /**
         * Bytes written to a client that does not read, past which it is dropped: the socket is
         * closed with what it holds unsent (no close frame could get past it; the server records
         * 1008). A slow reader never makes the worker hold more.
         */
        public readonly int $maxBuffered = 1_048_576,
        /**
         * The close code a stopping or reloading worker sends, so that clients reconnect (to the
         * new workers): 1001 (going away); a protocol of its own may want another (the Pusher
         * protocol's 4200, "reconnect at once").
         */
        public readonly int $drainCode = 1001,
    ) {
        if ($idleTimeout < 0 || $maxBuffered < 1) {
            throw new \InvalidArgumentException('A WebSocket idle timeout is 0 or more seconds and its write bound at least 1 byte');
        }
    }
}
