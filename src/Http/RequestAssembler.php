<?php

declare(strict_types=1);

namespace Spindle\Http;

use Spindle\Http\Multipart\MultipartLimits;
use Spindle\Http\Multipart\MultipartParser;
use Spindle\Http\Multipart\TempFileSink;
use Spindle\Http\Parser\HeadCache;
use Spindle\Http\Parser\RequestHead;
use Spindle\Http\Parser\RequestParser;

/**
 * Turns the bytes of one connection into whole requests: the parser's heads and body pieces
 * become a Request with its form fields, multipart uploads streamed into temporary files on the
 * way. It touches no socket: the connection pushes what it read and gets each request back.
 */
final class RequestAssembler
{
    private readonly RequestParser $parser;
    private ?RequestHead $head = null;
    private string $body = '';
    private ?MultipartParser $multipart = null;

    /**
     * @param \Closure(): void $onContinue a head asked for "100 Continue" before sending its body
     * @param \Closure(Request, list<string>, bool): void $onRequest a whole request, its upload
     *        temporary files, and whether the client asked to keep the connection
     * @param (\Closure(array<string, list<string>>): array<string, list<string>>)|null $headers
     *        adjusts each request's header fields (see ConnectionServices::$headers)
     * @param HeadCache|null $heads heads parsed before, shared with the worker's other connections
     */
    public function __construct(
        private readonly HttpLimits $limits,
        private readonly string $uploadDir,
        private readonly \Closure $onContinue,
        private readonly \Closure $onRequest,
        private readonly string $remoteAddress,
        private readonly int $remotePort,
        private readonly string $localAddress,
        private readonly int $localPort,
        private readonly ?\Closure $headers = null,
        ?HeadCache $heads = null,
    ) {
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

    /** Drops a request in progress, with the temporary files of its uploads. */
    public function abort(): void
    {
        $this->head = null;
        $this->body = '';
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
        $contentType = $head->headers['content-type'][0] ?? '';
        if (\stripos($contentType, 'multipart/form-data') === 0) {
            $this->multipart = new MultipartParser(
                MultipartParser::boundaryFromContentType($contentType),
                new TempFileSink($this->uploadDir),
                new MultipartLimits(maxFileSize: $this->limits->maxBodySize, maxFiles: $this->limits->maxFileUploads),
            );
        }
        if ($head->expectsContinue) {
            ($this->onContinue)();
        }
    }

    private function onBody(string $piece): void
    {
        if ($this->multipart !== null) {
            $this->multipart->push($piece);
        } else {
            $this->body .= $piece;
        }
    }

    private function onComplete(): void
    {
        $head = $this->head;
        \assert($head !== null);
        $this->head = null;
        $parsedBody = [];
        $files = [];
        $tempFiles = [];
        $body = $this->body;
        $this->body = '';
        if ($this->multipart !== null) {
            $result = $this->multipart->finish();
            $tempFiles = $this->multipart->tempFiles();
            $this->multipart = null;
            $parsedBody = $result->fields;
            $files = $result->files;
        } elseif ($body !== '' && isset($head->headers['content-type'])
            && \stripos($head->headers['content-type'][0], 'application/x-www-form-urlencoded') === 0) {
            $parsedBody = FormBody::parseUrlEncoded($body);
        }
        ($this->onRequest)(new Request(
            $head->method,
            $head->target,
            $head->path,
            $head->query,
            $head->protocolVersion,
            $this->headers === null ? $head->headers : ($this->headers)($head->headers),
            $body,
            $parsedBody,
            $files,
            $this->remoteAddress,
            $this->remotePort,
            $this->localAddress,
            $this->localPort,
        ), $tempFiles, $head->keepAlive);
    }
}
