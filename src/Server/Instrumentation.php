<?php

declare(strict_types=1);

namespace Spindle\Server;

use Spindle\Http\FileBody;
use Spindle\Http\HttpException;
use Spindle\Http\Middleware;
use Spindle\Http\Request;
use Spindle\Http\RequestHandler;
use Spindle\Http\Response;
use Spindle\Http\Status;
use Spindle\Metrics\Registry;
use Spindle\Server\AccessLog\AccessLogWriter;
use Spindle\Server\AccessLog\LineFormatter;

/**
 * What a worker records about each request it hands to the app: the access log line (with the
 * request id RequestIds gave the request, and the client's address through --trusted-proxies)
 * and the request metrics. Only what is turned on runs: with neither, of() makes none.
 */
final class Instrumentation implements Middleware
{
    private readonly ?RequestMetrics $metrics;

    public function __construct(
        private readonly ?AccessLogWriter $log,
        private readonly ?LineFormatter $formatter,
        ?Registry $metrics,
        private readonly TrustedProxies $proxies = new TrustedProxies([]),
    ) {
        $this->metrics = $metrics !== null ? new RequestMetrics($metrics) : null;
    }

    /** The access log and metrics recorder, or null when neither is on. */
    public static function of(?AccessLogWriter $log, ?LineFormatter $formatter, ?Registry $metrics, TrustedProxies $proxies = new TrustedProxies([])): ?self
    {
        return $log === null && $metrics === null ? null : new self($log, $formatter, $metrics, $proxies);
    }

    public function process(Request $request, RequestHandler $next): Response
    {
        if ($this->log === null) {
            \assert($this->metrics !== null);

            return $this->count($request, $next, $this->metrics);
        }
        $start = \microtime(true);
        // Given to the request by RequestIds, which stands before this with the access log on.
        $id = $request->headers['x-request-id'][0] ?? '';
        try {
            $response = $next->handle($request);
        } catch (\Throwable $e) {
            $this->record($request, self::statusOf($e), 0, $start, $id);

            throw $e;
        }
        $body = $response->body;
        if ($response->upgrade !== null && $response->status === 101) {
            // Counted now; its log line is written when the connection closes (LoggedUpgrade).
            $this->metrics?->record($request->method, 101, $start);

            return Response::upgrade($response->headers, new LoggedUpgrade($response->upgrade, $this, $request, $start, $id));
        }
        if ($request->method === 'HEAD' || Status::forbidsBody($response->status)) {
            $this->record($request, $response->status, 0, $start, $id);
        } elseif (\is_string($body)) {
            $this->record($request, $response->status, \strlen($body), $start, $id);
        } elseif ($body instanceof FileBody) {
            $this->record($request, $response->status, $body->length, $start, $id);
        } else {
            // Streamed: recorded once the last piece went out (or the stream ended early).
            $response = $response->withBody($this->logging($body, $request, $response->status, $start, $id));
        }

        return $response;
    }

    /**
     * Records a request whose handler never returned: it ended the process (see ExitDrain), and
     * the worker answered it with $status and $bytes of body.
     */
    public function recordEnded(Request $request, int $status, int $bytes, float $start): void
    {
        $this->record($request, $status, $bytes, $start, $this->log !== null ? $request->headers['x-request-id'][0] ?? '' : '');
    }

    /** Metrics without the access log: the least that can be done around the handler. */
    private function count(Request $request, RequestHandler $next, RequestMetrics $metrics): Response
    {
        $start = \microtime(true);
        try {
            $response = $next->handle($request);
        } catch (\Throwable $e) {
            $metrics->record($request->method, self::statusOf($e), $start);

            throw $e;
        }
        $body = $response->body;
        if (\is_string($body) || $body instanceof FileBody || $request->method === 'HEAD' || Status::forbidsBody($response->status)) {
            $metrics->record($request->method, $response->status, $start);

            return $response;
        }
        // Streamed: counted once the last piece went out (or the stream ended early).
        $counted = (static function () use ($body, $metrics, $request, $response, $start): \Generator {
            try {
                yield from $body;
            } finally {
                $metrics->record($request->method, $response->status, $start);
            }
        })();

        return $response->withBody($counted);
    }

    private static function statusOf(\Throwable $e): int
    {
        return match (true) {
            $e instanceof HttpException => $e->status,
            $e instanceof RequestTimedOut => 504,
            default => 500,
        };
    }

    /**
     * @param iterable<string> $body
     *
     * @return \Generator<int, string>
     */
    private function logging(iterable $body, Request $request, int $status, float $start, string $id): \Generator
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
        $this->metrics?->record($request->method, $status, $start);
        $this->write($request, $status, $bytes, $start, $id, null);
    }

    /**
     * @internal LoggedUpgrade: the access log line of an upgraded connection that closed (status
     * 101, $bytes sent after the handshake, the duration from the handshake to the close, and
     * the WebSocket close code if any).
     */
    public function logClosed(Request $request, int $bytes, float $start, string $id, ?int $closeCode): void
    {
        $this->write($request, 101, $bytes, $start, $id, $closeCode);
    }

    private function write(Request $request, int $status, int $bytes, float $start, string $id, ?int $closeCode): void
    {
        if ($this->log !== null && $this->formatter !== null) {
            $end = \microtime(true);
            $remote = $this->proxies->isEmpty() ? $request->remoteAddress : $this->proxies->clientAddress($request->remoteAddress, $request->headers['x-forwarded-for'] ?? null);
            $this->log->write($this->formatter->format($request, $status, $bytes, (int) (($end - $start) * 1e6), $remote, $id, $start, $closeCode));
        }
    }
}
