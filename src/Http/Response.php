<?php

declare(strict_types=1);

namespace Spindle\Http;

/**
 * Spindle's lean response. The body is a string (sent with Content-Length), an iterable of
 * strings (sent with chunked encoding, each piece flushed as it is produced) or a FileBody.
 *
 * Header names keep the case they were given; values are a string or a list of strings
 * (each sent as its own header line, as Set-Cookie needs).
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
    ) {
    }
}
