<?php

declare(strict_types=1);

namespace Spindle\Bridge\HttpFoundation;

use Spindle\Http\FileBody;
use Spindle\Http\Response;
use Symfony\Component\HttpFoundation\BinaryFileResponse;
use Symfony\Component\HttpFoundation\Request as SymfonyRequest;
use Symfony\Component\HttpFoundation\Response as SymfonyResponse;
use Symfony\Component\HttpFoundation\StreamedResponse;

/**
 * Turns a Symfony HttpFoundation response into Spindle's, without sending anything:
 *
 *  - prepare() runs first, as Response::send() would have it (HEAD, Range, protocol details);
 *  - every header keeps its case; each cookie becomes its own Set-Cookie line;
 *  - a plain or JSON response becomes a string body;
 *  - a StreamedResponse becomes a body sent as its callback prints, piece by piece
 *    (see CallbackOutput);
 *  - a BinaryFileResponse becomes a FileBody read from disk while it is sent, over the range
 *    prepare() chose; with deleteFileAfterSend() the file is removed once Spindle is done with
 *    the body (sent, or abandoned). Keep one converter for as long as its responses are being
 *    sent: it holds those pending removals.
 *
 * Spindle writes the framing itself: Content-Length or chunked encoding, Connection, and Date
 * when the response has none.
 */
final class ResponseConverter
{
    private readonly OutputLevels $levels;
    /** @var \Closure(SymfonyResponse): string */
    private readonly \Closure $statusText;
    /** @var \Closure(BinaryFileResponse): array{int, int, bool} */
    private readonly \Closure $fileRange;
    /** @var \WeakMap<FileBody, DeleteFile> files to remove once their body is gone */
    private \WeakMap $deletions;

    public function __construct()
    {
        $this->levels = new OutputLevels();
        $this->deletions = new \WeakMap();
        // The reason phrase and the chosen range have no public getters.
        $statusText = \Closure::bind(static fn (SymfonyResponse $response): string => (string) $response->statusText, null, SymfonyResponse::class);
        $fileRange = \Closure::bind(
            static fn (BinaryFileResponse $response): array => [(int) $response->offset, (int) $response->maxlen, (bool) $response->deleteFileAfterSend],
            null,
            BinaryFileResponse::class,
        );
        \assert($statusText !== null && $fileRange !== null);
        $this->statusText = $statusText;
        $this->fileRange = $fileRange;
    }

    public function toSpindle(SymfonyResponse $response, SymfonyRequest $request): Response
    {
        if ($response instanceof WebSocketResponse && ($upgrade = $response->upgrade()) !== null) {
            // The 101 of an accepted WebSocket handshake, with what the app added to its head.
            $headers = $upgrade->headers;
            $cookies = \array_map('strval', $response->headers->getCookies());
            if ($cookies !== []) {
                $headers['Set-Cookie'] = \array_values($cookies);
            }

            return Response::upgrade($headers, $upgrade->upgrade ?? throw new \LogicException('An upgrade without its handler'));
        }
        $isHead = $request->getRealMethod() === 'HEAD';
        // prepare() empties the body of a HEAD response; Spindle needs it for Content-Length (and sends none of it).
        $content = $isHead && !$response instanceof StreamedResponse && !$response instanceof BinaryFileResponse
            ? $response->getContent()
            : null;
        // The framework prepared it already on its usual way out (Laravel's router, Symfony's
        // ResponseListener): a response prepared for an HTTP/1.1 request says 1.1, where a new one
        // says 1.0. Preparing it again cost 2 to 3 µs a request, about 1 % of a Laravel `/hello`
        // (docs/benchmarks.md, 2026-11-26). One made past that point (a global middleware's, an
        // error page rendered outside the router) is prepared here, as are HEAD responses. What a
        // middleware changed after the framework prepared it is sent as PHP-FPM sends it: as it
        // is, but for the charset PHP adds to a text/ type that has none.
        if ($isHead || $response->getProtocolVersion() !== '1.1') {
            $response->prepare($request);
        } else {
            self::addCharset($response);
        }

        $headers = $response->headers->allPreserveCaseWithoutCookies();
        $cookies = $response->headers->getCookies();
        if ($cookies !== []) {
            $headers['Set-Cookie'] = \array_map('strval', $cookies);
        }
        $spindleHeaders = [];
        foreach ($headers as $name => $values) {
            $spindleHeaders[(string) $name] = \array_map('strval', \array_values($values));
        }

        $status = $response->getStatusCode();
        $reason = ($this->statusText)($response);
        if ($reason === (SymfonyResponse::$statusTexts[$status] ?? null)) {
            $reason = '';
        }

        return new Response($status, $spindleHeaders, $this->body($response, $isHead, $content), $reason);
    }

    /** A text/ Content-Type without a charset gets the response's, as prepare() (and PHP) add it. */
    private static function addCharset(SymfonyResponse $response): void
    {
        $type = $response->headers->get('Content-Type');
        if ($type !== null && \strncasecmp($type, 'text/', 5) === 0 && \stripos($type, 'charset') === false) {
            $response->headers->set('Content-Type', $type . '; charset=' . ($response->getCharset() ?: 'UTF-8'));
        }
    }

    /** @return string|iterable<string>|FileBody */
    private function body(SymfonyResponse $response, bool $isHead, string|false|null $content): string|iterable|FileBody
    {
        if ($response instanceof BinaryFileResponse) {
            return $this->file($response, $isHead);
        }
        if ($response instanceof StreamedResponse) {
            return $isHead ? [] : CallbackOutput::pieces($response->sendContent(...), $this->levels);
        }
        $content ??= $response->getContent();
        if ($content === false) {
            // A response type that only knows how to print itself.
            return $isHead ? [] : CallbackOutput::pieces($response->sendContent(...), $this->levels);
        }
        if ($isHead && $content === '') {
            // Emptied by the framework's own prepare(): the length is unknown, so none is sent.
            return [];
        }

        return $content;
    }

    private function file(BinaryFileResponse $response, bool $isHead): string|FileBody
    {
        [$offset, $maxLength, $delete] = ($this->fileRange)($response);
        $path = $response->getFile()->getPathname();
        if (!$response->isSuccessful() || ($maxLength === 0 && !$isHead)) {
            // An error status (416 for an unsatisfiable range) or X-Sendfile: no body, as sendContent() sends none.
            if ($delete) {
                @\unlink($path);
            }

            return '';
        }
        \clearstatcache(true, $path);
        $size = @\filesize($path);
        if ($size === false) {
            throw new \RuntimeException(\sprintf('Cannot send %s: the file is gone', $path));
        }
        $length = \max(0, $size - $offset);
        if ($maxLength > 0) {
            $length = \min($length, $maxLength);
        }
        $body = new FileBody($path, $offset, $length);
        if ($delete) {
            $this->deletions[$body] = new DeleteFile($path);
        }

        return $body;
    }
}
