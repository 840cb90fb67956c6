<?php

declare(strict_types=1);

namespace Spindle\Supervisor;

use Spindle\Metrics\Family;
use Spindle\Metrics\MetricType;

/**
 * The master's own metrics, from its status (MasterState::status()): what the workers' last
 * reports said (in flight, connections, memory per worker), workers replaced by reason, reloads,
 * readiness.
 */
final class StatusMetrics
{
    private function __construct()
    {
    }

    /**
     * @param array<string, mixed> $status
     *
     * @return list<Family>
     */
    public static function families(array $status): array
    {
        $workers = \is_array($status['workers'] ?? null) ? $status['workers'] : [];
        $inflight = $connections = 0.0;
        $memory = [];
        $states = ['booting' => 0.0, 'ready' => 0.0, 'retiring' => 0.0, 'draining' => 0.0];
        foreach ($workers as $worker) {
            if (!\is_array($worker)) {
                continue;
            }
            $inflight += (float) ($worker['inflight'] ?? 0);
            $connections += (float) ($worker['connections'] ?? 0);
            $state = \is_string($worker['state'] ?? null) ? $worker['state'] : 'unknown';
            $states[$state] = ($states[$state] ?? 0.0) + 1;
            if ((int) ($worker['memory'] ?? 0) > 0) {
                $memory[\implode(Family::SEPARATOR, [(string) ($worker['pid'] ?? ''), (string) ($worker['generation'] ?? '')])] = (float) $worker['memory'];
            }
        }
        $replaced = [];
        foreach (['crash', 'timeout', 'boot-failure', 'max-requests', 'max-memory', 'ttl'] as $reason) {
            $replaced[$reason] = 0.0;
        }
        foreach (\is_array($status['replaced'] ?? null) ? $status['replaced'] : [] as $reason => $count) {
            $replaced[(string) $reason] = (float) $count;
        }
        $reloads = \is_array($status['reloads'] ?? null) ? $status['reloads'] : [];

        return [
            new Family('spindle_http_requests_in_flight', MetricType::Gauge, 'Requests in the app now, summed over the workers (as of their last report)', [], [], ['' => $inflight]),
            new Family('spindle_open_connections', MetricType::Gauge, 'Open client connections, summed over the workers (as of their last report)', [], [], ['' => $connections]),
            new Family('spindle_worker_memory_bytes', MetricType::Gauge, 'Memory of each worker (memory_get_usage(true))', ['pid', 'generation'], [], $memory),
            new Family('spindle_workers', MetricType::Gauge, 'Worker processes by state', ['state'], [], $states),
            new Family('spindle_worker_restarts_total', MetricType::Counter, 'Workers replaced, by reason', ['reason'], [], $replaced),
            new Family('spindle_reloads_total', MetricType::Counter, 'Graceful reloads, by result', ['result'], [], [
                'ok' => (float) ($reloads['ok'] ?? 0),
                'failed' => (float) ($reloads['failed'] ?? 0),
            ]),
            new Family('spindle_ready', MetricType::Gauge, '1 while some worker accepts and no stop began, else 0', [], [], ['' => ($status['ready'] ?? false) === true ? 1.0 : 0.0]),
            new Family('spindle_generation', MetricType::Gauge, 'The code generation serving (1, then one more per reload)', [], [], ['' => (float) ($status['generation'] ?? 0)]),
        ];
    }
}
