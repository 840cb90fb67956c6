<?php

declare(strict_types=1);

namespace Spindle\Http\WebSocket;

/** The permessage-deflate parameters a handshake agreed on (RFC 7692 §7.1). */
final class DeflateParams
{
    public function __construct(
        public readonly bool $serverNoContextTakeover,
        public readonly bool $clientNoContextTakeover,
        public readonly int $serverMaxWindowBits,
        public readonly int $clientMaxWindowBits,
        public readonly bool $answerServerWindow,
        public readonly int $minCompressBytes,
    ) {
    }

    /** The Sec-WebSocket-Extensions value of the 101. */
    public function header(): string
    {
        $header = 'permessage-deflate';
        if ($this->serverNoContextTakeover) {
            $header .= '; server_no_context_takeover';
        }
        if ($this->clientNoContextTakeover) {
            $header .= '; client_no_context_takeover';
        }
        if ($this->answerServerWindow) {
            $header .= '; server_max_window_bits=' . $this->serverMaxWindowBits;
        }

        return $header;
    }
}
