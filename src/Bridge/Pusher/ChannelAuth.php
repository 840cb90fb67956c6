<?php

declare(strict_types=1);

namespace Spindle\Bridge\Pusher;

/**
 * The signature that lets a socket into a private or presence channel: `key:HMAC-SHA256(secret,
 * "socket_id:channel[:channel_data]")`, in hex. The app's /broadcasting/auth answers it; the
 * server checks it on pusher:subscribe.
 */
final class ChannelAuth
{
    public static function sign(PusherApp $app, string $socketId, string $channel, ?string $channelData = null): string
    {
        $subject = $socketId . ':' . $channel . ($channelData !== null ? ':' . $channelData : '');

        return $app->key . ':' . \hash_hmac('sha256', $subject, $app->secret);
    }

    public static function verify(PusherApp $app, string $auth, string $socketId, string $channel, ?string $channelData = null): bool
    {
        return \hash_equals(self::sign($app, $socketId, $channel, $channelData), $auth);
    }

    /** Whether $socketId has the shape the protocol gives socket ids (two whole numbers and a dot). */
    public static function isSocketId(string $socketId): bool
    {
        return \preg_match('/\A\d+\.\d+\z/', $socketId) === 1;
    }
}
