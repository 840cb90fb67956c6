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
 * Over 500 lines: the head (request line, header fields and the framing rules between them) is
 * most of it, and head, Content-Length and chunked framing share one buffer and offset that every
 * request on the hot path walks once; the chunk-size syntax is ChunkedSyntax's, repeated heads
 * HeadCache's.
 */
final class RequestParser
{
    private const TOKEN = "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    /** The request line with its CRLF, matched at the start of the head. */
    private const REQUEST_LINE = "#^([!\\#$%&'*+.^_`|~0-9A-Za-z-]+) ([^\\x00-\\x20\\x7f\\#]+) HTTP/1\\.([01])\\r\\n#";
    private const HEADER_LINE = "#\\G([!\\#$%&'*+.^_`|~0-9A-Za-z-]+):[ \\t]*([^\\x00-\\x08\\x0a-\\x1f\\x7f]*?)[ \\t]*\\r\\n#";
    /** uri-host [ ":" port ] (RFC 9110 §7.2, RFC 3986 §3.2.2): an IP literal, or a reg-name that may be empty. */
    private const HOST = "#^(?:\\[[0-9A-Fa-f:.]+\\]|\\[v[0-9A-Fa-f]+\\.[\\w.~!$&'()*+,;=:-]+\\]|[\\w.~!$&'()*+,;=%-]*)(?::[0-9]*)?$#D";
    /** Lower-case forms of common field names, as sent by browsers and proxies: no strtolower() call for them. */
    private const LOWER_NAMES = [
        'Host' => 'host', 'host' => 'host', 'User-Agent' => 'user-agent', 'user-agent' => 'user-agent',
        'Accept' => 'accept', 'accept' => 'accept', 'Accept-Encoding' => 'accept-encoding',
        'accept-encoding' => 'accept-encoding', 'Accept-Language' => 'accept-language',
        'accept-language' => 'accept-language', 'Accept-Charset' => 'accept-charset',
        'accept-charset' => 'accept-charset', 'Connection' => 'connection', 'connection' => 'connection',
        'Content-Type' => 'content-type', 'content-type' => 'content-type',
        'Content-Length' => 'content-length', 'content-length' => 'content-length', 'Cookie' => 'cookie',
        'cookie' => 'cookie', 'Authorization' => 'authorization', 'authorization' => 'authorization',
        'Cache-Control' => 'cache-control', 'cache-control' => 'cache-control', 'Pragma' => 'pragma',
        'pragma' => 'pragma', 'Referer' => 'referer', 'referer' => 'referer', 'Origin' => 'origin',
        'origin' => 'origin', 'Upgrade-Insecure-Requests' => 'upgrade-insecure-requests',
        'upgrade-insecure-requests' => 'upgrade-insecure-requests', 'If-None-Match' => 'if-none-match',
        'if-none-match' => 'if-none-match', 'If-Modified-Since' => 'if-modified-since',
        'if-modified-since' => 'if-modified-since', 'X-Forwarded-For' => 'x-forwarded-for',
        'x-forwarded-for' => 'x-forwarded-for', 'X-Forwarded-Proto' => 'x-forwarded-proto',
        'x-forwarded-proto' => 'x-forwarded-proto', 'X-Forwarded-Host' => 'x-forwarded-host',
        'x-forwarded-host' => 'x-forwarded-host', 'X-Real-IP' => 'x-real-ip', 'x-real-ip' => 'x-real-ip',
        'X-Requested-With' => 'x-requested-with', 'x-requested-with' => 'x-requested-with',
        'Sec-Fetch-Dest' => 'sec-fetch-dest', 'sec-fetch-dest' => 'sec-fetch-dest',
        'Sec-Fetch-Mode' => 'sec-fetch-mode', 'sec-fetch-mode' => 'sec-fetch-mode',
        'Sec-Fetch-Site' => 'sec-fetch-site', 'sec-fetch-site' => 'sec-fetch-site',
        'Sec-Fetch-User' => 'sec-fetch-user', 'sec-fetch-user' => 'sec-fetch-user',
        'Transfer-Encoding' => 'transfer-encoding', 'transfer-encoding' => 'transfer-encoding',
        'Expect' => 'expect', 'expect' => 'expect', 'Range' => 'range', 'range' => 'range',
        'Upgrade' => 'upgrade', 'upgrade' => 'upgrade', 'DNT' => 'dnt', 'dnt' => 'dnt',
        'Priority' => 'priority', 'priority' => 'priority', 'TE' => 'te', 'te' => 'te',
    ];
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
        // One regular expression validates the request line and one the whole header section:
        // strspn()/strcspn() with long character lists cost more than the rest of the parse.
        $valid = \preg_match(self::REQUEST_LINE, $head, $m) === 1;
        $lineEnd = $valid ? \strlen($m[0]) - 2 : (int) \strpos($head, "\r\n");
        if ($lineEnd > $this->limits->maxRequestLine) {
            throw new HttpException(414, \sprintf('Request line longer than %d bytes', $this->limits->maxRequestLine));
        }
        if (!$valid) {
            throw $this->requestLineError(\substr($head, 0, $lineEnd));
        }
        [, $method, $target, $minor] = $m;
        $protocol = $minor === '1' ? '1.1' : '1.0';
        if ($method === 'CONNECT') {
            throw new HttpException(501, 'CONNECT is not supported');
        }

        $headers = [];
        $start = $lineEnd + 2;
        if ($start < \strlen($head)) {
            $lines = \substr_count($head, "\n", $start);
            if ($lines > $this->limits->maxHeaderCount) {
                throw new HttpException(431, \sprintf('More than %d request header fields', $this->limits->maxHeaderCount));
            }
            // Each match is one whole line (a value holds no CR or LF) and \G chains them from the
            // start, so all lines are valid when there are as many matches as lines.
            $matched = \preg_match_all(self::HEADER_LINE, $head, $matches, 0, $start);
            if ($matched !== $lines) {
                throw $this->headerLineError((string) \substr($head, $start + \strlen(\implode('', $matches[0]))));
            }
            $values = $matches[2];
            foreach ($matches[1] as $i => $name) {
                $headers[self::LOWER_NAMES[$name] ?? \strtolower($name)][] = $values[$i];
            }
        }

        if ($target[0] === '/') {
            // origin-form, by far the most common: nothing to convert.
            $originForm = $target;
            $authority = null;
        } else {
            [$originForm, $authority] = $this->originForm($method, $target);
        }
        $q = \strpos($originForm, '?');
        if ($q === false) {
            $path = $originForm;
            $query = '';
        } else {
            $path = \substr($originForm, 0, $q);
            $query = \substr($originForm, $q + 1);
        }

        if (isset($headers['host'])) {
            if (\count($headers['host']) !== 1) {
                throw new HttpException(400, 'More than one Host header');
            }
            if (\preg_match(self::HOST, $headers['host'][0]) !== 1) {
                throw new HttpException(400, 'Malformed Host header');
            }
        } elseif ($protocol === '1.1') {
            throw new HttpException(400, 'Host header is required in HTTP/1.1');
        }
        if ($authority !== null) {
            // With an absolute-form target the target's authority is the host, not the Host
            // header (RFC 9112 §3.2.2).
            $headers['host'] = [$authority];
        }

        $keepAlive = $protocol === '1.1';
        if (isset($headers['connection'])) {
            $close = false;
            foreach ($headers['connection'] as $value) {
                foreach (\explode(',', \strtolower($value)) as $token) {
                    $token = \trim($token);
                    if ($token === 'close') {
                        $close = true;
                    } elseif ($token === 'keep-alive' && $protocol === '1.0') {
                        $keepAlive = true;
                    }
                }
            }
            // "close" wins wherever it appears (RFC 9112 §9.3).
            $keepAlive = $keepAlive && !$close;
        }

        $expectsContinue = false;
        if (isset($headers['expect'])) {
            if (\strtolower(\implode(',', $headers['expect'])) !== '100-continue') {
                throw new HttpException(417, 'Only the 100-continue expectation is supported', false);
            }
            $expectsContinue = $protocol === '1.1';
        }

        $contentLength = 0;
        $chunked = false;
        if (isset($headers['transfer-encoding'])) {
            if (isset($headers['content-length'])) {
                throw new HttpException(400, 'Content-Length and Transfer-Encoding must not both be present');
            }
            if ($protocol === '1.0') {
                throw new HttpException(400, 'Transfer-Encoding is not allowed in HTTP/1.0');
            }
            $codings = [];
            foreach ($headers['transfer-encoding'] as $value) {
                foreach (\explode(',', \strtolower($value)) as $coding) {
                    $coding = \trim($coding, " \t");
                    if ($coding !== '') {
                        $codings[] = $coding;
                    }
                }
            }
            foreach ($codings as $coding) {
                if ($coding !== 'chunked') {
                    throw new HttpException(501, \sprintf('Transfer coding "%s" is not supported', \substr($coding, 0, 64)));
                }
            }
            if (\count($codings) !== 1) {
                throw new HttpException(400, 'Transfer-Encoding must end with exactly one chunked coding');
            }
            $chunked = true;
            $contentLength = null;
        } elseif (isset($headers['content-length'])) {
            $contentLength = $this->contentLength($headers['content-length']);
        }

        // Only a request with content has anything to wait for (RFC 9110 §10.1.1).
        $expectsContinue = $expectsContinue && ($chunked || $contentLength > 0);

        return new RequestHead($method, $target, $path, $query, $protocol, $headers, $keepAlive, $expectsContinue, $contentLength, $chunked);
    }

    /** Works out why a request line was refused (slow path: only for bad requests). */
    private function requestLineError(string $requestLine): HttpException
    {
        $parts = \explode(' ', $requestLine);
        if (\count($parts) !== 3) {
            return new HttpException(400, 'Malformed request line');
        }
        [$method, $target, $version] = $parts;
        if ($method === '' || \strspn($method, self::TOKEN) !== \strlen($method)) {
            return new HttpException(400, 'Malformed request method');
        }
        if ($version !== 'HTTP/1.1' && $version !== 'HTTP/1.0') {
            return \preg_match('#^HTTP/\\d\\.\\d$#D', $version) === 1
                ? new HttpException(505, \sprintf('HTTP version %s is not supported', \substr($version, 5)))
                : new HttpException(400, 'Malformed HTTP version');
        }

        return new HttpException(400, 'Malformed request target');
    }

    /** Works out why a header line was refused (slow path: only for bad requests). */
    private function headerLineError(string $rest): HttpException
    {
        $line = \explode("\r\n", $rest, 2)[0];
        $colon = \strpos($line, ':');
        if ($colon === false || $colon === 0) {
            return new HttpException(400, $line !== '' && ($line[0] === ' ' || $line[0] === "\t") ? 'Obsolete header line folding is not accepted' : 'Malformed header line');
        }
        if (\strspn($line, self::TOKEN) !== $colon) {
            return new HttpException(400, 'Malformed header field name');
        }

        return new HttpException(400, 'Invalid character in header field value');
    }

    /**
     * The absolute-form (RFC 9112 §3.2.2) or asterisk-form (§3.2.4) target as origin-form, with the
     * authority of an absolute-form target.
     *
     * @return array{string, ?string}
     */
    private function originForm(string $method, string $target): array
    {
        if ($target === '*' && $method === 'OPTIONS') {
            return ['*', null];
        }
        $scheme = \strtolower(\substr($target, 0, 8));
        if (\str_starts_with($scheme, 'http://')) {
            $rest = \substr($target, 7);
        } elseif ($scheme === 'https://') {
            $rest = \substr($target, 8);
        } else {
            throw new HttpException(400, 'Malformed request target');
        }
        $slash = \strcspn($rest, '/?');
        if ($slash === 0) {
            throw new HttpException(400, 'Absolute request target without a host');
        }
        $authority = \substr($rest, 0, $slash);
        if (\preg_match(self::HOST, $authority) !== 1) {
            throw new HttpException(400, 'Malformed host in the request target');
        }
        $target = \substr($rest, $slash);

        return [$target === '' || $target[0] === '?' ? '/' . $target : $target, $authority];
    }

    /** @param list<string> $values */
    private function contentLength(array $values): int
    {
        $length = null;
        foreach ($values as $value) {
            foreach (\explode(',', $value) as $part) {
                $part = \trim($part, " \t");
                if ($part === '' || !\ctype_digit($part) || \strlen($part) > 18) {
                    throw new HttpException(400, 'Malformed Content-Length');
                }
                $n = (int) $part;
                if ($length !== null && $n !== $length) {
                    throw new HttpException(400, 'Conflicting Content-Length values');
                }
                $length = $n;
            }
        }
        \assert($length !== null);
        if ($length > $this->limits->maxBodySize) {
            throw new HttpException(413, \sprintf('Request body larger than %d bytes', $this->limits->maxBodySize));
        }

        return $length;
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
