<?php

declare(strict_types=1);

namespace Spindle\Bridge\Pusher;

use Spindle\Http\WebSocket\WebSocket;

/**
 * One app's channels on one worker: who is subscribed to which channel, and the members of its
 * presence channels. Sending reaches the connections of this worker only; PusherServer and its
 * Cluster make what happens here known to the other workers and hosts.
 */
final class Channels
{
    /** @var array<string, array<string, WebSocket>> channel => socket id => connection */
    private array $subscribers = [];
    /** @var array<string, array<string, Member>> presence channel => socket id => member */
    private array $members = [];

    /**
     * Adds $socket to $channel (again: nothing changes). Returns whether $member is a user the
     * presence channel did not have yet (member_added is due).
     */
    public function subscribe(string $channel, string $socketId, WebSocket $socket, ?Member $member = null): bool
    {
        $this->subscribers[$channel][$socketId] = $socket;
        if ($member === null) {
            return false;
        }
        $isNew = !$this->hasUser($channel, $member->userId, except: $socketId);
        $this->members[$channel][$socketId] = $member;

        return $isNew;
    }

    /**
     * Takes $socketId out of $channel. Returns the member whose last connection left a presence
     * channel (member_removed is due), or null.
     */
    public function unsubscribe(string $channel, string $socketId): ?Member
    {
        unset($this->subscribers[$channel][$socketId]);
        if (($this->subscribers[$channel] ?? []) === []) {
            unset($this->subscribers[$channel]);
        }
        $member = $this->members[$channel][$socketId] ?? null;
        if ($member === null) {
            return null;
        }
        unset($this->members[$channel][$socketId]);
        if ($this->members[$channel] === []) {
            unset($this->members[$channel]);
        }

        return $this->hasUser($channel, $member->userId) ? null : $member;
    }

    public function isSubscribed(string $channel, string $socketId): bool
    {
        return isset($this->subscribers[$channel][$socketId]);
    }

    /** The presence member $socketId joined $channel as, if any. */
    public function memberOf(string $channel, string $socketId): ?Member
    {
        return $this->members[$channel][$socketId] ?? null;
    }

    /** Sends $frame to every connection on $channel but $exceptSocketId; returns how many it went to. */
    public function send(string $channel, string $frame, ?string $exceptSocketId = null): int
    {
        $sent = 0;
        foreach ($this->subscribers[$channel] ?? [] as $socketId => $socket) {
            if ($socketId !== $exceptSocketId && $socket->send($frame)) {
                ++$sent;
            }
        }

        return $sent;
    }

    /** Connections subscribed to $channel. */
    public function subscriptionCount(string $channel): int
    {
        return \count($this->subscribers[$channel] ?? []);
    }

    /**
     * The distinct users of a presence channel, in the order they joined (a user's first
     * connection gives its info), with their ids as the auth gave them (an int stays an int, a
     * string a string).
     *
     * @return list<Member>
     */
    public function users(string $channel): array
    {
        $users = [];
        foreach ($this->members[$channel] ?? [] as $member) {
            $users['#' . $member->userId] ??= $member;
        }

        return \array_values($users);
    }

    /**
     * The channels with at least one connection, and how many each has.
     *
     * @return array<string, int>
     */
    public function occupied(): array
    {
        return \array_map('count', $this->subscribers);
    }

    /**
     * Every subscription of this worker, with its presence member (Cluster's `state` for a peer that starts later).
     *
     * @return array<string, array<string, ?Member>> channel => socket id => member
     */
    public function snapshot(): array
    {
        $snapshot = [];
        foreach ($this->subscribers as $channel => $sockets) {
            foreach ($sockets as $socketId => $_) {
                $snapshot[(string) $channel][(string) $socketId] = $this->members[$channel][$socketId] ?? null;
            }
        }

        return $snapshot;
    }

    private function hasUser(string $channel, string|int $userId, ?string $except = null): bool
    {
        foreach ($this->members[$channel] ?? [] as $socketId => $member) {
            if ($socketId !== $except && (string) $member->userId === (string) $userId) {
                return true;
            }
        }

        return false;
    }
}
