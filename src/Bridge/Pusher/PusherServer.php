<?php

declare(strict_types=1);

namespace Spindle\Bridge\Pusher;

/**
 * The Pusher protocol apps a worker serves and their channels (one Channels per app): what the
 * WebSocket handler, the HTTP API and the in-process broadcaster share. One per worker, passed
 * to whatever needs it.
 */
final class PusherServer
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

    /** @param list<PusherApp> $apps */
    public function __construct(array $apps)
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
    }

    /** @internal PusherEndpoints: this process answers the apps' WebSockets. */
    public function serve(): void
    {
        $this->serving = true;
    }

    /** Whether clients can be connected to this process (false in a process that serves no HTTP, a task worker). */
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
     * Sends an event to the subscribers of $channels, but the connection $exceptSocketId. $data is
     * the event's data as it travels (a JSON text, as broadcasts carry it).
     *
     * @param list<string> $channels
     */
    public function publish(PusherApp $app, array $channels, string $event, string $data, ?string $exceptSocketId = null): int
    {
        $registry = $this->channels($app);
        $started = \hrtime(true);
        $sent = 0;
        foreach ($channels as $channel) {
            $sent += $registry->send($channel, Frames::event($event, $data, $channel), $exceptSocketId);
        }
        $this->broadcastTimes->record((\hrtime(true) - $started) / 1e9, $sent);

        return $sent;
    }

    /** Counts a new connection; false when the app is at its max_connections. */
    public function open(PusherApp $app): bool
    {
        if ($app->maxConnections > 0 && $this->connections[$app->id] >= $app->maxConnections) {
            return false;
        }
        ++$this->connections[$app->id];

        return true;
    }

    public function closed(PusherApp $app): void
    {
        $this->connections[$app->id] = \max(0, $this->connections[$app->id] - 1);
    }

    public function connectionCount(PusherApp $app): int
    {
        return $this->connections[$app->id];
    }
}
