<?php

declare(strict_types=1);

namespace Spindle\Bridge\Pusher;

use Spindle\Bridge\Peers\PeerLinks;
use Spindle\Http\WebSocket\WebSocket;
use Spindle\Server\Peers\PeerLink;

/**
 * The Pusher protocol apps a worker serves and their channels (one Channels per app): what the
 * WebSocket handler, the HTTP API and the in-process broadcaster share. One per worker, passed
 * to whatever needs it.
 *
 * What its connections do reaches the other workers of the server (and other hosts, with a link
 * through Redis) through its Cluster: broadcasts and client events go to every subscriber,
 * presence lists and channel counts cover every peer.
 */
final class PusherServer implements Publisher
{
    /** @var array<string, PusherApp> key => app */
    private array $byKey = [];
    /** @var array<string, PusherApp> id => app */
    private array $byId = [];
    /** @var array<string, Channels> app id => its channels */
    private array $channels = [];
    /** @var array<string, int> app id => open connections */
    private array $connections = [];
    /** Pings silent connections and closes those that do not answer. */
    public readonly ActivityMonitor $activity;
    /** Whether this process accepts the apps' connections (PusherEndpoints in front of its HTTP handler). */
    private bool $serving = false;
    /** How long broadcasts took to reach this worker's subscribers (for --metrics: PusherMetrics). */
    public readonly BroadcastTimes $broadcastTimes;

    /** The fan-out to the other workers and hosts. */
    public readonly Cluster $cluster;

    /**
     * @param list<PusherApp> $apps
     * @param PeerLink|null $peers the link to the other workers (null: the master's relay to
     *                             the workers of this host under `spindle serve`, none
     *                             elsewhere; PeerLinks::redis() for every host)
     */
    public function __construct(array $apps, ?PeerLink $peers = null)
    {
        $this->activity = new ActivityMonitor();
        $this->broadcastTimes = new BroadcastTimes();
        PusherMetrics::export($this);
        foreach ($apps as $app) {
            $this->byKey[$app->key] = $app;
            $this->byId[$app->id] = $app;
            $this->channels[$app->id] = new Channels();
            $this->connections[$app->id] = 0;
        }
        $this->cluster = new Cluster($peers ?? PeerLinks::host(), $this);
    }

    /** @internal PusherEndpoints: this process answers the apps' WebSockets. */
    public function serve(): void
    {
        $this->serving = true;
    }

    /** Whether clients can be connected to this process (false in a process that serves no HTTP). */
    public function isServing(): bool
    {
        return $this->serving;
    }

    public function appByKey(string $key): ?PusherApp
    {
        return $this->byKey[$key] ?? null;
    }

    public function appById(string $id): ?PusherApp
    {
        return $this->byId[$id] ?? null;
    }

    /** @return list<PusherApp> */
    public function apps(): array
    {
        return \array_values($this->byId);
    }

    public function channels(PusherApp $app): Channels
    {
        return $this->channels[$app->id] ?? throw new \LogicException('Not an app of this server: ' . $app->id);
    }

    /**
     * Sends an event to the subscribers of $channels, on every worker and host, but the
     * connection $exceptSocketId. $data is the event's data as it travels (a JSON text, as
     * broadcasts carry it).
     *
     * @param list<string> $channels
     */
    public function publish(PusherApp $app, array $channels, string $event, string $data, ?string $exceptSocketId = null): int
    {
        $started = \hrtime(true);
        $sent = 0;
        foreach ($channels as $channel) {
            $sent += $this->send($app, $channel, Frames::event($event, $data, $channel), $exceptSocketId);
        }
        $this->broadcastTimes->record((\hrtime(true) - $started) / 1e9, $sent);

        return $sent;
    }

    /**
     * Sends $frame to every subscriber of $channel, on every worker and host, but $exceptSocketId.
     * Returns how many of this worker's connections it went to.
     */
    public function send(PusherApp $app, string $channel, string $frame, ?string $exceptSocketId = null): int
    {
        $this->cluster->sent($app, $channel, $frame, $exceptSocketId);

        return $this->channels($app)->send($channel, $frame, $exceptSocketId);
    }

    /**
     * Subscribes this worker's connection $socketId to $channel, and tells the peers. Returns
     * whether $member is a user the presence channel had nowhere yet (member_added is due).
     */
    public function subscribe(PusherApp $app, string $channel, string $socketId, WebSocket $socket, ?Member $member): bool
    {
        $isNew = $member !== null && !$this->hasRemoteUser($app, $channel, $member->userId);
        $isNew = $this->channels($app)->subscribe($channel, $socketId, $socket, $member) && $isNew;
        $this->cluster->subscribed($app, $channel, $socketId, $member);

        return $isNew;
    }

    /**
     * Takes $socketId out of $channel, and tells the peers. Returns the member whose last
     * connection anywhere left a presence channel (member_removed is due), or null.
     */
    public function unsubscribe(PusherApp $app, string $channel, string $socketId): ?Member
    {
        $left = $this->channels($app)->unsubscribe($channel, $socketId);
        $this->cluster->unsubscribed($app, $channel, $socketId);

        return $left !== null && !$this->hasRemoteUser($app, $channel, $left->userId) ? $left : null;
    }

    /**
     * The distinct users of a presence channel on every worker and host: this worker's first, in
     * the order they joined, then the others'.
     *
     * @return list<Member>
     */
    public function users(PusherApp $app, string $channel): array
    {
        $users = [];
        foreach ([...$this->channels($app)->users($channel), ...$this->cluster->remote->members($app->id, $channel)] as $member) {
            $users['#' . $member->userId] ??= $member;
        }

        return \array_values($users);
    }

    /** Connections subscribed to $channel on every worker and host. */
    public function subscriptionCount(PusherApp $app, string $channel): int
    {
        return $this->channels($app)->subscriptionCount($channel) + $this->cluster->remote->count($app->id, $channel);
    }

    /**
     * The channels with at least one connection on some worker or host, and how many each has.
     *
     * @return array<string, int>
     */
    public function occupied(PusherApp $app): array
    {
        $occupied = $this->channels($app)->occupied();
        foreach ($this->cluster->remote->occupied($app->id) as $channel => $count) {
            $occupied[$channel] = ($occupied[$channel] ?? 0) + $count;
        }

        return $occupied;
    }

    private function hasRemoteUser(PusherApp $app, string $channel, string|int $userId): bool
    {
        foreach ($this->cluster->remote->members($app->id, $channel) as $member) {
            if ((string) $member->userId === (string) $userId) {
                return true;
            }
        }

        return false;
    }

    /** Counts a new connection; false when the app is at its max_connections, counted over every worker and host. */
    public function open(PusherApp $app): bool
    {
        if ($app->maxConnections > 0 && $this->connections[$app->id] + $this->cluster->remoteConnections($app) >= $app->maxConnections) {
            return false;
        }
        ++$this->connections[$app->id];
        $this->cluster->connectionsChanged($app, $this->connections[$app->id]);

        return true;
    }

    public function closed(PusherApp $app): void
    {
        $this->connections[$app->id] = \max(0, $this->connections[$app->id] - 1);
        $this->cluster->connectionsChanged($app, $this->connections[$app->id]);
    }

    /** The connections of $app on this worker. */
    public function connectionCount(PusherApp $app): int
    {
        return $this->connections[$app->id];
    }
}
