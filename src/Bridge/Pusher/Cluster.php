<?php

declare(strict_types=1);

namespace Spindle\Bridge\Pusher;

use Revolt\EventLoop;
use Spindle\Server\Peers\PeerLink;

/**
 * The fan-out of a PusherServer to its peers (the other workers of the server, and other hosts
 * when the link goes through Redis), over a Server\Peers\PeerLink: what a worker's connections
 * do that others must see is announced as a small JSON message, and each peer applies it to its
 * own connections.
 *
 * - `send`: a frame for a channel's subscribers (a broadcast, an HTTP API event, a client event),
 *   but one socket id; each peer sends it to its own subscribers.
 * - `sub` / `unsub`: a connection joined or left a channel (with its presence member); each peer
 *   keeps them (RemoteSubscriptions) for channel counts and presence lists, and sends
 *   member_added / member_removed to its own subscribers when a user appears or vanishes across
 *   every peer.
 * - `hello`: a peer started; every peer answers with `state`, all its subscriptions (none
 *   too), so that a worker or host that starts later knows who is there.
 * - a peer gone (the link says so: its process exited, its heartbeats stopped): its subscriptions
 *   are taken out and its presence members that are nowhere else get member_removed. When a peer
 *   this worker does not know (any more) sends anything but `hello` or `state`, this worker sends
 *   `hello` again, so that a peer dropped during a Redis outage is learnt again.
 */
final class Cluster
{
    /**
     * Seconds after start during which this worker may not know every peer's members yet (their
     * answers to its hello are on the way): a presence subscription waits for the rest of it, so
     * that its member list is whole. Only with peers, and only once per worker.
     */
    public const SETTLE = 1.0;

    public readonly RemoteSubscriptions $remote;
    private readonly float $settledAt;
    /** @var array<string, true> the peers heard from since they were last gone */
    private array $known = [];
    /** @var array<string, array<string, int>> origin => app id => open connections (apps with max_connections only) */
    private array $connections = [];
    /** Messages from peers that were no fan-out message (ignored). */
    public int $malformed = 0;

    public function __construct(
        private readonly PeerLink $link,
        private readonly PusherServer $server,
    ) {
        $this->remote = new RemoteSubscriptions();
        $this->settledAt = \hrtime(true) / 1e9 + self::SETTLE;
        $link->listen($this->received(...), $this->gone(...));
        $this->announce(['t' => 'hello']);
    }

    /** Waits (suspending the calling fiber) until the peers' answers to this worker's hello had time to come. */
    public function settle(): void
    {
        $left = $this->settledAt - \hrtime(true) / 1e9;
        if ($left <= 0 || !$this->link->isConnected() || \Fiber::getCurrent() === null) {
            return;
        }
        $suspension = EventLoop::getSuspension();
        EventLoop::delay($left, static fn () => $suspension->resume());
        $suspension->suspend();
    }

    public function origin(): string
    {
        return $this->link->origin();
    }

    public function subscribed(PusherApp $app, string $channel, string $socketId, ?Member $member): void
    {
        $this->announce(['t' => 'sub', 'a' => $app->id, 'c' => $channel, 's' => $socketId, 'm' => self::member($member)]);
    }

    public function unsubscribed(PusherApp $app, string $channel, string $socketId): void
    {
        $this->announce(['t' => 'unsub', 'a' => $app->id, 'c' => $channel, 's' => $socketId]);
    }

    /** This worker now holds $count connections of $app (told only for apps with a max_connections). */
    public function connectionsChanged(PusherApp $app, int $count): void
    {
        if ($app->maxConnections > 0) {
            $this->announce(['t' => 'conns', 'a' => $app->id, 'n' => $count]);
        }
    }

    /** The connections of $app the other workers and hosts hold (apps with max_connections only). */
    public function remoteConnections(PusherApp $app): int
    {
        $count = 0;
        foreach ($this->connections as $apps) {
            $count += $apps[$app->id] ?? 0;
        }

        return $count;
    }

    public function sent(PusherApp $app, string $channel, string $frame, ?string $exceptSocketId): void
    {
        $this->announce(['t' => 'send', 'a' => $app->id, 'c' => $channel, 'f' => $frame, 'x' => $exceptSocketId]);
    }

    /** @param array<string, mixed> $message */
    private function announce(array $message): void
    {
        if ($this->link->isConnected()) {
            $this->link->send(Frames::json($message));
        }
    }

    private function received(string $origin, string $message): void
    {
        try {
            $decoded = \json_decode($message, true, 16, \JSON_THROW_ON_ERROR);
        } catch (\JsonException) {
            $decoded = null;
        }
        if (!\is_array($decoded) || !\is_string($decoded['t'] ?? null)) {
            ++$this->malformed;

            return;
        }
        if (!isset($this->known[$origin])) {
            $this->known[$origin] = true;
            if ($decoded['t'] !== 'hello' && $decoded['t'] !== 'state') {
                // A peer that was dropped (its heartbeats lapsed while Redis was away) is back:
                // what it holds is asked for again.
                $this->announce(['t' => 'hello']);
            }
        }
        $app = \is_string($decoded['a'] ?? null) ? $this->server->appById($decoded['a']) : null;
        $channel = \is_string($decoded['c'] ?? null) ? $decoded['c'] : '';
        $socketId = \is_string($decoded['s'] ?? null) ? $decoded['s'] : '';
        match ($decoded['t']) {
            'hello' => $this->answerHello(),
            'state' => $this->state($origin, \is_array($decoded['s'] ?? null) ? $decoded['s'] : []),
            'send' => $app !== null && \is_string($decoded['f'] ?? null)
                ? $this->server->channels($app)->send($channel, $decoded['f'], \is_string($decoded['x'] ?? null) ? $decoded['x'] : null)
                : ++$this->malformed,
            'sub' => $app !== null && $socketId !== ''
                ? $this->changed($app, [$channel], fn () => $this->remote->add($origin, $app->id, $channel, $socketId, self::toMember($decoded['m'] ?? null)))
                : ++$this->malformed,
            'conns' => $app !== null && \is_int($decoded['n'] ?? null)
                ? $this->connections[$origin][$app->id] = \max(0, $decoded['n'])
                : ++$this->malformed,
            'unsub' => $app !== null
                ? $this->changed($app, [$channel], fn () => $this->remote->remove($origin, $app->id, $channel, $socketId))
                : ++$this->malformed,
            default => ++$this->malformed,
        };
    }

    /** A peer is gone: its subscriptions with it. */
    private function gone(string $origin): void
    {
        unset($this->connections[$origin], $this->known[$origin]);
        $this->replaceOrigin($origin, null);
    }

    private function answerHello(): void
    {
        $state = [];
        foreach ($this->server->apps() as $app) {
            foreach ($this->server->channels($app)->snapshot() as $channel => $sockets) {
                foreach ($sockets as $socketId => $member) {
                    $state[$app->id][$channel][$socketId] = self::member($member);
                }
            }
        }
        // Answered even when empty: the newcomer then knows every live peer, and asks again only
        // for one it had dropped.
        $this->announce(['t' => 'state', 's' => (object) $state]);
        foreach ($this->server->apps() as $app) {
            if ($this->server->connectionCount($app) > 0) {
                $this->connectionsChanged($app, $this->server->connectionCount($app));
            }
        }
    }

    /** @param array<mixed> $state app id => channel => socket id => member */
    private function state(string $origin, array $state): void
    {
        $decoded = [];
        foreach ($state as $appId => $channels) {
            if ($this->server->appById((string) $appId) === null || !\is_array($channels)) {
                continue;
            }
            foreach ($channels as $channel => $sockets) {
                foreach (\is_array($sockets) ? $sockets : [] as $socketId => $member) {
                    $decoded[(string) $appId][(string) $channel][(string) $socketId] = self::toMember($member);
                }
            }
        }
        $this->replaceOrigin($origin, $decoded);
    }

    /** @param array<string, array<string, array<string, ?Member>>>|null $state */
    private function replaceOrigin(string $origin, ?array $state): void
    {
        $touched = [];
        foreach ([...$this->remote->channelsOf($origin), ...self::channelsIn($state ?? [])] as [$appId, $channel]) {
            $touched[$appId][$channel] = $channel;
        }
        $befores = [];
        foreach ($touched as $appId => $channels) {
            $app = $this->server->appById((string) $appId);
            if ($app !== null) {
                $befores[] = [$app, \array_values($channels), $this->presence($app, \array_values($channels))];
            }
        }
        $this->remote->replace($origin, $state);
        foreach ($befores as [$app, $channels, $before]) {
            $this->announceChanges($app, $before, $this->presence($app, $channels));
        }
    }

    /**
     * Applies $change to the remote subscriptions of $channels and tells this worker's
     * subscribers of the users that appeared or vanished.
     *
     * @param list<string> $channels
     */
    private function changed(PusherApp $app, array $channels, \Closure $change): void
    {
        $before = $this->presence($app, $channels);
        $change();
        $this->announceChanges($app, $before, $this->presence($app, $channels));
    }

    /**
     * @param list<string> $channels
     *
     * @return array<string, array<string, Member>> presence channel => user id => member
     */
    private function presence(PusherApp $app, array $channels): array
    {
        $users = [];
        foreach ($channels as $channel) {
            if (\str_starts_with($channel, 'presence-')) {
                $users[$channel] = [];
                foreach ($this->server->users($app, $channel) as $member) {
                    $users[$channel][(string) $member->userId] = $member;
                }
            }
        }

        return $users;
    }

    /**
     * @param array<string, array<string, Member>> $before
     * @param array<string, array<string, Member>> $after
     */
    private function announceChanges(PusherApp $app, array $before, array $after): void
    {
        $local = $this->server->channels($app);
        foreach ($after as $channel => $users) {
            foreach (\array_diff_key($before[$channel] ?? [], $users) as $member) {
                $local->send($channel, Frames::event('pusher_internal:member_removed', ['user_id' => $member->userId], $channel));
            }
            foreach (\array_diff_key($users, $before[$channel] ?? []) as $member) {
                $local->send($channel, Frames::event('pusher_internal:member_added', ['user_id' => $member->userId, 'user_info' => $member->userInfo], $channel));
            }
        }
    }

    /**
     * @param array<string, array<string, array<string, ?Member>>> $state
     *
     * @return list<array{string, string}>
     */
    private static function channelsIn(array $state): array
    {
        $channels = [];
        foreach ($state as $appId => $byChannel) {
            foreach ($byChannel as $channel => $_) {
                $channels[] = [(string) $appId, (string) $channel];
            }
        }

        return $channels;
    }

    /** @return array{string|int, mixed}|null */
    private static function member(?Member $member): ?array
    {
        return $member === null ? null : [$member->userId, $member->userInfo];
    }

    private static function toMember(mixed $value): ?Member
    {
        if (!\is_array($value) || !isset($value[0]) || (!\is_string($value[0]) && !\is_int($value[0]))) {
            return null;
        }

        return new Member($value[0], $value[1] ?? null);
    }
}
