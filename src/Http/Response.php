<?php

declare(strict_types=1);

namespace Spindle\Http;

/**
 * Spindle's lean response. The body is a string (sent with Content-Length), an iterable of
 * strings (sent with chunked encoding, each piece flushed as it is produced) or a FileBody.
 *
 * Header names keep the case they were given; values are a string or a list of strings
 * (each sent as its own header line, as Set-Cookie needs).
 *
 * A response made with upgrade() switches protocols: a 101 with the app's headers (Upgrade and
 * the like) and "Connection: Upgrade", after which its handler takes the connection over.
 */
final class Response
{
    /**
     * @param array<string, string|list<string>> $headers
     * @param string|iterable<string>|FileBody $body
     */
    public function __construct(
        public readonly int $status = 200,
        public readonly array $headers = [],
        public readonly string|iterable|FileBody $body = '',
        public readonly string $reason = '',
        /** Who takes the connection over once the 101 is written (upgrade() sets it). */
        public readonly ?UpgradeHandler $upgrade = null,
    ) {
    }

    /**
     * "101 Switching Protocols" with $headers (the Upgrade header and the protocol's own, such as
     * Sec-WebSocket-Accept), then $handler serves the connection. Over HTTP/1.1 only: to any
     * other request it is a 500 (an HTTP/2 stream cannot be upgraded, RFC 9113 §8.6).
     *
     * @param array<string, string|list<string>> $headers
     */
    public static function upgrade(array $headers, UpgradeHandler $handler): self
    {
        return new self(101, $headers, '', '', $handler);
    }
}
