<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Bridge\Pusher\ChannelAuth;
use Spindle\Bridge\Pusher\PusherApp;
use Spindle\Bridge\Pusher\RequestSignature;
use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\ServerProcess;
use Spindle\Tests\Integration\Redis\RedisServer;
use Spindle\Tests\Support\Pusher\PusherTestClient;

/**
 * Several hosts through Redis pub/sub: two (then three) `spindle serve` processes of
 * tests/fixtures/apps/pusher.php on 127.0.0.1, their fan-out through the test's own
 * redis-server (PUSHER_REDIS_URL). Broadcasts, client events, presence and the HTTP API's counts
 * cover every host; a host that starts later learns the members (hello, state); a host killed
 * with SIGKILL is dropped when its heartbeats lapse (member_removed).
 *
 * @group slow
 */
final class PusherHostsTest extends E2ETestCase
{
    private const HEARTBEAT = 0.5;

    private static function app(): PusherApp
    {
        return new PusherApp('1', 'app-key', 'app-secret');
    }

    public function testBroadcastsClientEventsAndPresenceCrossHostsThroughRedis(): void
    {
        $redis = RedisServer::start();
        $hosts = [];
        try {
            $env = ['env', 'PUSHER_REDIS_URL=' . $redis->url(), 'PUSHER_HEARTBEAT=' . self::HEARTBEAT];
            $hosts[] = $one = ServerProcess::startThrough($env, ServerProcess::fixture('pusher.php'), ['--workers=1']);
            $hosts[] = $two = ServerProcess::startThrough($env, ServerProcess::fixture('pusher.php'), ['--workers=1']);
            $a = PusherTestClient::connect($one->port());
            $b = PusherTestClient::connect($two->port());
            $aId = $a->established();
            $bId = $b->established();
            foreach ([[$a, $aId], [$b, $bId]] as [$client, $id]) {
                foreach (['news', 'private-chat'] as $channel) {
                    $client->send(['event' => 'pusher:subscribe', 'data' => ['channel' => $channel, 'auth' => ChannelAuth::sign(self::app(), $id, $channel)]]);
                    self::assertSame(['event' => 'pusher_internal:subscription_succeeded', 'data' => '{}', 'channel' => $channel], $client->next());
                }
            }
            // Client events both ways (and, each host's messages being in order, each host now knows the other's subscriptions).
            $a->send(['event' => 'client-typing', 'channel' => 'private-chat', 'data' => ['who' => 'a']]);
            self::assertSame(['event' => 'client-typing', 'channel' => 'private-chat', 'data' => ['who' => 'a']], $b->next());
            $b->send(['event' => 'client-typing', 'channel' => 'private-chat', 'data' => ['who' => 'b']]);
            self::assertSame(['event' => 'client-typing', 'channel' => 'private-chat', 'data' => ['who' => 'b']], $a->next());

            foreach ([$one, $two] as $host) {
                $body = \json_encode(['name' => 'Story', 'channel' => 'news', 'data' => (string) $host->port(), 'info' => 'subscription_count'], \JSON_THROW_ON_ERROR);
                self::assertSame([200, '{"channels":{"news":{"subscription_count":2}}}'], self::api($host, 'POST', '/apps/1/events', $body));
                foreach ([$a, $b] as $client) {
                    self::assertSame(['event' => 'Story', 'data' => (string) $host->port(), 'channel' => 'news'], $client->next());
                }
            }

            self::joinPresence($a, $aId, 1, 'ann', '{"presence":{"ids":[1],"hash":{"1":{"name":"ann"}},"count":1}}');
            $a->send(['event' => 'client-joined', 'channel' => 'private-chat', 'data' => []]);
            self::assertSame('client-joined', self::event($b));
            self::joinPresence($b, $bId, 2, 'bob', '{"presence":{"ids":[2,1],"hash":{"2":{"name":"bob"},"1":{"name":"ann"}},"count":2}}');
            self::assertSame(['event' => 'pusher_internal:member_added', 'data' => '{"user_id":2,"user_info":{"name":"bob"}}', 'channel' => 'presence-room'], $a->next());
            $b->send(['event' => 'client-joined', 'channel' => 'private-chat', 'data' => []]);
            self::assertSame('client-joined', self::event($a));
            foreach ([$one, $two] as $host) {
                self::assertSame([200, '{"users":[{"id":1},{"id":2}]}'], self::sortedUsers(self::api($host, 'GET', '/apps/1/channels/presence-room/users', '')));
                self::assertSame([200, '{"occupied":true,"subscription_count":2}'], self::api($host, 'GET', '/apps/1/channels/news', ''));
            }

            // A third host starts later: it learns who is there from the others.
            $hosts[] = $three = ServerProcess::startThrough($env, ServerProcess::fixture('pusher.php'), ['--workers=1']);
            $c = PusherTestClient::connect($three->port());
            $cId = $c->established();
            self::joinPresence($c, $cId, 3, 'cat', null);
            self::assertSame(['event' => 'pusher_internal:member_added', 'data' => '{"user_id":3,"user_info":{"name":"cat"}}', 'channel' => 'presence-room'], $a->next());
            self::assertSame(['event' => 'pusher_internal:member_added', 'data' => '{"user_id":3,"user_info":{"name":"cat"}}', 'channel' => 'presence-room'], $b->next());
            $c->close();
            self::assertSame(['event' => 'pusher_internal:member_removed', 'data' => '{"user_id":3}', 'channel' => 'presence-room'], $a->next());

            // Host two dies at once (master and worker, SIGKILL): its heartbeats lapse, the others drop Bob.
            $workers = $two->workerPids();
            \posix_kill($two->pid(), \SIGKILL);
            foreach ($workers as $pid) {
                \posix_kill($pid, \SIGKILL);
            }
            self::assertSame(['event' => 'pusher_internal:member_removed', 'data' => '{"user_id":2}', 'channel' => 'presence-room'], $a->next(5 * self::HEARTBEAT + 2.0));
            self::assertSame([200, '{"users":[{"id":1}]}'], self::api($one, 'GET', '/apps/1/channels/presence-room/users', ''));
            self::assertSame([200, '{"occupied":true,"subscription_count":1}'], self::api($one, 'GET', '/apps/1/channels/news', ''));
            $a->close();
        } finally {
            foreach ($hosts as $host) {
                if ($host->isRunning()) {
                    $host->stop();
                }
            }
            $redis->stop();
        }
    }

    private static function joinPresence(PusherTestClient $client, string $socketId, int $userId, string $name, ?string $expected): void
    {
        $channelData = \json_encode(['user_id' => $userId, 'user_info' => ['name' => $name]], \JSON_THROW_ON_ERROR);
        $client->send(['event' => 'pusher:subscribe', 'data' => ['channel' => 'presence-room', 'auth' => ChannelAuth::sign(self::app(), $socketId, 'presence-room', $channelData), 'channel_data' => $channelData]]);
        $frame = $client->next();
        self::assertSame('pusher_internal:subscription_succeeded', $frame['event'] ?? null);
        if ($expected !== null) {
            self::assertSame($expected, $frame['data']);
        } else {
            // The late host lists the others after its own user, in the order it heard of them.
            $data = \json_decode((string) $frame['data'], true, 8, \JSON_THROW_ON_ERROR);
            self::assertSame(3, $data['presence']['ids'][0] ?? null);
            self::assertEqualsCanonicalizing([1, 2, 3], $data['presence']['ids']);
            self::assertSame(3, $data['presence']['count']);
        }
    }

    /**
     * @param array{int, string} $answer
     *
     * @return array{int, string}
     */
    private static function sortedUsers(array $answer): array
    {
        $users = \json_decode($answer[1], true, 8, \JSON_THROW_ON_ERROR)['users'];
        \usort($users, static fn (array $x, array $y): int => $x['id'] <=> $y['id']);

        return [$answer[0], \json_encode(['users' => $users], \JSON_THROW_ON_ERROR)];
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
