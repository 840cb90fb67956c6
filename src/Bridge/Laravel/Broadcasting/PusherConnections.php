<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel\Broadcasting;

use Spindle\Bridge\Peers\PeerLinks;
use Spindle\Bridge\Pusher\ClientEvents;
use Spindle\Bridge\Pusher\PusherApp;
use Spindle\Bridge\Pusher\PusherServer;
use Spindle\Bridge\BridgeServices;
use Spindle\Bridge\WorkerEnvironment;
use Spindle\Server\Peers\PeerLink;

/**
 * The broadcasting connections of a Laravel app that Spindle serves itself: every `reverb`
 * connection, and every `pusher` connection whose host is not Pusher's own service (*.pusher.com,
 * *.pusherapp.com), that has a key, a secret and an app_id. SPINDLE_PUSHER=0 turns this off.
 * When the app also has Reverb's config/reverb.php, the entry of `reverb.apps.apps` with the same
 * key gives its `activity_timeout`, `ping_interval`, `max_connections`, `max_message_size`,
 * `allowed_origins` and `accept_client_events_from`, read as Reverb reads them.
 */
final class PusherConnections
{
    /**
     * @param mixed $connections config('broadcasting.connections')
     * @param mixed $reverbApps config('reverb.apps.apps'), if the app has it
     *
     * @return list<PusherApp>
     */
    public static function apps(mixed $connections, mixed $reverbApps = null): array
    {
        $settings = [];
        foreach (\is_array($reverbApps) ? $reverbApps : [] as $reverb) {
            if (\is_array($reverb) && self::string($reverb['key'] ?? null) !== '') {
                $settings[self::string($reverb['key'])] = $reverb;
            }
        }
        $apps = [];
        foreach (\is_array($connections) ? $connections : [] as $config) {
            if (!\is_array($config) || !self::isServed($config)) {
                continue;
            }
            $key = self::string($config['key']);
            $reverb = $settings[$key] ?? [];
            $origins = $reverb['allowed_origins'] ?? null;
            $origins = \is_array($origins) ? \array_values(\array_map('strval', \array_filter($origins, 'is_string'))) : null;
            $apps[$key] ??= new PusherApp(
                self::string($config['app_id']),
                $key,
                self::string($config['secret']),
                activityTimeout: self::positive($reverb['activity_timeout'] ?? null) ?? 30,
                maxConnections: self::positive($reverb['max_connections'] ?? null) ?? 0,
                encryptionMasterKey: self::masterKey($config),
                pingInterval: self::positive($reverb['ping_interval'] ?? null),
                maxMessageSize: self::positive($reverb['max_message_size'] ?? null) ?? 10_000,
                allowedOrigins: $origins === null || \in_array('*', $origins, true) ? null : $origins,
                // As Reverb reads it: missing from an app of config/reverb.php means all.
                clientEvents: $reverb === [] ? ClientEvents::Members : ClientEvents::fromSetting($reverb['accept_client_events_from'] ?? 'all'),
            );
        }

        return \array_values($apps);
    }

    /**
     * The worker's PusherServer for these connections, made on first use (by the routes in
     * front of the app or by the broadcaster, whichever comes first: every instance of the app
     * has the same config). It fans out to the other workers of the host, and to every host
     * through Redis when $scaling (config('reverb.servers.reverb.scaling')) is enabled or
     * SPINDLE_PUSHER_REDIS gives a Redis URL.
     */
    public static function server(mixed $connections, mixed $reverbApps = null, mixed $scaling = null): PusherServer
    {
        return BridgeServices::current()->pusherServer(static fn (): PusherServer => new PusherServer(self::apps($connections, $reverbApps), self::peers($scaling)));
    }

    /** The Redis link $scaling or SPINDLE_PUSHER_REDIS asks for; null: the host's own (the master's relay). */
    public static function peers(mixed $scaling): ?PeerLink
    {
        $url = WorkerEnvironment::value('SPINDLE_PUSHER_REDIS');
        $channel = \is_array($scaling) ? self::string($scaling['channel'] ?? null) : '';
        $channel = ($channel !== '' ? $channel : 'reverb') . ':spindle';
        if (\is_string($url) && $url !== '') {
            return PeerLinks::redis($url, $channel);
        }
        if (!\is_array($scaling) || !\filter_var($scaling['enabled'] ?? false, \FILTER_VALIDATE_BOOL)) {
            return null;
        }
        $server = \is_array($scaling['server'] ?? null) ? $scaling['server'] : [];
        $options = [];
        foreach ($server as $name => $value) {
            if ($value !== null && $value !== '') {
                $options[(string) $name] = $value;
            }
        }

        return PeerLinks::redis($options, $channel);
    }

    /** @param array<mixed> $config one broadcasting connection */
    public static function isServed(array $config): bool
    {
        $driver = $config['driver'] ?? null;
        if ($driver !== 'reverb' && $driver !== 'pusher') {
            return false;
        }
        foreach (['key', 'secret', 'app_id'] as $name) {
            if (self::string($config[$name] ?? null) === '') {
                return false;
            }
        }
        $options = \is_array($config['options'] ?? null) ? $config['options'] : [];
        $host = \strtolower(self::string($options['host'] ?? null));
        if ($driver === 'pusher' && ($host === '' || \str_ends_with($host, '.pusher.com') || \str_ends_with($host, '.pusherapp.com'))) {
            return false;
        }

        return true;
    }

    /**
     * `options.encryption_master_key_base64` of the connection (as Laravel's Pusher driver reads
     * it), decoded; null without one.
     *
     * @param array<mixed> $config
     */
    private static function masterKey(array $config): ?string
    {
        $options = \is_array($config['options'] ?? null) ? $config['options'] : [];
        $encoded = self::string($options['encryption_master_key_base64'] ?? null);
        if ($encoded === '') {
            return null;
        }
        $key = \base64_decode($encoded, true);
        if ($key === false || \strlen($key) !== 32) {
            throw new \InvalidArgumentException('broadcasting: encryption_master_key_base64 must be 32 bytes in base64');
        }

        return $key;
    }

    private static function positive(mixed $value): ?int
    {
        $number = \filter_var($value, \FILTER_VALIDATE_INT);

        return \is_int($number) && $number > 0 ? $number : null;
    }

    private static function string(mixed $value): string
    {
        return \is_string($value) || \is_int($value) ? (string) $value : '';
    }
}
