<?php

declare(strict_types=1);

namespace Spindle\Http\Http2;

use Spindle\Http\ConnectionServices;
use Spindle\Http\Http1\RequestAssembler;
use Spindle\Http\HttpException;
use Spindle\Http\Peer;
use Spindle\Http\Request;
use Spindle\Http\RequestBody;

/**
 * Turns HTTP/2 streams into Requests with the HTTP/1.1 request assembler, so that a request is
 * the same whichever protocol brought it: each stream's fields become a request head (the
 * pseudo-fields its request line, :authority its Host, split cookie fields joined again, RFC 9113
 * §8.2.3) and its DATA the body (chunked when no content-length was given), through an
 * assembler of its own: form and multipart parsing, uploads to temporary files, the body limits
 * and the worker's body memory apply as they do to HTTP/1.1. The session has already checked the
 * fields (RFC 9113 §8.2, §8.3), so no byte of them can break the head's syntax.
 */
final class StreamRequests
{
    /** @var array<int, RequestAssembler> the streams whose request is being assembled */
    private array $assemblers = [];
    /** @var array<int, true> the streams whose body goes chunked */
    private array $chunked = [];
    /** @var array<int, true> the streams whose body the handler reads as it arrives */
    private array $streamed = [];

    /**
     * @param \Closure(int, Request, list<string>): void $onRequest a stream's request is ready (its body whole, or streaming)
     */
    public function __construct(
        private readonly ConnectionServices $set,
        private readonly Peer $peer,
        private readonly \Closure $onRequest,
        private readonly Http2Connection $connection,
    ) {
    }

    /** @param list<array{string, string}> $fields */
    public function open(int $id, array $fields, bool $endStream): void
    {
        $pseudo = [];
        $lines = '';
        $cookies = [];
        $hasHost = false;
        $hasLength = false;
        foreach ($fields as [$name, $value]) {
            if ($name[0] === ':') {
                $pseudo[$name] = $value;
            } elseif ($name === 'cookie') {
                $cookies[] = $value;
            } else {
                $hasHost = $hasHost || $name === 'host';
                $hasLength = $hasLength || $name === 'content-length';
                $lines .= $name . ': ' . $value . "\r\n";
            }
        }
        $method = $pseudo[':method'] ?? '';
        $path = $pseudo[':path'] ?? '';
        if ($method === 'CONNECT' || $path === '') {
            $this->connection->refuse($id, new HttpException(405, 'CONNECT is not served'));

            return;
        }
        if ($cookies !== []) {
            $lines .= 'cookie: ' . \implode('; ', $cookies) . "\r\n";
        }
        if (!$hasHost && isset($pseudo[':authority'])) {
            $lines = 'host: ' . $pseudo[':authority'] . "\r\n" . $lines;
        }
        if (!$endStream && !$hasLength) {
            $lines .= "transfer-encoding: chunked\r\n";
            $this->chunked[$id] = true;
        }
        $set = $this->set;
        $peer = $this->peer;
        $this->assemblers[$id] = new RequestAssembler(
            $set->limits,
            $set->uploadDir,
            static function (): void {
            },
            function (Request $request, array $tempFiles) use ($id): void {
                if ($request->bodyStream === null) {
                    unset($this->assemblers[$id], $this->chunked[$id]);
                }
                ($this->onRequest)($id, $request, $tempFiles);
            },
            $peer,
            $set->heads,
            $set->bodyMemory,
            $set->clock,
            // A body the handler reads as it arrives: the stream's window reopens as it reads.
            $set->streamBodies ? function () use ($id): RequestBody {
                $this->streamed[$id] = true;

                return new RequestBody(fn (int $bytes) => $this->connection->consumed($id, $bytes));
            } : null,
        );
        $this->push($id, $method . ' ' . $path . " HTTP/1.1\r\n" . $lines . "\r\n");
        if ($endStream && isset($this->assemblers[$id]) && isset($this->chunked[$id])) {
            $this->push($id, "0\r\n\r\n");
        }
    }

    public function data(int $id, string $bytes, bool $end): void
    {
        if (!isset($this->assemblers[$id])) {
            return;
        }
        if (isset($this->chunked[$id])) {
            $framed = $bytes === '' ? '' : \dechex(\strlen($bytes)) . "\r\n" . $bytes . "\r\n";
            $this->push($id, $end ? $framed . "0\r\n\r\n" : $framed);
        } elseif ($bytes !== '') {
            $this->push($id, $bytes);
        }
        if ($end) {
            unset($this->assemblers[$id], $this->chunked[$id], $this->streamed[$id]);
        }
    }

    /** Whether $id's body goes to a handler that reads it as it arrives (its window waits for it). */
    public function isStreamed(int $id): bool
    {
        return isset($this->streamed[$id]);
    }

    /** Drops the request of $id in progress (its stream was reset). */
    public function abort(int $id): void
    {
        if (isset($this->assemblers[$id])) {
            $this->assemblers[$id]->abort();
            unset($this->assemblers[$id], $this->chunked[$id], $this->streamed[$id]);
        }
    }

    public function abortAll(): void
    {
        foreach (\array_keys($this->assemblers) as $id) {
            $this->abort($id);
        }
    }

    private function push(int $id, string $bytes): void
    {
        try {
            $this->assemblers[$id]->push($bytes);
        } catch (HttpException $e) {
            $this->abort($id);
            $this->connection->refuse($id, $e);
        }
    }
}
