<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Bridge\Pusher\ChannelAuth;
use Spindle\Bridge\Pusher\PusherApp;
use Spindle\Bridge\Pusher\RequestSignature;
use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\ServerProcess;
use Spindle\Tests\Support\Pusher\PusherTestClient;

/**
 * The Pusher protocol on `spindle serve --workers=2` (tests/fixtures/apps/pusher.php): two
 * clients on different workers (the 101's X-Worker-Pid tells) see each other's broadcasts, client
 * events and presence, the HTTP API counts both wherever it is answered, a worker killed with
 * SIGKILL or stopped with SIGTERM has its presence members removed on the other worker
 * (member_removed), and a worker that replaces one learns the channels from the others.
 */
final class PusherWorkersTest extends E2ETestCase
{
    private static function app(): PusherApp
    {
        return new PusherApp('1', 'app-key', 'app-secret');
    }

    public function testBroadcastsClientEventsAndPresenceReachEveryWorker(): void
    {
        $server = ServerProcess::start(ServerProcess::fixture('pusher.php'), ['--workers=2']);
        try {
            [$a, $b] = self::onTwoWorkers($server);
            $aId = $a->established();
            $bId = $b->established();
            foreach ([[$a, $aId], [$b, $bId]] as [$client, $id]) {
                foreach (['news', 'private-chat'] as $channel) {
                    $client->send(['event' => 'pusher:subscribe', 'data' => ['channel' => $channel, 'auth' => ChannelAuth::sign(self::app(), $id, $channel)]]);
                    self::assertSame(['event' => 'pusher_internal:subscription_succeeded', 'data' => '{}', 'channel' => $channel], $client->next());
                }
            }
            // A client event from the first worker's client reaches the second worker's, not itself.
            $a->send(['event' => 'client-typing', 'channel' => 'private-chat', 'data' => ['who' => 'a']]);
            self::assertSame(['event' => 'client-typing', 'channel' => 'private-chat', 'data' => ['who' => 'a']], $b->next());
            $b->send(['event' => 'client-typing', 'channel' => 'private-chat', 'data' => ['who' => 'b']]);
            self::assertSame(['event' => 'client-typing', 'channel' => 'private-chat', 'data' => ['who' => 'b']], $a->next());

            // The HTTP API, answered by either worker: the event reaches both clients, the counts cover both.
            for ($i = 0; $i < 4; ++$i) {
                $body = \json_encode(['name' => 'Story', 'channel' => 'news', 'data' => (string) $i, 'info' => 'subscription_count'], \JSON_THROW_ON_ERROR);
                self::assertSame([200, '{"channels":{"news":{"subscription_count":2}}}'], self::api($server, 'POST', '/apps/1/events', $body));
                foreach ([$a, $b] as $client) {
                    self::assertSame(['event' => 'Story', 'data' => (string) $i, 'channel' => 'news'], $client->next());
                }
                self::assertSame([200, '{"occupied":true,"subscription_count":2}'], self::api($server, 'GET', '/apps/1/channels/news', ''));
                self::assertSame([200, '{"channels":{"news":{},"private-chat":{}}}'], self::api($server, 'GET', '/apps/1/channels', ''));
            }
            // toOthers() across workers: the socket id on the other worker is left out.
            $body = \json_encode(['name' => 'Other', 'channel' => 'news', 'data' => '1', 'socket_id' => $aId], \JSON_THROW_ON_ERROR);
            self::assertSame(200, self::api($server, 'POST', '/apps/1/events', $body)[0]);
            self::assertSame(['event' => 'Other', 'data' => '1', 'channel' => 'news'], $b->next());
            self::assertNull($a->next(0.3));

            // Presence: Ann joins on the first worker; her whisper after it tells that the second
            // worker has heard of her (a worker's messages arrive in order).
            self::joinPresence($a, $aId, 1, 'ann', ['event' => 'pusher_internal:subscription_succeeded', 'data' => '{"presence":{"ids":[1],"hash":{"1":{"name":"ann"}},"count":1}}', 'channel' => 'presence-room']);
            $a->send(['event' => 'client-joined', 'channel' => 'private-chat', 'data' => []]);
            self::assertSame('client-joined', self::event($b));
            self::joinPresence($b, $bId, 2, 'bob', ['event' => 'pusher_internal:subscription_succeeded', 'data' => '{"presence":{"ids":[2,1],"hash":{"2":{"name":"bob"},"1":{"name":"ann"}},"count":2}}', 'channel' => 'presence-room']);
            self::assertSame(['event' => 'pusher_internal:member_added', 'data' => '{"user_id":2,"user_info":{"name":"bob"}}', 'channel' => 'presence-room'], $a->next());
            for ($i = 0; $i < 4; ++$i) {
                [$status, $users] = self::api($server, 'GET', '/apps/1/channels/presence-room/users', '');
                self::assertSame(200, $status);
                self::assertEqualsCanonicalizing([['id' => 1], ['id' => 2]], \json_decode($users, true)['users'] ?? null);
                $body = \json_encode(['name' => 'Counted', 'channel' => 'presence-room', 'data' => '{}', 'info' => 'user_count'], \JSON_THROW_ON_ERROR);
                self::assertSame([200, '{"channels":{"presence-room":{"user_count":2}}}'], self::api($server, 'POST', '/apps/1/events', $body));
                self::assertSame('Counted', self::event($a));
                self::assertSame('Counted', self::event($b));
            }

            // Ann's worker is killed: Bob's worker removes her (the master tells it the worker is gone).
            $annWorker = (int) $a->header('X-Worker-Pid');
            \posix_kill($annWorker, \SIGKILL);
            self::assertSame(['event' => 'pusher_internal:member_removed', 'data' => '{"user_id":1}', 'channel' => 'presence-room'], $b->next(5.0));
            self::assertSame(1006, $a->waitForClose());
            [$status, $users] = self::api($server, 'GET', '/apps/1/channels/presence-room/users', '');
            self::assertSame([200, '{"users":[{"id":2}]}'], [$status, $users]);
            self::assertSame([200, '{"occupied":true,"subscription_count":1}'], self::api($server, 'GET', '/apps/1/channels/news', ''));

            // The worker that replaced it learns the channels from the survivor (hello, state).
            $c = self::onWorkerOtherThan($server, (int) $b->header('X-Worker-Pid'));
            $cId = $c->established();
            self::joinPresence($c, $cId, 3, 'cat', ['event' => 'pusher_internal:subscription_succeeded', 'data' => '{"presence":{"ids":[3,2],"hash":{"3":{"name":"cat"},"2":{"name":"bob"}},"count":2}}', 'channel' => 'presence-room']);
            self::assertSame(['event' => 'pusher_internal:member_added', 'data' => '{"user_id":3,"user_info":{"name":"cat"}}', 'channel' => 'presence-room'], $b->next());

            // That worker stops gracefully (SIGTERM, as a retired or reloaded worker does): its
            // client gets 4200, and Bob's worker removes Cat.
            \posix_kill((int) $c->header('X-Worker-Pid'), \SIGTERM);
            self::assertSame(4200, $c->waitForClose(5.0));
            self::assertSame(['event' => 'pusher_internal:member_removed', 'data' => '{"user_id":3}', 'channel' => 'presence-room'], $b->next(5.0));
            $b->close();
        } finally {
            $server->stop();
        }
    }

    /** @param array<mixed> $expected */
    private static function joinPresence(PusherTestClient $client, string $socketId, int $userId, string $name, array $expected): void
    {
        $channelData = \json_encode(['user_id' => $userId, 'user_info' => ['name' => $name]], \JSON_THROW_ON_ERROR);
        $client->send(['event' => 'pusher:subscribe', 'data' => ['channel' => 'presence-room', 'auth' => ChannelAuth::sign(self::app(), $socketId, 'presence-room', $channelData), 'channel_data' => $channelData]]);
        self::assertSame($expected, $client->next());
    }

    /**
     * Two clients on two different workers (connections are spread by the kernel: a few tries).
     *
     * @return array{PusherTestClient, PusherTestClient}
     */
    private static function onTwoWorkers(ServerProcess $server): array
    {
        $first = PusherTestClient::connect($server->port());

        return [$first, self::onWorkerOtherThan($server, (int) $first->header('X-Worker-Pid'))];
    }

    private static function onWorkerOtherThan(ServerProcess $server, int $pid): PusherTestClient
    {
        $deadline = \microtime(true) + 20.0;
        $spare = [];
        while (\microtime(true) < $deadline) {
            // Open connections stay open while trying, so that the busy worker is not always the one that accepts.
            $client = PusherTestClient::connect($server->port());
            if ((int) $client->header('X-Worker-Pid') !== $pid && (int) $client->header('X-Worker-Pid') > 0) {
                foreach ($spare as $other) {
                    $other->close();
                }

                return $client;
            }
            $spare[] = $client;
        }
        self::fail('No connection reached a worker other than ' . $pid);
    }

    /** The next frame's event name. */
    private static function event(PusherTestClient $client): mixed
    {
        return $client->next()['event'] ?? null;
    }

    /** @return array{int, string} */
    private static function api(ServerProcess $server, string $method, string $path, string $body): array
    {
        $query = RequestSignature::signedQuery(self::app(), $method, $path, $body, \time());
        $arguments = ['-s', '-X', $method, '-w', '\n%{http_code}', $server->url($path . '?' . \http_build_query($query))];
        if ($method === 'POST') {
            \array_push($arguments, '-H', 'Content-Type: application/json', '--data-binary', $body);
        }
        $output = self::curl($arguments)['out'];
        $at = (int) \strrpos($output, "\n");

        return [(int) \substr($output, $at + 1), \substr($output, 0, $at)];
    }
}
