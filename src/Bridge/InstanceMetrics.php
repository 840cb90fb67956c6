<?php

declare(strict_types=1);

namespace Spindle\Bridge;

use Spindle\Metrics\Family;
use Spindle\Metrics\MetricType;
use Spindle\Metrics\Registry;

/**
 * Shows a worker's app instances on `--metrics`, read whenever the worker reports:
 *
 *     spindle_app_instances{state}   booted app instances, "idle" or "busy" (lent to a request)
 *
 * summed over the workers by the master. The pool is held weakly.
 */
final class InstanceMetrics
{
    private function __construct()
    {
    }

    public static function export(InstanceCounts $pool, Registry $metrics): void
    {
        $reference = \WeakReference::create($pool);
        $metrics->collectWith('spindle_app_instances', static function () use ($reference): array {
            $pool = $reference->get();
            if ($pool === null) {
                return [];
            }

            return [
                new Family('spindle_app_instances', MetricType::Gauge, 'Booted app instances of the workers, idle or busy (lent to a request)', ['state'], [], [
                    'idle' => (float) $pool->idle(),
                    'busy' => (float) ($pool->size() - $pool->idle()),
                ]),
            ];
        });
    }
}
