<?php

declare(strict_types=1);

namespace Spindle\Http\WebSocket;

/**
 * What a WebSocketSession has moved so far, for a driver's metrics: complete messages and bytes
 * on the wire each way (control frames count in the bytes, not the messages), and when bytes last
 * came in or went out by the session's clock (null when it has no clock or nothing moved yet).
 */
final class SessionCounters
{
    public function __construct(
        public readonly int $messagesIn,
        public readonly int $messagesOut,
        public readonly int $bytesIn,
        public readonly int $bytesOut,
        public readonly ?float $lastReceivedAt,
        public readonly ?float $lastSentAt,
    ) {
    }
}
