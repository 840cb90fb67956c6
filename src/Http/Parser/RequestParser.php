<?php

declare(strict_types=1);

namespace Spindle\Http\Parser;

use Spindle\Http\HttpException;
use Spindle\Http\HttpLimits;

/**
 * Sans-I/O HTTP/1.1 request parser (RFC 9112). Bytes go in through push(), in pieces of any
 * size; each request comes out as onHead, then onBody once per piece of decoded body, then
 * onComplete. Pipelined requests come out one after another, in order.
 *
 * A request that cannot be parsed raises HttpException with the status to answer; after that the
 * parser is failed and the connection must be closed.
 *
 * This class frames requests in the byte stream (where a head ends, the body's length or
 * chunks, trailers); what a head says is HeadParser's, repeated heads HeadCache's.
 */
final class RequestParser
{
    private const MAX_CHUNK_LINE = 4096;

    private const HEAD = 0;
    private const BODY = 1;
    private const CHUNK_SIZE = 2;
    private const CHUNK_DATA = 3;
    private const CHUNK_END = 4;
    private const TRAILERS = 5;
    private const FAILED = 6;

    private string $buffer = '';
    private int $state = self::HEAD;
    private int $remaining = 0;
    private int $bodySize = 0;
    private int $trailerSize = 0;
    private int $trailerCount = 0;
    private ?HttpException $failure = null;

    /**
     * @param \Closure(RequestHead): void $onHead
     * @param \Closure(string): void $onBody
     * @param \Closure(): void $onComplete
     */
    public function __construct(
        private readonly HttpLimits $limits,
        private readonly \Closure $onHead,
        private readonly \Closure $onBody,
        private readonly \Closure $onComplete,
        /** Heads parsed before, shared by the connections of a worker (see HeadCache); null: none. */
        private readonly ?HeadCache $cache = null,
    ) {
        if ($cache !== null && $cache->limits !== $limits) {
            throw new \InvalidArgumentException('A head cache is shared only by parsers with the same limits');
        }
    }

    /** True between requests, when no byte of a next request has arrived yet. */
    public function isIdle(): bool
    {
        return $this->state === self::HEAD && $this->buffer === '';
    }

    /** True while the head of a request is arriving (the header timeout applies). */
    public function isReadingHead(): bool
    {
        return $this->state === self::HEAD && $this->buffer !== '';
    }

    /** @throws HttpException */
    public function push(string $bytes): void
    {
        if ($this->failure !== null) {
            throw $this->failure;
        }
        $this->buffer .= $bytes;
        try {
            $this->parse();
        } catch (HttpException $e) {
            $this->state = self::FAILED;
            $this->buffer = '';
            $this->failure = $e;
            throw $e;
        }
    }

    private function parse(): void
    {
        while ($this->buffer !== '') {
            switch ($this->state) {
                case self::HEAD:
                    if (!$this->parseHead()) {
                        return;
                    }
                    break;
                case self::BODY:
                    $this->emitBody(self::BODY);
                    break;
                case self::CHUNK_SIZE:
                    if (!$this->parseChunkSize()) {
                        return;
                    }
                    break;
                case self::CHUNK_DATA:
                    $this->emitBody(self::CHUNK_END);
                    break;
                case self::CHUNK_END:
                    if (\strlen($this->buffer) < 2) {
                        return;
                    }
                    if ($this->buffer[0] !== "\r" || $this->buffer[1] !== "\n") {
                        throw new HttpException(400, 'Chunk data is not followed by CRLF');
                    }
                    $this->buffer = (string) \substr($this->buffer, 2);
                    $this->state = self::CHUNK_SIZE;
                    break;
                case self::TRAILERS:
                    if (!$this->parseTrailer()) {
                        return;
                    }
                    break;
                default:
                    return;
            }
        }
    }

    private function parseHead(): bool
    {
        $buffer = $this->buffer;
        if ($buffer[0] === "\r" || $buffer[0] === "\n") {
            // Empty lines before a request line are ignored (RFC 9112 §2.2).
            $buffer = \ltrim($buffer, "\r\n");
            $this->buffer = $buffer;
            if ($buffer === '') {
                return false;
            }
        }
        $end = \strpos($buffer, "\r\n\r\n");
        if ($end === false) {
            // RFC 9112 §2.2 lets a server refuse a bare LF as a line terminator. Refused at once,
            // or such a request would wait for a CRLF CRLF that never comes.
            if (\str_contains($buffer, "\n") && \preg_match('#(?<!\r)\n#', $buffer) === 1) {
                throw new HttpException(400, 'Request head lines must end with CRLF');
            }
            $lineEnd = \strpos($buffer, "\r\n");
            // Without a CRLF yet, one byte more may be the CR of a line exactly at the limit.
            if ($lineEnd === false ? \strlen($buffer) > $this->limits->maxRequestLine + 1 : $lineEnd > $this->limits->maxRequestLine) {
                throw new HttpException(414, \sprintf('Request line longer than %d bytes', $this->limits->maxRequestLine));
            }
            if (\strlen($buffer) > $this->limits->maxHeaderSize) {
                throw new HttpException(431, \sprintf('Request header section larger than %d bytes', $this->limits->maxHeaderSize));
            }

            return false;
        }
        if ($end + 4 > $this->limits->maxHeaderSize) {
            $lineEnd = (int) \strpos($buffer, "\r\n");
            if ($lineEnd > $this->limits->maxRequestLine) {
                throw new HttpException(414, \sprintf('Request line longer than %d bytes', $this->limits->maxRequestLine));
            }
            throw new HttpException(431, \sprintf('Request header section larger than %d bytes', $this->limits->maxHeaderSize));
        }
        // Most reads hold exactly one request: then nothing is left to copy.
        $this->buffer = $end + 4 === \strlen($buffer) ? '' : (string) \substr($buffer, $end + 4);
        // The head is taken with the CRLF of its last line, so that every line ends with one.
        $raw = \substr($buffer, 0, $end + 2);
        $head = $this->cache === null ? $this->head($raw) : ($this->cache->get($raw) ?? $this->cache->put($raw, $this->head($raw)));
        $this->bodySize = 0;
        if ($head->chunked) {
            $this->state = self::CHUNK_SIZE;
            ($this->onHead)($head);
        } elseif ($head->contentLength > 0) {
            $this->state = self::BODY;
            $this->remaining = $head->contentLength;
            ($this->onHead)($head);
        } else {
            ($this->onHead)($head);
            ($this->onComplete)();
        }

        return true;
    }

    /** @param string $head the request line and the field lines, each ending with CRLF */
    private function head(string $head): RequestHead
    {
        return HeadParser::parse($head, $this->limits);
    }

    private function emitBody(int $next): void
    {
        $length = \strlen($this->buffer);
        if ($length <= $this->remaining) {
            $piece = $this->buffer;
            $this->buffer = '';
        } else {
            $piece = \substr($this->buffer, 0, $this->remaining);
            $this->buffer = \substr($this->buffer, $this->remaining);
            $length = $this->remaining;
        }
        $this->remaining -= $length;
        ($this->onBody)($piece);
        if ($this->remaining === 0) {
            if ($next === self::BODY) {
                $this->state = self::HEAD;
                ($this->onComplete)();
            } else {
                $this->state = $next;
            }
        }
    }

    private function parseChunkSize(): bool
    {
        $lineEnd = \strpos($this->buffer, "\r\n");
        if ($lineEnd === false) {
            if (\str_contains($this->buffer, "\n")) {
                throw new HttpException(400, 'Chunk size line must end with CRLF');
            }
            if (\strlen($this->buffer) > self::MAX_CHUNK_LINE + 1) {
                throw new HttpException(400, 'Chunk size line too long');
            }

            return false;
        }
        if ($lineEnd > self::MAX_CHUNK_LINE) {
            throw new HttpException(400, 'Chunk size line too long');
        }
        $n = ChunkedSyntax::chunkSize(\substr($this->buffer, 0, $lineEnd));
        $this->buffer = (string) \substr($this->buffer, $lineEnd + 2);
        if ($n === 0) {
            $this->state = self::TRAILERS;
            $this->trailerSize = 0;
            $this->trailerCount = 0;

            return true;
        }
        $this->bodySize += $n;
        if ($this->bodySize > $this->limits->maxBodySize) {
            throw new HttpException(413, \sprintf('Request body larger than %d bytes', $this->limits->maxBodySize));
        }
        $this->remaining = $n;
        $this->state = self::CHUNK_DATA;

        return true;
    }

    private function parseTrailer(): bool
    {
        $lineEnd = \strpos($this->buffer, "\r\n");
        if ($lineEnd === false) {
            if (\str_contains($this->buffer, "\n")) {
                throw new HttpException(400, 'Trailer lines must end with CRLF');
            }
            if ($this->trailerSize + \strlen($this->buffer) > $this->limits->maxHeaderSize + 1) {
                throw new HttpException(431, 'Trailer section too large');
            }

            return false;
        }
        $line = (string) \substr($this->buffer, 0, $lineEnd);
        $this->buffer = (string) \substr($this->buffer, $lineEnd + 2);
        if ($lineEnd === 0) {
            $this->state = self::HEAD;
            ($this->onComplete)();

            return true;
        }
        $this->trailerSize += $lineEnd + 2;
        if ($this->trailerSize > $this->limits->maxHeaderSize) {
            throw new HttpException(431, 'Trailer section too large');
        }
        // Trailer fields are read and discarded (RFC 9112 §7.1.2), but checked as header fields are.
        if (++$this->trailerCount > $this->limits->maxHeaderCount) {
            throw new HttpException(431, \sprintf('More than %d trailer fields', $this->limits->maxHeaderCount));
        }
        ChunkedSyntax::checkTrailerLine($line);

        return true;
    }
}
