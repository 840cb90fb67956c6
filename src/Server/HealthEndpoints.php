<?php

declare(strict_types=1);

namespace Spindle\Server;

use Spindle\Http\Request;
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
final class HealthEndpoints
{
    /** @param \Closure(): bool $draining */
    public function __construct(
        private readonly ?string $healthPath,
        private readonly ?string $readyPath,
        private readonly \Closure $draining,
    ) {
    }

    /** $app with the health endpoints in front ($app itself when none is configured). */
    public function wrap(Application $app): Application
    {
        if ($this->healthPath === null && $this->readyPath === null) {
            return $app;
        }
        $handler = $app->handle(...);
        $health = $this->healthPath;
        $ready = $this->readyPath;
        $draining = $this->draining;

        return new ClosureApplication(static function (Request $request) use ($handler, $health, $ready, $draining): Response {
            $path = $request->path;
            if ($path === $health) {
                return self::answer(200, "ok\n");
            }
            if ($path === $ready) {
                return $draining() ? self::answer(503, "draining\n") : self::answer(200, "ready\n");
            }

            return $handler($request);
        });
    }

    private static function answer(int $status, string $body): Response
    {
        return new Response($status, ['Content-Type' => 'text/plain; charset=utf-8', 'Cache-Control' => 'no-store'], $body);
    }
}
