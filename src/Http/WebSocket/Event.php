<?php

declare(strict_types=1);

namespace Spindle\Http\WebSocket;

/**
 * One thing the peer sent: a complete message (Text, Binary), a ping or pong with its payload, or
 * a close frame with its code and reason (the reason is the payload).
 */
final class Event
{
    public function __construct(
        public readonly EventType $type,
        public readonly string $payload = '',
        public readonly int $closeCode = 0,
    ) {
    }
}
