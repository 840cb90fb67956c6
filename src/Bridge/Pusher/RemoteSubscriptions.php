<?php

declare(strict_types=1);

namespace Spindle\Bridge\Pusher;

/**
 * What the other workers (and hosts) have subscribed, as their fan-out messages described it:
 * by origin (a peer process), app, channel and socket id, with the presence member each
 * connection joined as. Kept so that presence lists and channel counts cover every peer, and so
 * that a peer that is gone can be taken out at once. Data only: no sending here.
 */
final class RemoteSubscriptions
{
    /** @var array<string, array<string, array<string, array<string, ?Member>>>> origin => app id => channel => socket id => member */
    private array $byOrigin = [];

    public function add(string $origin, string $appId, string $channel, string $socketId, ?Member $member): void
    {
        $this->byOrigin[$origin][$appId][$channel][$socketId] = $member;
    }

    /**
     * Takes the subscription out; returns whether there was one and the member it had.
     *
     * @return array{bool, ?Member}
     */
    public function remove(string $origin, string $appId, string $channel, string $socketId): array
    {
        if (!\array_key_exists($socketId, $this->byOrigin[$origin][$appId][$channel] ?? [])) {
            return [false, null];
        }
        $member = $this->byOrigin[$origin][$appId][$channel][$socketId];
        unset($this->byOrigin[$origin][$appId][$channel][$socketId]);
        if ($this->byOrigin[$origin][$appId][$channel] === []) {
            unset($this->byOrigin[$origin][$appId][$channel]);
            if ($this->byOrigin[$origin][$appId] === []) {
                unset($this->byOrigin[$origin][$appId]);
                if ($this->byOrigin[$origin] === []) {
                    unset($this->byOrigin[$origin]);
                }
            }
        }

        return [true, $member];
    }

    /**
     * Replaces what $origin has by $state (null: it is gone).
     *
     * @param array<string, array<string, array<string, ?Member>>>|null $state app id => channel => socket id => member
     */
    public function replace(string $origin, ?array $state): void
    {
        unset($this->byOrigin[$origin]);
        if ($state !== null && $state !== []) {
            $this->byOrigin[$origin] = $state;
        }
    }

    /**
     * The channels $origin has subscriptions on.
     *
     * @return list<array{string, string}> app id and channel
     */
    public function channelsOf(string $origin): array
    {
        $channels = [];
        foreach ($this->byOrigin[$origin] ?? [] as $appId => $byChannel) {
            foreach ($byChannel as $channel => $_) {
                $channels[] = [(string) $appId, (string) $channel];
            }
        }

        return $channels;
    }

    public function count(string $appId, string $channel): int
    {
        $count = 0;
        foreach ($this->byOrigin as $apps) {
            $count += \count($apps[$appId][$channel] ?? []);
        }

        return $count;
    }

    /**
     * The members of a presence channel on the other peers (a user once per peer connection).
     *
     * @return list<Member>
     */
    public function members(string $appId, string $channel): array
    {
        $members = [];
        foreach ($this->byOrigin as $apps) {
            foreach ($apps[$appId][$channel] ?? [] as $member) {
                if ($member !== null) {
                    $members[] = $member;
                }
            }
        }

        return $members;
    }

    /** @return array<string, int> channel => subscriptions on the other peers */
    public function occupied(string $appId): array
    {
        $occupied = [];
        foreach ($this->byOrigin as $apps) {
            foreach ($apps[$appId] ?? [] as $channel => $sockets) {
                $occupied[(string) $channel] = ($occupied[(string) $channel] ?? 0) + \count($sockets);
            }
        }

        return $occupied;
    }

    /** @return list<string> the peers with subscriptions */
    public function origins(): array
    {
        return \array_map('strval', \array_keys($this->byOrigin));
    }
}
