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
        /**
         * Trailer fields sent after the body (gRPC's status, a checksum), or a closure that
         * gives them once a streamed body is done: over HTTP/2 always, over HTTP/1.1 after a
         * chunked (streamed) body only; a body sent with a Content-Length has no room for them.
         *
         * @var array<string, string|list<string>>|(\Closure(): array<string, string|list<string>>)
         */
        public readonly array|\Closure $trailers = [],
    ) {
    }

    /**
     * The trailer fields, asked of the closure when they are one.
     *
     * @return array<string, string|list<string>>
     */
    public function trailerFields(): array
    {
        return $this->trailers instanceof \Closure ? ($this->trailers)() : $this->trailers;
    }

    /**
     * This response with $headers instead of its own, everything else (body, upgrade, trailers)
     * as it is: what a middleware that adds a header returns.
     *
     * @param array<string, string|list<string>> $headers
     */
    public function withHeaders(array $headers): self
    {
        return new self($this->status, $headers, $this->body, $this->reason, $this->upgrade, $this->trailers);
    }

    /**
     * This response with $body instead of its own, everything else (headers, upgrade, trailers) as
     * it is: what wraps a streamed body (to count it, to hold an app instance until its end).
     *
     * @param string|iterable<string>|FileBody $body
     */
    public function withBody(string|iterable|FileBody $body): self
    {
        return new self($this->status, $this->headers, $body, $this->reason, $this->upgrade, $this->trailers);
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
