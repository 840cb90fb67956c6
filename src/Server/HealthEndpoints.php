<?php

declare(strict_types=1);

namespace Spindle\Server;

use Spindle\Http\Middleware;
use Spindle\Http\Request;
use Spindle\Http\RequestHandler;
use Spindle\Http\Response;

/**
 * `--health-path` and `--ready-path`, answered by the worker before the app sees the request
 * (and before the access log and the metrics: probes would drown the real traffic).
 *
 * Liveness is 200 while the worker serves. Readiness is 200 too, and 503 once the worker
 * drains (a graceful stop or reload began), so a load balancer that keeps a connection open to
 * this worker stops sending before the drain ends. The master's view over all its workers is on
 * the `--metrics` listener and in `status --json`.
 */
final class HealthEndpoints implements Middleware
{
    /** @param \Closure(): bool $draining */
    public function __construct(
        private readonly ?string $healthPath,
        private readonly ?string $readyPath,
        private readonly \Closure $draining,
    ) {
    }

    /**
     * The health endpoints when either path is configured, else null (nothing to put in front).
     *
     * @param \Closure(): bool $draining
     */
    public static function of(?string $healthPath, ?string $readyPath, \Closure $draining): ?self
    {
        return $healthPath === null && $readyPath === null ? null : new self($healthPath, $readyPath, $draining);
    }

    public function process(Request $request, RequestHandler $next): Response
    {
        $path = $request->path;
        if ($path === $this->healthPath) {
            return self::answer(200, "ok\n");
        }
        if ($path === $this->readyPath) {
            return ($this->draining)() ? self::answer(503, "draining\n") : self::answer(200, "ready\n");
        }

        return $next->handle($request);
    }

    private static function answer(int $status, string $body): Response
    {
        return new Response($status, ['Content-Type' => 'text/plain; charset=utf-8', 'Cache-Control' => 'no-store'], $body);
    }
}
