<?php

declare(strict_types=1);

namespace Spindle\Server;

use Spindle\Http\FileBody;
use Spindle\Http\HttpException;
use Spindle\Http\Request;
use Spindle\Http\Response;
use Spindle\Http\Status;
use Spindle\Metrics\Counter;
use Spindle\Metrics\Histogram;
use Spindle\Metrics\Registry;
use Spindle\Server\AccessLog\AccessLogWriter;
use Spindle\Server\AccessLog\LineFormatter;

/**
 * What a worker records about each request it hands to the app: the access log line (with the
 * request id the connection gave the request, see RequestIds, also set on the response) and the
 * request metrics. Only what is turned on is put around the handler: with neither, the
 * handler is returned as it is.
 */
final class Instrumentation
{
    /** The method label, then the label separator (Family::SEPARATOR); any other method is "other". */
    private const METHODS = [
        'GET' => "GET\x1f", 'HEAD' => "HEAD\x1f", 'POST' => "POST\x1f", 'PUT' => "PUT\x1f", 'PATCH' => "PATCH\x1f",
        'DELETE' => "DELETE\x1f", 'OPTIONS' => "OPTIONS\x1f",
    ];
    private const CLASSES = [1 => '1xx', 2 => '2xx', 3 => '3xx', 4 => '4xx', 5 => '5xx'];

    private readonly ?Counter $requests;
    private readonly ?Histogram $durations;

    public function __construct(
        private readonly ?AccessLogWriter $log,
        private readonly ?LineFormatter $formatter,
        ?Registry $metrics,
        private readonly TrustedProxies $proxies = new TrustedProxies([]),
    ) {
        $this->requests = $metrics?->counter('spindle_http_requests_total', 'HTTP requests the app answered, by method and status class', ['method', 'status']);
        $this->durations = $metrics?->histogram('spindle_http_request_duration_seconds', 'Time from handing a request to the app until its response was complete');
    }

    /**
     * @param \Closure(Request): Response $handler
     *
     * @return \Closure(Request): Response
     */
    public function wrap(\Closure $handler): \Closure
    {
        if ($this->log === null && $this->requests === null) {
            return $handler;
        }

        return function (Request $request) use ($handler): Response {
            $start = \microtime(true);
            // Given to the request by the connection (RequestIds) when the access log is on.
            $id = $this->log !== null ? $request->headers['x-request-id'][0] ?? '' : '';
            try {
                $response = $handler($request);
            } catch (\Throwable $e) {
                $status = match (true) {
                    $e instanceof HttpException => $e->status,
                    $e instanceof RequestTimedOut => 504,
                    default => 500,
                };
                $this->record($request, $status, 0, $start, $id);

                throw $e;
            }
            if ($id !== '' && !isset($response->headers['X-Request-Id']) && !isset($response->headers['x-request-id'])) {
                $response = new Response($response->status, $response->headers + ['X-Request-Id' => $id], $response->body, $response->reason);
            }
            $body = $response->body;
            if ($request->method === 'HEAD' || Status::forbidsBody($response->status)) {
                $this->record($request, $response->status, 0, $start, $id);
            } elseif (\is_string($body)) {
                $this->record($request, $response->status, \strlen($body), $start, $id);
            } elseif ($body instanceof FileBody) {
                $this->record($request, $response->status, $body->length, $start, $id);
            } else {
                // Streamed: recorded once the last piece went out (or the stream ended early).
                $response = new Response($response->status, $response->headers, $this->counting($body, $request, $response->status, $start, $id), $response->reason);
            }

            return $response;
        };
    }

    /**
     * @param iterable<string> $body
     *
     * @return \Generator<int, string>
     */
    private function counting(iterable $body, Request $request, int $status, float $start, string $id): \Generator
    {
        $bytes = 0;
        try {
            foreach ($body as $piece) {
                $bytes += \strlen((string) $piece);
                yield $piece;
            }
        } finally {
            $this->record($request, $status, $bytes, $start, $id);
        }
    }

    private function record(Request $request, int $status, int $bytes, float $start, string $id): void
    {
        $end = \microtime(true);
        if ($this->requests !== null && $this->durations !== null) {
            $this->requests->incKey((self::METHODS[$request->method] ?? "other\x1f") . (self::CLASSES[\intdiv($status, 100)] ?? 'other'));
            $this->durations->observe($end - $start);
        }
        if ($this->log !== null && $this->formatter !== null) {
            $remote = $this->proxies->isEmpty() ? $request->remoteAddress : $this->proxies->clientAddress($request->remoteAddress, $request->headers['x-forwarded-for'] ?? null);
            $this->log->write($this->formatter->format($request, $status, $bytes, (int) (($end - $start) * 1e6), $remote, $id, $start));
        }
    }
}
