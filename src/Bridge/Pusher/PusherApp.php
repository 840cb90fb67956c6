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
    /** Seconds of silence from a client after which the server sends it a pusher:ping. */
    public readonly int $pingInterval;

    /** @param list<string>|null $allowedOrigins */
    public function __construct(
        public readonly string $id,
        public readonly string $key,
        public readonly string $secret,
        /** Seconds of silence after which a client pings (sent in pusher:connection_established). */
        public readonly int $activityTimeout = 30,
        /** Connections this app may hold across every worker and host (0: no limit); past it a client gets 4004. */
        public readonly int $maxConnections = 0,
        /** Client events (client-*) per connection and second before 4301 (0: no limit). */
        public readonly int $clientEventsPerSecond = 10,
        /** Seconds a client has to answer the server's pusher:ping before it is closed with 4201. */
        public readonly int $pongTimeout = 30,
        /** 32 bytes the app's encrypted channels' secrets derive from (EncryptedChannels), if it has them. */
        #[\SensitiveParameter]
        public readonly ?string $encryptionMasterKey = null,
        /** Seconds of silence from a client after which the server sends it a pusher:ping (null: $activityTimeout). */
        ?int $pingInterval = null,
        /** Bytes a client's message may have (a longer one closes the connection with 1009). */
        public readonly int $maxMessageSize = 10_000,
        /**
         * Browser origins allowed to connect (OriginPolicy's forms: `app.example.com`,
         * `*.example.com`, `https://app.example.com`, `*`); a connection from another gets 4009.
         * Null: every origin.
         *
         * @var list<string>|null
         */
        public readonly ?array $allowedOrigins = null,
        /** Who may send client events. */
        public readonly ClientEvents $clientEvents = ClientEvents::Members,
    ) {
        $this->pingInterval = $pingInterval ?? $activityTimeout;
        if ($id === '' || $key === '' || $secret === '') {
            throw new \InvalidArgumentException('A Pusher app needs an id, a key and a secret');
        }
        if ($encryptionMasterKey !== null && \strlen($encryptionMasterKey) !== 32) {
            throw new \InvalidArgumentException('A Pusher app\'s encryption master key is 32 bytes');
        }
        if ($activityTimeout < 1 || $pongTimeout < 1 || $this->pingInterval < 1 || $maxConnections < 0 || $clientEventsPerSecond < 0) {
            throw new \InvalidArgumentException('A Pusher app\'s activity timeout, ping interval and pong timeout are at least 1 second, its limits 0 or more');
        }
        if ($maxMessageSize < 1) {
            throw new \InvalidArgumentException('A Pusher app\'s max_message_size is at least 1 byte');
        }
    }
}
