<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Bridge\Pusher\ChannelAuth;
use Spindle\Bridge\Pusher\PusherApp;
use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\ServerProcess;
use Spindle\Tests\Support\Pusher\PusherTestClient;

/**
 * An app's Reverb settings as `spindle serve` applies them (tests/fixtures/apps/pusher.php, their
 * PUSHER_* variables): allowed_origins (4009 "Origin not allowed" to another origin),
 * max_message_size (1009 past it), ping_interval (the server's pusher:ping after that much
 * silence), accept_client_events_from (`all`: no subscription needed; anything but `members`
 * and `all`: 4301), max_connections counted over both workers (4004).
 */
final class PusherAppSettingsTest extends E2ETestCase
{
    /** @var array<int, string> client object id => socket id */
    private static array $socketIds = [];

    private static function app(): PusherApp
    {
        return new PusherApp('1', 'app-key', 'app-secret');
    }

    public function testOriginsMessageSizePingIntervalClientEventsAndConnectionsOverWorkers(): void
    {
        $server = ServerProcess::startThrough([
            'env', 'PUSHER_ALLOWED_ORIGINS=app.example.com,*.example.org', 'PUSHER_MAX_MESSAGE_SIZE=200', 'PUSHER_PING_INTERVAL=1',
            'PUSHER_CLIENT_EVENTS=all', 'PUSHER_MAX_CONNECTIONS=3',
        ], ServerProcess::fixture('pusher.php'), ['--workers=2']);
        try {
            $port = $server->port();
            $refused = PusherTestClient::connect($port, headers: ['Origin' => 'https://evil.example.com']);
            self::assertSame(['event' => 'pusher:error', 'data' => '{"code":4009,"message":"Origin not allowed"}'], $refused->next());
            self::assertSame(4009, $refused->waitForClose());
            $refused = PusherTestClient::connect($port, headers: ['Origin' => 'https://example.org']);
            self::assertSame(4009, $refused->waitForClose());

            $a = PusherTestClient::connect($port, headers: ['Origin' => 'https://app.example.com']);
            $aId = $a->established();
            $b = PusherTestClient::connect($port, headers: ['Origin' => 'http://eu.cdn.example.org:8080']);
            self::$socketIds[\spl_object_id($a)] = $aId;
            self::$socketIds[\spl_object_id($b)] = $b->established();
            // A native client sends no Origin: allowed.
            $c = PusherTestClient::connect($port);
            self::$socketIds[\spl_object_id($c)] = $c->established();

            // Three connections over the two workers: a fourth gets 4004 on either worker.
            self::synced([$a, $b, $c]);
            for ($i = 0; $i < 3; ++$i) {
                $over = PusherTestClient::connect($port);
                self::assertSame(['event' => 'pusher:error', 'data' => '{"code":4004,"message":"Application is over connection quota"}'], $over->next());
                self::assertSame(4004, $over->waitForClose());
            }

            // accept_client_events_from=all: $c, not subscribed, whispers to $a's private channel.
            $a->send(['event' => 'pusher:subscribe', 'data' => ['channel' => 'private-room', 'auth' => ChannelAuth::sign(self::app(), $aId, 'private-room')]]);
            self::assertSame('pusher_internal:subscription_succeeded', $a->next()['event'] ?? null);
            $c->send(['event' => 'client-knock', 'channel' => 'private-room', 'data' => ['n' => 1]]);
            self::assertSame(['event' => 'client-knock', 'channel' => 'private-room', 'data' => ['n' => 1]], $a->next());

            // max_message_size=200: 200 bytes pass, 201 close the connection with 1009.
            $a->send(['event' => 'pusher:ping', 'data' => \str_repeat('x', 200 - \strlen('{"event":"pusher:ping","data":""}'))]);
            self::assertSame(['event' => 'pusher:pong'], $a->next());
            $a->sendRaw(\json_encode(['event' => 'pusher:ping', 'data' => \str_repeat('x', 201 - \strlen('{"event":"pusher:ping","data":""}'))], \JSON_THROW_ON_ERROR));
            self::assertSame(1009, $a->waitForClose());

            // ping_interval=1: a silent client is pinged after a second.
            $started = \microtime(true);
            self::assertSame(['event' => 'pusher:ping'], $b->next(3.0));
            self::assertGreaterThanOrEqual(0.9, \microtime(true) - $started);
            $b->close();
            $c->close();
        } finally {
            $server->stop();
        }

        $server = ServerProcess::startThrough(['env', 'PUSHER_CLIENT_EVENTS=none'], ServerProcess::fixture('pusher.php'), ['--workers=1']);
        try {
            $a = PusherTestClient::connect($server->port());
            $aId = $a->established();
            $a->send(['event' => 'pusher:subscribe', 'data' => ['channel' => 'private-room', 'auth' => ChannelAuth::sign(self::app(), $aId, 'private-room')]]);
            self::assertSame('pusher_internal:subscription_succeeded', $a->next()['event'] ?? null);
            $a->send(['event' => 'client-knock', 'channel' => 'private-room', 'data' => []]);
            self::assertSame(['event' => 'pusher:error', 'data' => '{"code":4301,"message":"The app does not have client messaging enabled."}'], $a->next());
            $a->close();
        } finally {
            $server->stop();
        }
    }

    /**
     * Waits until each client's worker has told the other worker what it holds: every client
     * subscribes to a private channel and whispers on it; a whisper reaching a client on the
     * other worker comes after its worker's earlier messages (its connection count).
     *
     * @param list<PusherTestClient> $clients
     */
    private static function synced(array $clients): void
    {
        foreach ($clients as $client) {
            $client->send(['event' => 'pusher:ping']);
            self::assertSame(['event' => 'pusher:pong'], $client->next());
        }
        $ids = [];
        foreach ($clients as $i => $client) {
            $client->send(['event' => 'pusher:subscribe', 'data' => ['channel' => 'private-sync', 'auth' => ChannelAuth::sign(self::app(), self::socketIdOf($client), 'private-sync')]]);
            self::assertSame('pusher_internal:subscription_succeeded', $client->next()['event'] ?? null);
        }
        foreach ($clients as $i => $client) {
            $client->send(['event' => 'client-sync', 'channel' => 'private-sync', 'data' => ['from' => $i]]);
        }
        foreach ($clients as $i => $client) {
            $from = [];
            for ($n = 1; $n < \count($clients); ++$n) {
                $frame = $client->next();
                self::assertSame('client-sync', $frame['event'] ?? null);
                $from[] = $frame['data']['from'] ?? null;
            }
            \sort($from);
            self::assertSame(\array_values(\array_diff(\array_keys($clients), [$i])), $from);
        }
    }

    private static function socketIdOf(PusherTestClient $client): string
    {
        return self::$socketIds[\spl_object_id($client)];
    }
}
