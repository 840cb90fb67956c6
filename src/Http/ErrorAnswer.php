<?php

declare(strict_types=1);

namespace Spindle\Http;

/**
 * What a client gets when something goes wrong before or around the app: the one form of every
 * error answer the server makes itself (a plain-text status and message), whichever layer meets
 * the error: ErrorResponses for a handler that throws, a connection driver for a request that
 * could not be parsed, timed out, or whose response could not be sent. Each protocol writes it
 * in its own framing (http1(), or headers() and $body for HTTP/2).
 */
final class ErrorAnswer
{
    public const HEADERS = ['Content-Type' => 'text/plain; charset=utf-8'];

    private function __construct(
        public readonly int $status,
        public readonly string $body,
    ) {
    }

    /** A request refused (malformed, too large, timed out): its status and message. */
    public static function refusal(HttpException $e): self
    {
        return new self($e->status, $e->getMessage() . "\n");
    }

    /** A 500: the exception's text with --debug, otherwise nothing of it. */
    public static function failure(\Throwable $e, bool $debug, bool $whole = false): self
    {
        return new self(500, ($debug ? ($whole ? (string) $e : $e->getMessage()) : 'Internal Server Error') . "\n");
    }

    public function response(): Response
    {
        return new Response($this->status, self::HEADERS, $this->body);
    }

    /** The whole HTTP/1.x answer: head and body. */
    public function http1(ResponseSerializer $serializer, string $protocolVersion, bool $keepAlive): string
    {
        return $serializer->head($this->status, '', self::HEADERS, $protocolVersion, $keepAlive, \strlen($this->body)) . $this->body;
    }

    /** @return list<array{string, string}> the fields of its head, as HTTP/2 sends them */
    public function headers(): array
    {
        return [['content-type', self::HEADERS['Content-Type']]];
    }
}
