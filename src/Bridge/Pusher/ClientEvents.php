<?php

declare(strict_types=1);

namespace Spindle\Bridge\Pusher;

/** Who may send client events (`client-*`): an app's `accept_client_events_from`. */
enum ClientEvents: string
{
    /** Connections subscribed to the channel (presence events carry the sender's user_id). */
    case Members = 'members';
    /** Any connection of the app, subscribed to the channel or not. */
    case All = 'all';
    /** Nobody: every client event gets 4301. */
    case None = 'none';

    /** Reverb's reading of the setting: `members` or `all`, anything else turns client events off. */
    public static function fromSetting(mixed $value): self
    {
        return \is_string($value) ? (self::tryFrom(\strtolower($value)) ?? self::None) : self::None;
    }
}
