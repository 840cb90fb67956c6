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
 * This class frames requests in the byte stream (where a head ends, the body's length);
 * what a head says is HeadParser's, repeated heads HeadCache's, a chunked body
 * ChunkedDecoder's (strict).
 */
final class RequestParser
{
    private const HEAD = 0;
    private const BODY = 1;
    private const CHUNKED = 2;
    private const FAILED = 3;

    private string $buffer = '';
    private int $state = self::HEAD;
    private int $remaining = 0;
    /** The decoder of chunked bodies, made for the first one. */
    private ?ChunkedDecoder $chunks = null;
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

    /**
     * The bytes read after the last whole request that are not part of a request yet, taken out
     * of the parser: after a 101, they belong to the new protocol.
     */
    public function takeBuffered(): string
    {
        if ($this->state !== self::HEAD) {
            return '';
        }
        $bytes = $this->buffer;
        $this->buffer = '';

        return $bytes;
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
                    $this->emitBody();
                    break;
                case self::CHUNKED:
                    // The buffer goes to the chunked decoder, and what follows the body comes back.
                    $bytes = $this->buffer;
                    $this->buffer = '';
                    $rest = $this->chunks?->decode($bytes, $this->onBody);
                    if ($rest === null) {
                        return;
                    }
                    $this->buffer = $rest;
                    $this->state = self::HEAD;
                    ($this->onComplete)();
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
        if ($head->chunked) {
            $this->chunks ??= ChunkedDecoder::forRequests($this->limits);
            $this->chunks->start();
            $this->state = self::CHUNKED;
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

    private function emitBody(): void
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
            $this->state = self::HEAD;
            ($this->onComplete)();
        }
    }
}
