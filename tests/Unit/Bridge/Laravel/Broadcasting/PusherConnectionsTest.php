<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Bridge\Laravel\Broadcasting;

use PHPUnit\Framework\TestCase;
use Spindle\Bridge\Laravel\Broadcasting\PusherConnections;
use Spindle\Bridge\Pusher\ClientEvents;

/** A `reverb` connection's app with the settings of its entry in config('reverb.apps.apps'), read as Reverb reads them. */
final class PusherConnectionsTest extends TestCase
{
    private const CONNECTIONS = ['reverb' => ['driver' => 'reverb', 'key' => 'k', 'secret' => 's', 'app_id' => 'id', 'options' => ['host' => '127.0.0.1']]];

    public function testReverbsAppSettings(): void
    {
        [$app] = PusherConnections::apps(self::CONNECTIONS, [[
            'key' => 'k', 'secret' => 's', 'app_id' => 'id',
            'allowed_origins' => ['app.example.com', '*.example.org'],
            'ping_interval' => '45', 'activity_timeout' => 20, 'max_connections' => '100',
            'max_message_size' => 5000, 'accept_client_events_from' => 'all',
        ]]);
        self::assertSame(['app.example.com', '*.example.org'], $app->allowedOrigins);
        self::assertSame(45, $app->pingInterval);
        self::assertSame(20, $app->activityTimeout);
        self::assertSame(100, $app->maxConnections);
        self::assertSame(5000, $app->maxMessageSize);
        self::assertSame(ClientEvents::All, $app->clientEvents);
    }

    public function testReverbsDefaultsAndTheirAbsence(): void
    {
        // config/reverb.php as published: every origin, no connection limit, client events from members.
        [$app] = PusherConnections::apps(self::CONNECTIONS, [[
            'key' => 'k', 'allowed_origins' => ['*'], 'ping_interval' => 60, 'activity_timeout' => 30,
            'max_connections' => null, 'max_message_size' => 10_000, 'accept_client_events_from' => 'members',
        ]]);
        self::assertNull($app->allowedOrigins);
        self::assertSame(60, $app->pingInterval);
        self::assertSame(0, $app->maxConnections);
        self::assertSame(ClientEvents::Members, $app->clientEvents);
        // An entry without accept_client_events_from accepts them from all (Reverb's reading); a
        // value that is neither turns them off.
        self::assertSame(ClientEvents::All, PusherConnections::apps(self::CONNECTIONS, [['key' => 'k']])[0]->clientEvents);
        self::assertSame(ClientEvents::None, PusherConnections::apps(self::CONNECTIONS, [['key' => 'k', 'accept_client_events_from' => 'nobody']])[0]->clientEvents);
        // No Reverb config at all: Pusher's own rules.
        [$app] = PusherConnections::apps(self::CONNECTIONS);
        self::assertSame(ClientEvents::Members, $app->clientEvents);
        self::assertSame(30, $app->pingInterval);
        self::assertSame(10_000, $app->maxMessageSize);
        self::assertNull($app->allowedOrigins);
    }
}
