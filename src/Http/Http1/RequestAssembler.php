<?php

declare(strict_types=1);

namespace Spindle\Http\Http1;

use Spindle\Http\BodyMemory;
use Spindle\Http\Clock;
use Spindle\Http\FormBody;
use Spindle\Http\HttpException;
use Spindle\Http\HttpLimits;
use Spindle\Http\Peer;
use Spindle\Http\Multipart\MultipartLimits;
use Spindle\Http\Multipart\MultipartParser;
use Spindle\Http\Multipart\TempFileSink;
use Spindle\Http\Parser\HeadCache;
use Spindle\Http\Parser\RequestHead;
use Spindle\Http\Parser\RequestParser;
use Spindle\Http\ConnectionClosed;
use Spindle\Http\Request;
use Spindle\Http\RequestBody;

/**
 * Turns the bytes of one connection into whole requests: the parser's heads and body pieces
 * become a Request with its form fields, multipart uploads streamed into temporary files on the
 * way. It touches no socket: the connection pushes what it read and gets each request back.
 *
 * Other bodies are kept in memory up to HttpLimits::$bodyBufferSize, as long as the worker's
 * BodyMemory has room for them; past either, what arrived so far and the rest go to a temporary
 * file in the upload directory (the Request's $bodyFile).
 */
final class RequestAssembler
{
    private readonly RequestParser $parser;
    /**
     * The head of the request whose body is arriving (null: none). A property the connection
     * reads rather than isReadingBody(): it asks on every read. Only the assembler sets it.
     */
    public ?RequestHead $head = null;
    /** The body so far, while it is kept in memory: all of it is taken from the worker's BodyMemory. */
    private string $body = '';
    /** The temporary file the body of the request in progress goes to, once it went to one. */
    private ?string $bodyFile = null;
    private ?TempFileSink $files = null;
    private ?MultipartParser $multipart = null;
    /** The body of the request in progress, when its handler reads it as it arrives. */
    private ?RequestBody $stream = null;
    /** Body bytes of the request in progress that arrived so far. */
    public int $bodyReceived = 0;
    /** When the body of the request in progress began (its head arrived), by the connection's clock. */
    public float $bodyStartedAt = 0.0;

    private readonly string $remoteAddress;
    private readonly int $remotePort;
    private readonly string $localAddress;
    private readonly int $localPort;
    private readonly bool $secure;

    /**
     * @param \Closure(bool): void $onBodyBegins a head with a body arrived, its body begins; true
     *        when the head asked for "100 Continue" before sending it
     * @param \Closure(Request, list<string>, bool): void $onRequest a whole request, its
     *        temporary files (uploads, a body too large for memory), and whether the client asked
     *        to keep the connection. A body in memory ($body) holds its length of $memory: the
     *        taker gives it back once done with the request
     * @param HeadCache|null $heads heads parsed before, shared with the worker's other connections
     */
    public function __construct(
        private readonly HttpLimits $limits,
        private readonly string $uploadDir,
        private readonly \Closure $onBodyBegins,
        private readonly \Closure $onRequest,
        /** The connection's two ends, and whether it is TLS: what each Request says of them. */
        Peer $peer,
        ?HeadCache $heads = null,
        private readonly BodyMemory $memory = new BodyMemory(16 * 1024 * 1024),
        private readonly Clock $clock = new Clock(),
        /**
         * @var (\Closure(): RequestBody)|null for a handler that streams bodies
         *      (StreamsRequestBody): makes the stream a request with a body comes out with at once,
         *      its head read; its bytes go there instead of being stored
         */
        private readonly ?\Closure $streams = null,
    ) {
        // Copied here once rather than read through $peer for every request.
        $this->remoteAddress = $peer->remoteAddress;
        $this->remotePort = $peer->remotePort;
        $this->localAddress = $peer->localAddress;
        $this->localPort = $peer->localPort;
        $this->secure = $peer->secure;
        $this->parser = new RequestParser($limits, $this->onHead(...), $this->onBody(...), $this->onComplete(...), $heads);
    }

    /**
     * Parses $data; whole requests come out through onRequest before this returns.
     *
     * @throws HttpException for a request that cannot be parsed (requests before it in $data came out)
     */
    public function push(string $data): void
    {
        $this->parser->push($data);
    }

    /** Between requests: nothing of the next one has arrived. */
    public function isIdle(): bool
    {
        return $this->parser->isIdle();
    }

    /** Part of a request head has arrived, not all of it. */
    public function isReadingHead(): bool
    {
        return $this->parser->isReadingHead();
    }

    /** A head arrived and its body is still coming. */
    public function isReadingBody(): bool
    {
        return $this->head !== null;
    }

    /** The bytes read past the last whole request that are not a request yet (see RequestParser::takeBuffered()). */
    public function takeUnparsed(): string
    {
        return $this->head === null ? $this->parser->takeBuffered() : '';
    }

    /**
     * Drops a request in progress, with the temporary files of its uploads and body; a body being
     * streamed to its handler fails with $why.
     */
    public function abort(?\Throwable $why = null): void
    {
        $this->head = null;
        if ($this->stream !== null) {
            $this->stream->fail($why ?? new ConnectionClosed('The client closed the connection'));
            $this->stream = null;
        }
        $this->memory->give(\strlen($this->body));
        $this->body = '';
        if ($this->bodyFile !== null) {
            \assert($this->files !== null);
            $this->files->discard($this->bodyFile);
            $this->bodyFile = null;
        }
        if ($this->multipart !== null) {
            $this->multipart->abort();
            $this->multipart = null;
        }
    }

    private function onHead(RequestHead $head): void
    {
        $this->head = $head;
        $this->body = '';
        if (!$head->hasBody()) {
            return;
        }
        $this->bodyReceived = 0;
        $this->bodyStartedAt = $this->clock->now;
        if ($this->streams !== null) {
            // The request goes to its handler now; its body follows through the stream.
            $this->stream = ($this->streams)();
            ($this->onBodyBegins)($head->expectsContinue);
            ($this->onRequest)($this->request($head, '', [], [], $this->stream), [], $head->keepAlive);

            return;
        }
        $contentType = $head->headers['content-type'][0] ?? '';
        if (\stripos($contentType, 'multipart/form-data') === 0) {
            $this->multipart = new MultipartParser(
                MultipartParser::boundaryFromContentType($contentType),
                new TempFileSink($this->uploadDir),
                new MultipartLimits(maxFileSize: $this->limits->maxBodySize, maxFiles: $this->limits->maxFileUploads),
            );
        }
        ($this->onBodyBegins)($head->expectsContinue);
    }

    private function onBody(string $piece): void
    {
        $length = \strlen($piece);
        $this->bodyReceived += $length;
        if ($this->stream !== null) {
            $this->stream->push($piece);
        } elseif ($this->multipart !== null) {
            $this->multipart->push($piece);
        } elseif ($this->bodyFile === null && \strlen($this->body) + $length <= $this->limits->bodyBufferSize && $this->memory->take($length)) {
            $this->body .= $piece;
        } else {
            $this->toFile($piece);
        }
    }

    /**
     * Appends $piece to the body's temporary file, made (with what memory held of the body so
     * far) on the first call.
     *
     * @throws HttpException 500 when the file cannot be made or written
     */
    private function toFile(string $piece): void
    {
        if ($this->bodyFile === null) {
            $this->files ??= new TempFileSink($this->uploadDir);
            $path = $this->files->open();
            if ($path === null) {
                throw new HttpException(500, 'Cannot store the request body');
            }
            $this->bodyFile = $path;
            $this->memory->give(\strlen($this->body));
            $piece = $this->body . $piece;
            $this->body = '';
        }
        \assert($this->files !== null);
        if (!$this->files->write($this->bodyFile, $piece)) {
            throw new HttpException(500, 'Cannot store the request body');
        }
    }

    /**
     * Form fields of an urlencoded body, parsed whole as PHP parses $_POST (bounded by
     * --max-body-size). A body refused drops its file and gives its memory back.
     *
     * @return array<array-key, mixed>
     *
     * @throws HttpException 413 for too many variables
     */
    private function parseForm(string $body, ?string $bodyFile): array
    {
        try {
            return FormBody::parseUrlEncoded($bodyFile === null ? $body : (string) @\file_get_contents($bodyFile));
        } catch (HttpException $e) {
            if ($bodyFile !== null) {
                @\unlink($bodyFile);
            }
            $this->memory->give(\strlen($body));

            throw $e;
        }
    }

    private function onComplete(): void
    {
        $head = $this->head;
        \assert($head !== null);
        $this->head = null;
        if ($this->stream !== null) {
            $this->stream->end();
            $this->stream = null;

            return;
        }
        $parsedBody = [];
        $files = [];
        $tempFiles = [];
        $body = $this->body;
        $this->body = '';
        $bodyFile = $this->bodyFile;
        if ($bodyFile !== null) {
            $this->bodyFile = null;
            $tempFiles[] = $bodyFile;
            \assert($this->files !== null);
            if (!$this->files->close($bodyFile)) {
                $this->files->discard($bodyFile);

                throw new HttpException(500, 'Cannot store the request body');
            }
            if (isset($head->headers['content-type']) && \stripos($head->headers['content-type'][0], 'application/x-www-form-urlencoded') === 0) {
                $parsedBody = $this->parseForm('', $bodyFile);
            }
        } elseif ($this->multipart !== null) {
            $result = $this->multipart->finish();
            $tempFiles = $this->multipart->tempFiles();
            $this->multipart = null;
            $parsedBody = $result->fields;
            $files = $result->files;
        } elseif ($body !== '' && isset($head->headers['content-type'])
            && \stripos($head->headers['content-type'][0], 'application/x-www-form-urlencoded') === 0) {
            $parsedBody = $this->parseForm($body, null);
        }
        $request = $this->request($head, $body, $parsedBody, $files);
        ($this->onRequest)($bodyFile === null ? $request : $request->withBodyFile($bodyFile), $tempFiles, $head->keepAlive);
    }

    /**
     * @param array<array-key, mixed> $parsedBody
     * @param array<array-key, mixed> $files
     */
    private function request(RequestHead $head, string $body, array $parsedBody, array $files, ?RequestBody $stream = null): Request
    {
        return new Request(
            $head->method,
            $head->target,
            $head->path,
            $head->query,
            $head->protocolVersion,
            $head->headers,
            $body,
            $parsedBody,
            $files,
            $this->remoteAddress,
            $this->remotePort,
            $this->localAddress,
            $this->localPort,
            $stream,
            $this->secure,
        );
    }
}
