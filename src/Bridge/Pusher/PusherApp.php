<?php

declare(strict_types=1);

namespace Spindle\Bridge\Pusher;

/**
 * One app of the Pusher protocol endpoint: the id, key and secret its clients and its HTTP API
 * senders use (a Laravel app's `reverb` or `pusher` broadcasting connection), and how its
 * connections behave.
 */
final class PusherApp
{
    public function __construct(
        public readonly string $id,
        public readonly string $key,
        public readonly string $secret,
        /** Seconds of silence after which a client pings (sent in pusher:connection_established). */
        public readonly int $activityTimeout = 30,
        /** Connections this app may hold on one worker (0: no limit); past it a client gets 4004. */
        public readonly int $maxConnections = 0,
        /** Client events (client-*) per connection and second before 4301 (0: no limit). */
        public readonly int $clientEventsPerSecond = 10,
        /** Seconds a client has to answer the server's pusher:ping before it is closed with 4201. */
        public readonly int $pongTimeout = 30,
        /** 32 bytes the app's encrypted channels' secrets derive from (EncryptedChannels), if it has them. */
        #[\SensitiveParameter]
        public readonly ?string $encryptionMasterKey = null,
    ) {
        if ($id === '' || $key === '' || $secret === '') {
            throw new \InvalidArgumentException('A Pusher app needs an id, a key and a secret');
        }
        if ($encryptionMasterKey !== null && \strlen($encryptionMasterKey) !== 32) {
            throw new \InvalidArgumentException('A Pusher app\'s encryption master key is 32 bytes');
        }
        if ($activityTimeout < 1 || $pongTimeout < 1 || $maxConnections < 0 || $clientEventsPerSecond < 0) {
            throw new \InvalidArgumentException('A Pusher app\'s activity and pong timeouts are at least 1 second, its limits 0 or more');
        }
    }
}
