<?php

declare(strict_types=1);

namespace Spindle\Bridge\Pusher;

use Spindle\Metrics\Family;
use Spindle\Metrics\MetricType;

/**
 * The Pusher protocol's families of `--metrics`, per app id, read from a worker's PusherServer when
 * the worker reports (summed over the workers by the master): connections, occupied channels,
 * subscriptions, and the time a broadcast took to reach the worker's subscribers. The server is
 * held weakly.
 */
final class PusherMetrics
{
    private function __construct()
    {
    }

    public static function export(PusherServer $server): void
    {
        $reference = \WeakReference::create($server);
        \Spindle\metrics()->collectWith('spindle_pusher', static function () use ($reference): array {
            $server = $reference->get();

            return $server === null ? [] : self::families($server);
        });
    }

    /** @return list<Family> */
    public static function families(PusherServer $server): array
    {
        $connections = $channels = $subscriptions = [];
        foreach ($server->apps() as $app) {
            $occupied = $server->channels($app)->occupied();
            $connections[$app->id] = (float) $server->connectionCount($app);
            $channels[$app->id] = (float) \count($occupied);
            $subscriptions[$app->id] = (float) \array_sum($occupied);
        }
        $times = $server->broadcastTimes;

        return [
            new Family('spindle_pusher_connections', MetricType::Gauge, 'Open Pusher protocol connections, by app id', ['app'], [], $connections),
            new Family('spindle_pusher_channels', MetricType::Gauge, 'Channels with at least one subscriber, by app id (per worker, summed: a channel on two workers counts twice)', ['app'], [], $channels),
            new Family('spindle_pusher_subscriptions', MetricType::Gauge, 'Channel subscriptions of the open connections, by app id', ['app'], [], $subscriptions),
            new Family('spindle_pusher_broadcast_seconds', MetricType::Histogram, 'Time a broadcast took to be written to (or queued for) every subscriber of a worker', [], BroadcastTimes::BUCKETS, [
                '' => [\array_map('floatval', $times->counts), $times->sum, (float) $times->broadcasts],
            ]),
            new Family('spindle_pusher_broadcast_deliveries_total', MetricType::Counter, 'Broadcast events written to (or queued for) subscribers', [], [], ['' => (float) $times->deliveries]),
        ];
    }
}
