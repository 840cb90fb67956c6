<?php

declare(strict_types=1);

namespace Spindle\Bridge\Metrics;

use Spindle\Database\Pool\ConnectionPool;
use Spindle\Metrics\Family;
use Spindle\Metrics\MetricType;
use Spindle\Metrics\Registry;

/**
 * Shows a pool's figures on `--metrics`, read from its stats() whenever the worker reports:
 *
 *     spindle_mysql_pool_connections{pool,state}   open connections, "idle" or "busy" (lent out)
 *     spindle_mysql_pool_max_connections{pool}     the pool's maxSize
 *     spindle_mysql_pool_waiting{pool}             fibers waiting for a connection now
 *     spindle_mysql_pool_waits_total{pool}         acquire() calls that had to wait
 *
 * summed over the workers by the master. The pool is held weakly: once it is gone, so are its
 * figures.
 *
 *     $pool = new ConnectionPool(fn () => SocketConnection::connect($config), maxSize: 10);
 *     PoolMetrics::export($pool, 'main');
 */
final class PoolMetrics
{
    private function __construct()
    {
    }

    public static function export(ConnectionPool $pool, string $name = 'default', ?Registry $registry = null): void
    {
        $registry ??= \Spindle\metrics();
        $reference = \WeakReference::create($pool);
        $key = 'spindle_mysql_pool:' . $name;
        $registry->collectWith($key, static function () use ($reference, $name): array {
            $pool = $reference->get();
            if ($pool === null) {
                return [];
            }
            $stats = $pool->stats();
            $idle = $name . Family::SEPARATOR . 'idle';
            $busy = $name . Family::SEPARATOR . 'busy';

            return [
                new Family('spindle_mysql_pool_connections', MetricType::Gauge, 'Open connections of a MySQL pool, idle or busy (lent out, opening or being cleaned up)', ['pool', 'state'], [], [$idle => (float) $stats->idle, $busy => (float) $stats->inUse]),
                new Family('spindle_mysql_pool_max_connections', MetricType::Gauge, 'The most connections a MySQL pool holds', ['pool'], [], [$name => (float) $stats->maxSize]),
                new Family('spindle_mysql_pool_waiting', MetricType::Gauge, 'Requests waiting for a connection of a MySQL pool now', ['pool'], [], [$name => (float) $stats->waiting]),
                new Family('spindle_mysql_pool_waits_total', MetricType::Counter, 'Times a request had to wait for a connection of a MySQL pool', ['pool'], [], [$name => (float) $stats->waits]),
            ];
        });
    }
}
