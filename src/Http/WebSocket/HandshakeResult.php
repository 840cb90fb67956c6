<?php

declare(strict_types=1);

namespace Spindle\Http\WebSocket;

/**
 * What ServerHandshake decided: the outcome, the status to answer (101, 400, 403, 426; 0 for a
 * request that is not a WebSocket one), the response headers to send with it, why a request was
 * rejected, the subprotocol chosen (null: none), and permessage-deflate's parameters when it was
 * agreed (give them to the WebSocketSession).
 */
final class HandshakeResult
{
    /** @param array<string, string> $headers */
    public function __construct(
        public readonly HandshakeOutcome $outcome,
        public readonly int $status,
        public readonly array $headers = [],
        public readonly string $reason = '',
        public readonly ?string $subprotocol = null,
        public readonly ?DeflateParams $deflate = null,
    ) {
    }

    public function isAccepted(): bool
    {
        return $this->outcome === HandshakeOutcome::Accepted;
    }
}
