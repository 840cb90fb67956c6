<?php

declare(strict_types=1);

namespace Spindle\Http\Parser;

use Spindle\Http\HttpException;
use Spindle\Http\HttpLimits;

/**
 * Sans-I/O decoder of a chunked body (RFC 9112 §7.1), for the server's request parser and the
 * HTTP client's response parser. Bytes go in through decode(), in pieces of any size, and the
 * decoded data comes out through its callback, piece by piece as it arrives; once the last chunk
 * and the trailer section are read, decode() returns the bytes that follow the body (a
 * pipelined request, a next response). start() makes it ready for the next body.
 *
 * Two modes, one state machine:
 * - strict (forRequests()), for what clients send: every line ends with CRLF, a chunk-size line
 *   and a trailer field line match the grammar exactly (ChunkedSyntax), the body is held to
 *   HttpLimits::$maxBodySize and the trailer section to the header limits; a violation is an
 *   HttpException with the status to answer (400, 413, 431). A front proxy that read a lenient
 *   line one way and Spindle another could disagree on where a body ends.
 * - lenient (forResponses()), for what servers answer: a bare LF ends a line, a chunk size may be
 *   surrounded by spaces and followed by anything after a ";", trailer fields are kept
 *   (trailers()), and the trailer section is held to a size; a violation is an HttpException
 *   with status 502 (the answer a gateway gives for an upstream that broke the protocol), whose
 *   message the client passes on.
 *
 * Either way a chunk size has at most 15 significant hex digits (it fits a 64-bit int with room
 * for a running total) and a chunk-size line at most 4,096 bytes.
 */
final class ChunkedDecoder
{
    private const MAX_CHUNK_LINE = 4096;
    /** A trailer field line as the client reads a head's (ResponseParser): OWS trimmed, a bare LF allowed. */
    private const LENIENT_FIELD_LINE = "#\\G([!\\#$%&'*+.^_`|~0-9A-Za-z-]+):[ \\t]*([^\\x00-\\x08\\x0a-\\x1f\\x7f]*?)[ \\t]*\\r?\\n#";

    private const SIZE = 0;
    private const DATA = 1;
    private const DATA_END = 2;
    private const TRAILERS = 3;
    private const DONE = 4;

    private string $buffer = '';
    private int $state = self::SIZE;
    private int $remaining = 0;
    /** The data's size so far (counted by the strict decoder only). */
    private int $bodySize = 0;
    private int $trailerSize = 0;
    private int $trailerCount = 0;
    /** @var list<array{string, string}> */
    private array $trailers = [];

    private function __construct(
        private readonly bool $strict,
        private readonly int $maxBodySize,
        private readonly int $maxTrailerSize,
        private readonly int $maxTrailerCount,
    ) {
    }

    /** The strict decoder of request bodies, held to $limits (body size, trailer section size and count). */
    public static function forRequests(HttpLimits $limits): self
    {
        return new self(true, $limits->maxBodySize, $limits->maxHeaderSize, $limits->maxHeaderCount);
    }

    /** The lenient decoder of response bodies, whose trailer section may hold up to $maxTrailerSize bytes. */
    public static function forResponses(int $maxTrailerSize): self
    {
        return new self(false, \PHP_INT_MAX, $maxTrailerSize, \PHP_INT_MAX);
    }

    /** Forgets the body decoded so far (and any bytes after it): the next bytes decoded start a new body. */
    public function start(): void
    {
        // Each write is checked against the property's type: only what a body changed is written
        // (remaining is set with each chunk size).
        if ($this->buffer !== '') {
            $this->buffer = '';
        }
        $this->state = self::SIZE;
        $this->bodySize = 0;
        $this->trailerSize = 0;
        $this->trailerCount = 0;
        if ($this->trailers !== []) {
            $this->trailers = [];
        }
    }

    /**
     * Decodes $bytes, the next bytes of the stream, handing each piece of data to $onData as soon
     * as it is there (a piece per chunk or part of one, never empty). Returns null while the body
     * goes on; once it is complete, the bytes that followed it in the stream (a pipelined request,
     * a next response), once: bytes given after that come back as they are.
     *
     * @param \Closure(string): void $onData
     *
     * @throws HttpException for bytes that are not a chunked body (the decoder must then be started again)
     */
    public function decode(string $bytes, \Closure $onData): ?string
    {
        if ($this->buffer === '') {
            $this->buffer = $bytes;
        } else {
            $this->buffer .= $bytes;
        }
        while ($this->buffer !== '') {
            switch ($this->state) {
                case self::DATA:
                    $buffer = $this->buffer;
                    $length = \strlen($buffer);
                    if ($length > $this->remaining) {
                        $this->buffer = \substr($buffer, $this->remaining);
                        $buffer = \substr($buffer, 0, $this->remaining);
                        $length = $this->remaining;
                    } else {
                        $this->buffer = '';
                    }
                    $this->remaining -= $length;
                    if ($this->remaining === 0) {
                        $this->state = self::DATA_END;
                    }
                    $onData($buffer);
                    break;
                case self::SIZE:
                    if (!($this->strict ? $this->strictSizeLine() : $this->lenientSizeLine())) {
                        return null;
                    }
                    break;
                case self::DATA_END:
                    // The CRLF after a chunk's data, in both modes; anything else is dataEnd()'s.
                    $buffer = $this->buffer;
                    if (isset($buffer[1]) && $buffer[0] === "\r" && $buffer[1] === "\n") {
                        $this->buffer = (string) \substr($buffer, 2);
                        $this->state = self::SIZE;
                    } elseif (!$this->dataEnd()) {
                        return null;
                    }
                    break;
                case self::TRAILERS:
                    if (!($this->strict ? $this->strictTrailerLine() : $this->lenientTrailerLine())) {
                        return null;
                    }
                    break;
                default:
                    $rest = $this->buffer;
                    $this->buffer = '';

                    return $rest;
            }
        }

        return $this->state === self::DONE ? '' : null;
    }

    /** True once the last chunk and the trailer section have been read. */
    public function isComplete(): bool
    {
        return $this->state === self::DONE;
    }

    /** @return list<array{string, string}> the trailer fields read (kept by the lenient decoder only) */
    public function trailers(): array
    {
        return $this->trailers;
    }

    /** After a chunk's data, bytes other than CRLF: a bare LF (lenient), too few bytes yet, or an error. */
    private function dataEnd(): bool
    {
        $buffer = $this->buffer;
        if ($this->strict) {
            if (!isset($buffer[1])) {
                return false;
            }
            throw new HttpException(400, 'Chunk data is not followed by CRLF');
        }
        if ($buffer[0] === "\n") {
            $this->buffer = (string) \substr($buffer, 1);
            $this->state = self::SIZE;

            return true;
        }
        if ($buffer === "\r") {
            return false;
        }
        throw self::broken('chunk data is not followed by CRLF');
    }

    private function strictSizeLine(): bool
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
        $size = ChunkedSyntax::chunkSize(\substr($this->buffer, 0, $lineEnd));
        $this->buffer = (string) \substr($this->buffer, $lineEnd + 2);
        if ($size === 0) {
            $this->state = self::TRAILERS;

            return true;
        }
        $this->bodySize += $size;
        if ($this->bodySize > $this->maxBodySize) {
            throw new HttpException(413, \sprintf('Request body larger than %d bytes', $this->maxBodySize));
        }
        $this->remaining = $size;
        $this->state = self::DATA;

        return true;
    }

    private function lenientSizeLine(): bool
    {
        $end = \strpos($this->buffer, "\n");
        if ($end === false) {
            if (\strlen($this->buffer) > self::MAX_CHUNK_LINE) {
                throw self::broken('the chunk size line is too long');
            }

            return false;
        }
        $line = \rtrim(\substr($this->buffer, 0, $end), "\r");
        $this->buffer = (string) \substr($this->buffer, $end + 1);
        $size = \strstr($line, ';', true);
        $size = \trim($size === false ? $line : $size, " \t");
        if (\preg_match('/^[0-9A-Fa-f]{1,15}$/D', $size) !== 1) {
            throw self::broken(\sprintf('invalid chunk size: %s', self::excerpt($line)));
        }
        $this->remaining = (int) \hexdec($size);
        $this->state = $this->remaining === 0 ? self::TRAILERS : self::DATA;

        return true;
    }

    private function strictTrailerLine(): bool
    {
        $lineEnd = \strpos($this->buffer, "\r\n");
        if ($lineEnd === false) {
            if (\str_contains($this->buffer, "\n")) {
                throw new HttpException(400, 'Trailer lines must end with CRLF');
            }
            if ($this->trailerSize + \strlen($this->buffer) > $this->maxTrailerSize + 1) {
                throw new HttpException(431, 'Trailer section too large');
            }

            return false;
        }
        $line = (string) \substr($this->buffer, 0, $lineEnd);
        $this->buffer = (string) \substr($this->buffer, $lineEnd + 2);
        if ($lineEnd === 0) {
            $this->state = self::DONE;

            return true;
        }
        $this->trailerSize += $lineEnd + 2;
        if ($this->trailerSize > $this->maxTrailerSize) {
            throw new HttpException(431, 'Trailer section too large');
        }
        // Trailer fields are read and discarded (RFC 9112 §7.1.2), but checked as header fields are.
        if (++$this->trailerCount > $this->maxTrailerCount) {
            throw new HttpException(431, \sprintf('More than %d trailer fields', $this->maxTrailerCount));
        }
        ChunkedSyntax::checkTrailerLine($line);

        return true;
    }

    private function lenientTrailerLine(): bool
    {
        $end = \strpos($this->buffer, "\n");
        if ($end === false) {
            if ($this->trailerSize + \strlen($this->buffer) > $this->maxTrailerSize) {
                throw self::broken(\sprintf('the trailers exceed %d bytes', $this->maxTrailerSize));
            }

            return false;
        }
        $line = \substr($this->buffer, 0, $end + 1);
        $this->buffer = (string) \substr($this->buffer, $end + 1);
        $this->trailerSize += \strlen($line);
        if ($this->trailerSize > $this->maxTrailerSize) {
            throw self::broken(\sprintf('the trailers exceed %d bytes', $this->maxTrailerSize));
        }
        if ($line === "\r\n" || $line === "\n") {
            $this->state = self::DONE;

            return true;
        }
        if (\preg_match(self::LENIENT_FIELD_LINE, $line, $f) !== 1 || \strlen($f[0]) !== \strlen($line)) {
            throw self::broken(\sprintf('invalid trailer line: %s', self::excerpt($line)));
        }
        $this->trailers[] = [$f[1], $f[2]];

        return true;
    }

    private static function broken(string $message): HttpException
    {
        return new HttpException(502, $message);
    }

    private static function excerpt(string $bytes): string
    {
        return \json_encode(\substr($bytes, 0, 60), \JSON_INVALID_UTF8_SUBSTITUTE | \JSON_UNESCAPED_SLASHES) . (\strlen($bytes) > 60 ? '…' : '');
    }
}
