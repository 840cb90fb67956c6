<?php

declare(strict_types=1);

namespace Spindle\Bridge\Psr15;

use Nyholm\Psr7\Factory\Psr17Factory;
use Nyholm\Psr7\ServerRequest as NyholmServerRequest;
use Psr\Http\Message\ResponseInterface;
use Psr\Http\Message\ServerRequestFactoryInterface;
use Psr\Http\Message\ServerRequestInterface;
use Psr\Http\Message\StreamFactoryInterface;
use Psr\Http\Message\StreamInterface;
use Psr\Http\Message\UploadedFileFactoryInterface;
use Psr\Http\Message\UriFactoryInterface;
use Psr\Http\Message\UriInterface;
use Spindle\Http\FormBody;
use Spindle\Http\HttpException;
use Spindle\Http\Request;
use Spindle\Http\Response;
use Spindle\Http\UploadedFile;

/**
 * Converts Spindle's lean request into a PSR-7 server request built with PSR-17 factories, and
 * a PSR-7 response back. Bodies of known size up to $bufferLimit are sent with Content-Length;
 * larger or unknown ones are streamed in pieces, never read into memory whole.
 */
final class Psr7Bridge
{
    /** Most URIs a worker keeps parsed: see uri(). */
    private const URI_CACHE = 256;
    /** What fromPsr() reads of a body before it asks the body's size: see content(). */
    private const FIRST_READ = 65536;

    private readonly bool $nyholm;
    /** @var array<string, UriInterface> parsed URIs by their text */
    private array $uriCache = [];

    public function __construct(
        private readonly ServerRequestFactoryInterface $requests,
        private readonly StreamFactoryInterface $streams,
        private readonly UploadedFileFactoryInterface $files,
        private readonly UriFactoryInterface $uris,
        private readonly int $bufferLimit = 2 * 1024 * 1024,
    ) {
        $this->nyholm = $requests instanceof Psr17Factory;
    }

    public static function withNyholm(): self
    {
        $factory = new Psr17Factory();

        return new self($factory, $factory, $factory, $factory);
    }

    public function toPsr(Request $request): ServerRequestInterface
    {
        $host = $request->headers['host'][0] ?? ($request->localAddress . ':' . $request->localPort);
        $target = $request->path === '*' ? '' : $request->path;
        $uri = ($request->secure ? 'https://' : 'http://') . $host . $target . ($request->query === '' ? '' : '?' . $request->query);
        $server = $this->serverParams($request);
        try {
            $psr = $this->serverRequest($request, $uri, $server);
        } catch (\InvalidArgumentException $e) {
            throw new HttpException(400, 'Invalid Host header or request target', false, $e);
        }
        if ($request->path === '*') {
            $psr = $psr->withRequestTarget('*');
        }
        if (isset($request->headers['cookie'])) {
            $psr = $psr->withCookieParams(FormBody::parseCookies(\implode('; ', $request->headers['cookie'])));
        }
        if ($request->parsedBody !== []) {
            $psr = $psr->withParsedBody($request->parsedBody);
        }
        if ($request->uploadedFiles !== []) {
            $psr = $psr->withUploadedFiles($this->uploadedFiles($request->uploadedFiles));
        }

        return $psr;
    }

    /** @param array<string, mixed> $server */
    private function serverRequest(Request $request, string $uri, array $server): ServerRequestInterface
    {
        if ($this->nyholm) {
            // Nyholm's constructor takes all headers at once; the PSR-17 path below clones per header.
            // A body too large for memory is read from its temporary file.
            $body = $request->bodyFile() !== null ? $request->openBody() : ($request->body === '' ? null : $request->body);

            return new NyholmServerRequest($request->method, $this->uri($uri), $request->headers, $body, $request->protocolVersion, $server);
        }
        $psr = $this->requests->createServerRequest($request->method, $this->uri($uri), $server)
            ->withProtocolVersion($request->protocolVersion)
            ->withBody(($file = $request->bodyFile()) !== null ? $this->streams->createStreamFromFile($file, 'rb') : $this->streams->createStream($request->body));
        foreach ($request->headers as $name => $values) {
            $psr = $psr->withHeader((string) $name, $values);
        }
        if ($request->query !== '') {
            \parse_str($request->query, $query);
            $psr = $psr->withQueryParams($query);
        }

        return $psr;
    }

    /**
     * The URI object for $uri. PSR-7 URIs are immutable, so one parsed object serves every
     * request to the same URI: the hot paths of an app are parsed once (0.35 µs a request saved
     * for Nyholm's Uri, benchmarks/http-path.php with examples/hello-psr7.php). The cache is
     * bounded: when full it starts over.
     */
    private function uri(string $uri): UriInterface
    {
        $parsed = $this->uriCache[$uri] ?? null;
        if ($parsed === null) {
            if (\count($this->uriCache) >= self::URI_CACHE) {
                $this->uriCache = [];
            }
            $parsed = $this->uriCache[$uri] = $this->uris->createUri($uri);
        }

        return $parsed;
    }

    public function fromPsr(ResponseInterface $response): Response
    {
        $body = $response->getBody();
        if ($body instanceof IteratorStream) {
            $content = $body->pieces();
        } else {
            $content = $this->content($body);
        }

        $headers = [];
        foreach ($response->getHeaders() as $name => $values) {
            $headers[(string) $name] = \array_values($values);
        }

        return new Response($response->getStatusCode(), $headers, $content, $response->getReasonPhrase());
    }

    /**
     * A body of known size up to the buffer limit as a string (sent with Content-Length), any
     * other as pieces. A body that fits in one read of FIRST_READ bytes (most responses) is taken
     * at once without asking its size: getSize() is the dearest call of a PSR-7 stream (Nyholm's
     * clears the stat cache and builds fstat()'s array, about 1 µs).
     *
     * @return string|\Generator<int, string>
     */
    private function content(StreamInterface $body): string|\Generator
    {
        $seekable = $body->isSeekable();
        if (!$seekable) {
            $size = $body->getSize();

            return $size !== null && $size <= $this->bufferLimit ? $body->getContents() : self::pieces($body, '');
        }
        $body->rewind();
        $first = $body->read(self::FIRST_READ);
        if ($body->eof()) {
            return $first;
        }
        $size = $body->getSize();

        return $size !== null && $size <= $this->bufferLimit ? $first . $body->getContents() : self::pieces($body, $first);
    }

    /** @return \Generator<int, string> */
    private static function pieces(StreamInterface $body, string $first): \Generator
    {
        if ($first !== '') {
            yield $first;
        }
        while (!$body->eof()) {
            $piece = $body->read(65536);
            if ($piece === '') {
                break;
            }
            yield $piece;
        }
    }

    /** @return array<string, mixed> */
    private function serverParams(Request $request): array
    {
        $now = \microtime(true);
        $server = [
            'REQUEST_METHOD' => $request->method,
            'REQUEST_URI' => $request->target,
            'SERVER_PROTOCOL' => 'HTTP/' . $request->protocolVersion,
            'QUERY_STRING' => $request->query,
            'REMOTE_ADDR' => $request->remoteAddress,
            'REMOTE_PORT' => $request->remotePort,
            'SERVER_ADDR' => $request->localAddress,
            'SERVER_PORT' => $request->localPort,
            'SERVER_NAME' => $request->localAddress,
            'REQUEST_TIME' => (int) $now,
            'REQUEST_TIME_FLOAT' => $now,
            'SERVER_SOFTWARE' => 'Spindle',
            'REQUEST_SCHEME' => $request->secure ? 'https' : 'http',
        ];
        if ($request->secure) {
            $server['HTTPS'] = 'on';
        }
        foreach ($request->headers as $name => $values) {
            $server['HTTP_' . \strtoupper(\str_replace('-', '_', (string) $name))] = \implode(', ', $values);
        }

        return $server;
    }

    /**
     * @param array<array-key, mixed> $files
     *
     * @return array<array-key, mixed>
     */
    private function uploadedFiles(array $files): array
    {
        $out = [];
        foreach ($files as $key => $file) {
            if ($file instanceof UploadedFile) {
                $stream = $file->error === \UPLOAD_ERR_OK
                    ? $this->streams->createStreamFromFile($file->tmpPath, 'r')
                    : $this->streams->createStream('');
                $out[$key] = $this->files->createUploadedFile($stream, $file->size, $file->error, $file->clientFilename, $file->clientMediaType);
            } elseif (\is_array($file)) {
                $out[$key] = $this->uploadedFiles($file);
            }
        }

        return $out;
    }
}
