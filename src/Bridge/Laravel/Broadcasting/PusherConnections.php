<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel\Broadcasting;

use Spindle\Bridge\Pusher\PusherApp;
use Spindle\Bridge\Pusher\PusherServer;
use Spindle\Loop\Loop;

/**
 * The broadcasting connections of a Laravel app that Spindle serves itself: every `reverb`
 * connection, and every `pusher` connection whose host is not Pusher's own service (*.pusher.com,
 * *.pusherapp.com), that has a key, a secret and an app_id. SPINDLE_PUSHER=0 turns this off.
 */
final class PusherConnections
{
    /**
     * @param mixed $connections config('broadcasting.connections')
     *
     * @return list<PusherApp>
     */
    public static function apps(mixed $connections): array
    {
        $apps = [];
        foreach (\is_array($connections) ? $connections : [] as $config) {
            if (\is_array($config) && self::isServed($config)) {
                $apps[(string) $config['key']] ??= new PusherApp(self::string($config['app_id']), self::string($config['key']), self::string($config['secret']));
            }
        }

        return \array_values($apps);
    }

    /**
     * The worker's PusherServer for these connections, made on first use (by the routes in
     * front of the app or by the broadcaster, whichever comes first: every instance of the app
     * has the same config).
     */
    public static function server(mixed $connections): PusherServer
    {
        return Loop::driver()->service(PusherServer::class, static fn (): PusherServer => new PusherServer(self::apps($connections)));
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

    private static function string(mixed $value): string
    {
        return \is_string($value) || \is_int($value) ? (string) $value : '';
    }
}
