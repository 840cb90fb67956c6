<?php

declare(strict_types=1);

namespace Spindle\Bridge\Peers;

use Spindle\Bridge\BridgeServices;
use Spindle\Redis\RedisClient;
use Spindle\Redis\RedisConfig;
use Spindle\Server\Peers\NoPeers;
use Spindle\Server\Peers\PeerLink;
use Spindle\Server\WorkerServices;

/** The PeerLink a worker's Pusher server fans out over: the master's relay (every worker of the host), or Redis (every host). */
final class PeerLinks
{
    /** The worker's link to the other workers of its host (the master's relay), or none outside `spindle serve`. */
    public static function host(): PeerLink
    {
        return WorkerServices::current()->peers();
    }

    /**
     * The link to every worker of every host through the Redis server $redis (a URL, or
     * Laravel's connection keys: url, host, port, username, password, database, timeout),
     * publishing on $channel. One per worker and channel.
     *
     * @param string|array<string, mixed> $redis
     */
    public static function redis(string|array $redis, string $channel, float $heartbeat = 2.0): PeerLink
    {
        $config = \is_string($redis) ? RedisConfig::fromUrl($redis) : RedisConfig::fromArray($redis);

        $services = WorkerServices::current();
        $host = $services->peers();
        $link = BridgeServices::of($services)->redisPeers($channel, static fn (): RedisPeerLink => new RedisPeerLink(new RedisClient($config), $channel, $host, $heartbeat));
        if ($host instanceof NoPeers) {
            // No relay to close it when the worker stops: the worker closes this one instead.
            $services->usePeers($link);
        }

        return $link;
    }
}
