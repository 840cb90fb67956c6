<?php

declare(strict_types=1);

namespace Spindle\Supervisor;

use Spindle\Metrics\Aggregator;
use Spindle\Metrics\Family;
use Spindle\Metrics\PrometheusText;

/**
 * What the master's `--metrics` listener answers: the Prometheus text on /metrics (the master's
 * own figures from its state, and the sum of what the workers report), and liveness and
 * readiness as the master sees them, over all its workers, on the health paths.
 */
final class MetricsEndpoint
{
    private readonly Aggregator $aggregator;

    public function __construct(
        private readonly MasterState $state,
        private readonly string $healthPath = '/healthz',
        private readonly string $readyPath = '/readyz',
    ) {
        $this->aggregator = new Aggregator();
    }

    /**
     * A worker's `metrics` message: its whole registry.
     *
     * @param list<Family> $families
     */
    public function report(int $pid, array $families): void
    {
        $this->aggregator->update($pid, $families);
    }

    /** The worker exited: what it counted stays in the sums. */
    public function exited(int $pid): void
    {
        $this->aggregator->retire($pid);
    }

    /** @return array{int, string, string} status, content type, body */
    public function respond(string $path, float $now): array
    {
        $status = $this->state->status($now);
        if ($path === '/metrics') {
            $families = \array_merge(StatusMetrics::families($status), $this->aggregator->families());

            return [200, PrometheusText::CONTENT_TYPE, PrometheusText::render($families)];
        }
        if ($path === $this->healthPath) {
            return [200, 'text/plain; charset=utf-8', "ok\n"];
        }
        if ($path === $this->readyPath) {
            return $status['ready'] === true
                ? [200, 'text/plain; charset=utf-8', "ready\n"]
                : [503, 'text/plain; charset=utf-8', \sprintf("not ready: %s, %d workers ready\n", $this->state->phase()->value, $this->state->readyWorkers())];
        }

        return [404, 'text/plain; charset=utf-8', "Not found: /metrics, {$this->healthPath} or {$this->readyPath}\n"];
    }
}
