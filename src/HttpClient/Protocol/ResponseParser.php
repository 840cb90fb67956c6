<?php

declare(strict_types=1);

namespace Spindle\HttpClient\Protocol;

use Spindle\Http\HttpException;
use Spindle\Http\Parser\ChunkedDecoder;

/**
 * Sans-I/O HTTP/1.x response parser (RFC 9112 §4–7) for one response on a connection. Bytes go
 * in through push() in pieces of any size, the end of the stream through close(); what has been
 * parsed is taken out: the interim (1xx) heads, the final head, the decoded body piece by piece
 * (takeBody()), the trailers, and the bytes after the response.
 *
 * The body is never held whole: a body's length is only counted, so a 2 GiB Content-Length costs
 * what the caller keeps of it. A chunked body goes through the server's ChunkedDecoder in its
 * lenient mode (a bare LF, spaces around a chunk size, any extension are accepted). Anything that
 * is not a response raises ResponseParseException; the parser is failed after that.
 */
final class ResponseParser
{
    private const STATUS_LINE = "#^HTTP/(1\\.[01]) ([0-9]{3})(?: ([^\\x00-\\x08\\x0a-\\x1f\\x7f]*))?\\r?\\n#";
    private const HEADER_LINE = "#\\G([!\\#$%&'*+.^_`|~0-9A-Za-z-]+):[ \\t]*([^\\x00-\\x08\\x0a-\\x1f\\x7f]*?)[ \\t]*\\r?\\n#";

    private const HEAD = 0;
    private const BODY = 1;
    private const UNTIL_CLOSE = 2;
    private const CHUNKED = 3;
    private const DONE = 4;
    private const FAILED = 5;

    private string $buffer = '';
    private int $state = self::HEAD;
    private int $remaining = 0;
    private string $body = '';
    private ?ResponseHead $head = null;
    /** @var list<ResponseHead> */
    private array $interim = [];
    /** @var list<array{string, string}> */
    private array $trailers = [];
    private ?ChunkedDecoder $chunks = null;
    private bool $closeDelimited = false;
    private ?ResponseParseException $failure = null;

    /**
     * @param bool $bodiless the request was HEAD (or a CONNECT answered 2xx): no body follows any head
     */
    public function __construct(
        private readonly bool $bodiless = false,
        private readonly int $maxHeadSize = 65536,
    ) {
    }

    /** @throws ResponseParseException */
    public function push(string $bytes): void
    {
        if ($this->failure !== null) {
            throw $this->failure;
        }
        if ($this->state === self::DONE) {
            $this->buffer .= $bytes;

            return;
        }
        if ($this->state === self::UNTIL_CLOSE && $this->buffer === '') {
            $this->body .= $bytes;

            return;
        }
        $this->buffer .= $bytes;
        try {
            $this->parse();
        } catch (ResponseParseException $e) {
            $this->fail($e);
        }
    }

    /**
     * The stream ended. Completes a response delimited by the close; any other unfinished
     * response raises ResponseParseException.
     */
    public function close(): void
    {
        if ($this->failure !== null) {
            throw $this->failure;
        }
        if ($this->state === self::UNTIL_CLOSE) {
            $this->state = self::DONE;

            return;
        }
        if ($this->state !== self::DONE) {
            $this->fail(new ResponseParseException(match ($this->state) {
                self::HEAD => $this->head === null && $this->interim === [] && $this->buffer === ''
                    ? 'the server closed the connection without sending a response'
                    : 'the server closed the connection in the middle of the response head',
                self::BODY => \sprintf('the server closed the connection with %d bytes of the body still to come', $this->remaining),
                default => 'the server closed the connection in the middle of the chunked body',
            }));
        }
    }

    /** The final head, once it is parsed. */
    public function head(): ?ResponseHead
    {
        return $this->head;
    }

    /** @return list<ResponseHead> the 1xx heads received so far (taken: each is returned once) */
    public function takeInterim(): array
    {
        $interim = $this->interim;
        $this->interim = [];

        return $interim;
    }

    /** The body bytes decoded since the last call. */
    public function takeBody(): string
    {
        $body = $this->body;
        $this->body = '';

        return $body;
    }

    public function isComplete(): bool
    {
        return $this->state === self::DONE;
    }

    /** @return list<array{string, string}> the trailer fields of a chunked body */
    public function trailers(): array
    {
        return $this->trailers;
    }

    /** True when the response is complete and the connection may carry another request. */
    public function isReusable(): bool
    {
        if ($this->state !== self::DONE || $this->closeDelimited || $this->buffer !== '' || $this->head === null) {
            return false;
        }
        foreach ($this->head->values('connection') as $value) {
            if (\in_array('close', \array_map('trim', \explode(',', \strtolower($value))), true)) {
                return false;
            }
        }
        if ($this->head->protocolVersion === '1.0') {
            foreach ($this->head->values('connection') as $value) {
                if (\in_array('keep-alive', \array_map('trim', \explode(',', \strtolower($value))), true)) {
                    return true;
                }
            }

            return false;
        }

        return true;
    }

    private function fail(ResponseParseException $e): never
    {
        $this->state = self::FAILED;
        $this->buffer = '';
        $this->failure = $e;
        throw $e;
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
                    $take = \min($this->remaining, \strlen($this->buffer));
                    $this->body .= \substr($this->buffer, 0, $take);
                    $this->buffer = (string) \substr($this->buffer, $take);
                    $this->remaining -= $take;
                    if ($this->remaining === 0) {
                        $this->state = self::DONE;
                    }
                    break;
                case self::UNTIL_CLOSE:
                    $this->body .= $this->buffer;
                    $this->buffer = '';
                    break;
                case self::CHUNKED:
                    if (!$this->decodeChunks()) {
                        return;
                    }
                    break;
                default:
                    // DONE: what follows belongs to no response (isReusable() says no).
                    return;
            }
        }
    }

    private function parseHead(): bool
    {
        // Leading empty lines before a status line are tolerated (RFC 9112 §2.2).
        $this->buffer = \ltrim($this->buffer, "\r\n");
        $end = \strpos($this->buffer, "\n\r\n");
        $endBare = \strpos($this->buffer, "\n\n");
        if ($end === false && $endBare === false) {
            if (\strlen($this->buffer) > $this->maxHeadSize) {
                throw new ResponseParseException(\sprintf('the response head exceeds %d bytes', $this->maxHeadSize));
            }
            if (!\str_starts_with('HTTP/', (string) \substr($this->buffer, 0, 5))) {
                throw new ResponseParseException(\sprintf('the response does not start with a status line: %s', $this->excerpt($this->buffer)));
            }

            return false;
        }
        $length = match (true) {
            $end === false => (int) $endBare + 2,
            $endBare === false => $end + 3,
            default => \min($end + 3, $endBare + 2),
        };
        if ($length > $this->maxHeadSize) {
            throw new ResponseParseException(\sprintf('the response head exceeds %d bytes', $this->maxHeadSize));
        }
        $text = \substr($this->buffer, 0, $length);
        $this->buffer = (string) \substr($this->buffer, $length);
        $head = $this->parseHeadText($text);
        if ($head->status < 200) {
            if ($head->status === 101) {
                throw new ResponseParseException('the server switched protocols (101), which this client did not ask for');
            }
            $this->interim[] = $head;

            return true;
        }
        $this->head = $head;
        $this->startBody($head);

        return true;
    }

    private function parseHeadText(string $text): ResponseHead
    {
        if (\preg_match(self::STATUS_LINE, $text, $m) !== 1) {
            throw new ResponseParseException(\sprintf('invalid status line: %s', $this->excerpt($text)));
        }
        $offset = \strlen($m[0]);
        $fields = [];
        $lineEnd = \strlen($text) - (\str_ends_with($text, "\r\n") ? 2 : 1);
        while ($offset < $lineEnd) {
            if (\preg_match(self::HEADER_LINE, $text, $f, 0, $offset) !== 1) {
                throw new ResponseParseException(\sprintf('invalid header line: %s', $this->excerpt((string) \substr($text, $offset))));
            }
            $fields[] = [$f[1], $f[2]];
            $offset += \strlen($f[0]);
        }

        return new ResponseHead($m[1], (int) $m[2], $m[3] ?? '', $fields);
    }

    private function startBody(ResponseHead $head): void
    {
        $status = $head->status;
        if ($this->bodiless || $status === 204 || $status === 304) {
            $this->state = self::DONE;

            return;
        }
        $encodings = $head->values('transfer-encoding');
        if ($encodings !== []) {
            $codings = \array_map('trim', \explode(',', \strtolower(\implode(',', $encodings))));
            if (\end($codings) === 'chunked') {
                $this->chunks = ChunkedDecoder::forResponses($this->maxHeadSize);
                $this->state = self::CHUNKED;

                return;
            }
            // Not chunked last: the body ends with the connection (RFC 9112 §6.3).
            $this->state = self::UNTIL_CLOSE;
            $this->closeDelimited = true;

            return;
        }
        $lengths = $head->values('content-length');
        if ($lengths === []) {
            $this->state = self::UNTIL_CLOSE;
            $this->closeDelimited = true;

            return;
        }
        $values = \array_unique(\array_map('trim', \explode(',', \implode(',', $lengths))));
        if (\count($values) !== 1 || \preg_match('/^[0-9]{1,18}$/D', $values[0]) !== 1) {
            throw new ResponseParseException(\sprintf('invalid Content-Length: %s', $this->excerpt(\implode(', ', $lengths))));
        }
        $this->remaining = (int) $values[0];
        $this->state = $this->remaining === 0 ? self::DONE : self::BODY;
    }

    /** Hands the buffer to the (lenient) chunked decoder; what follows the body comes back. */
    private function decodeChunks(): bool
    {
        $chunks = $this->chunks ?? throw new \LogicException('No chunked body is being read');
        $bytes = $this->buffer;
        $this->buffer = '';
        try {
            $rest = $chunks->decode($bytes, function (string $piece): void {
                $this->body .= $piece;
            });
        } catch (HttpException $e) {
            throw new ResponseParseException($e->getMessage(), 0, $e);
        }
        if ($rest === null) {
            return false;
        }
        $this->buffer = $rest;
        $this->trailers = $chunks->trailers();
        $this->state = self::DONE;

        return true;
    }

    private function excerpt(string $bytes): string
    {
        $excerpt = \substr($bytes, 0, 60);

        return \json_encode($excerpt, \JSON_INVALID_UTF8_SUBSTITUTE | \JSON_UNESCAPED_SLASHES) . (\strlen($bytes) > 60 ? '…' : '');
    }
}
