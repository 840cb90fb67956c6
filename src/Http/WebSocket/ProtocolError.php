<?php

declare(strict_types=1);

namespace Spindle\Http\WebSocket;

/**
 * The peer broke RFC 6455 (or a limit): the connection fails with $closeCode, and the message is
 * the reason sent in the close frame (short, so it fits the 123 bytes a close reason may have).
 */
final class ProtocolError extends WebSocketException
{
    public function __construct(public readonly CloseCode $closeCode, string $reason)
    {
        parent::__construct($reason, $closeCode->value);
    }
}
