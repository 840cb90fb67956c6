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
 * The Pusher protocol (version 7) as Spindle\Bridge\Pusher speaks it on `spindle serve`
 * (tests/fixtures/apps/pusher.php), frame by frame as JSON: the exact events, data and errors
 * pusher-js and Laravel Echo rely on, and the signed HTTP API.
 */
final class PusherProtocolTest extends E2ETestCase
{
    private static function app(): PusherApp
    {
        return new PusherApp('1', 'app-key', 'app-secret');
    }

    private static function server(): ServerProcess
    {
        return self::sharedServer(__DIR__ . '/../fixtures/apps/pusher.php', ['--workers=1']);
    }

    public function testConnectionEstablishedPingAndUnknownApp(): void
    {
        $client = PusherTestClient::connect(self::server()->port());
        $frame = $client->next();
        self::assertSame('pusher:connection_established', $frame['event'] ?? null);
        self::assertIsString($frame['data']);
        $data = \json_decode($frame['data'], true);
        self::assertIsArray($data);
        self::assertSame(['socket_id', 'activity_timeout'], \array_keys($data));
        self::assertMatchesRegularExpression('/\A\d+\.\d+\z/', $data['socket_id']);
        self::assertSame(30, $data['activity_timeout']);

        $client->send(['event' => 'pusher:ping', 'data' => []]);
        self::assertSame(['event' => 'pusher:pong'], $client->next());
        $client->sendRaw('not json');
        self::assertSame(['event' => 'pusher:error', 'data' => '{"code":null,"message":"Invalid message format"}'], $client->next());
        $client->close();

        $unknown = PusherTestClient::connect(self::server()->port(), '/app/no-such-key?protocol=7');
        self::assertSame(['event' => 'pusher:error', 'data' => '{"code":4001,"message":"Application does not exist"}'], $unknown->next());
        self::assertSame(4001, $unknown->waitForClose());
    }

    public function testPublicChannelsAndTheHttpApi(): void
    {
        $port = self::server()->port();
        $a = PusherTestClient::connect($port);
        $aId = $a->established();
        $b = PusherTestClient::connect($port);
        $b->established();
        foreach ([$a, $b] as $client) {
            $client->send(['event' => 'pusher:subscribe', 'data' => ['channel' => 'news']]);
            self::assertSame(['event' => 'pusher_internal:subscription_succeeded', 'data' => '{}', 'channel' => 'news'], $client->next());
        }

        $body = \json_encode(['name' => 'Story', 'channels' => ['news', 'empty'], 'data' => '{"title":"hi"}'], \JSON_THROW_ON_ERROR);
        self::assertSame([200, '{}'], self::api('POST', '/apps/1/events', $body));
        foreach ([$a, $b] as $client) {
            self::assertSame(['event' => 'Story', 'data' => '{"title":"hi"}', 'channel' => 'news'], $client->next());
        }
        // socket_id leaves that connection out (toOthers()).
        $body = \json_encode(['name' => 'Other', 'channel' => 'news', 'data' => '1', 'socket_id' => $aId], \JSON_THROW_ON_ERROR);
        self::assertSame([200, '{}'], self::api('POST', '/apps/1/events', $body));
        self::assertSame(['event' => 'Other', 'data' => '1', 'channel' => 'news'], $b->next());
        self::assertNull($a->next(0.3));

        $body = \json_encode(['batch' => [['name' => 'One', 'channel' => 'news', 'data' => '1'], ['name' => 'Two', 'channel' => 'news', 'data' => '2']]], \JSON_THROW_ON_ERROR);
        self::assertSame([200, '{"batch":[{},{}]}'], self::api('POST', '/apps/1/batch_events', $body));
        foreach ([$a, $b] as $client) {
            self::assertSame([['event' => 'One', 'data' => '1', 'channel' => 'news'], ['event' => 'Two', 'data' => '2', 'channel' => 'news']], [$client->next(), $client->next()]);
        }
        // A batch with one bad event sends none of them.
        $body = \json_encode(['batch' => [['name' => 'Three', 'channel' => 'news', 'data' => '3'], ['name' => 'Four', 'channel' => 'no such!', 'data' => '4']]], \JSON_THROW_ON_ERROR);
        self::assertSame(400, self::api('POST', '/apps/1/batch_events', $body)[0]);
        self::assertSame([200, '{"channels":{"news":{}}}'], self::api('GET', '/apps/1/channels', ''));
        // info asks for counts; data may come as JSON; a socket_id that is none leaves nobody out.
        $body = \json_encode(['name' => 'Counted', 'channels' => ['news', 'presence-none'], 'data' => ['n' => 1], 'info' => 'user_count,subscription_count', 'socket_id' => 'nonsense'], \JSON_THROW_ON_ERROR);
        self::assertSame([200, '{"channels":{"news":{"subscription_count":2},"presence-none":{"user_count":0}}}'], self::api('POST', '/apps/1/events', $body));
        foreach ([$a, $b] as $client) {
            self::assertSame(['event' => 'Counted', 'data' => '{"n":1}', 'channel' => 'news'], $client->next());
        }
        self::assertSame([200, '{"occupied":true,"subscription_count":2}'], self::api('GET', '/apps/1/channels/news', ''));

        $a->send(['event' => 'pusher:unsubscribe', 'data' => ['channel' => 'news']]);
        $a->send(['event' => 'pusher:ping']);
        self::assertSame(['event' => 'pusher:pong'], $a->next());
        self::assertSame([200, '{"occupied":true,"subscription_count":1}'], self::api('GET', '/apps/1/channels/news', ''));
        self::assertSame([200, '{"occupied":false}'], self::api('GET', '/apps/1/channels/empty', ''));
        $b->close();
        $a->close();
    }

    public function testTheHttpApiRefusesWhatIsNotSignedRight(): void
    {
        $body = '{"name":"x","channel":"news","data":"1"}';
        // A stale timestamp, a wrong secret, a body that is not the one signed, an unknown app.
        [$status, $answer] = self::api('POST', '/apps/1/events', $body, \time() - RequestSignature::MAX_AGE - 5);
        self::assertSame(401, $status);
        self::assertStringContainsString('Timestamp expired', $answer);
        self::assertSame(401, self::api('POST', '/apps/1/events', $body, null, new PusherApp('1', 'app-key', 'wrong'))[0]);
        self::assertSame(401, self::api('POST', '/apps/1/events', $body, null, null, '{"name":"y","channel":"news","data":"1"}')[0]);
        self::assertSame(404, self::api('POST', '/apps/2/events', $body)[0]);
        // Signed right but no valid event; data over 10,000 bytes.
        self::assertSame(400, self::api('POST', '/apps/1/events', '{"name":"x","channel":"bad channel!","data":"1"}')[0]);
        self::assertSame(413, self::api('POST', '/apps/1/events', \json_encode(['name' => 'x', 'channel' => 'news', 'data' => \str_repeat('a', 10_001)], \JSON_THROW_ON_ERROR))[0]);
        // Requests that are not the API's go to the app.
        self::assertSame('app', self::curl(['-s', self::server()->url('/apps')])['out']);
    }

    public function testPrivateChannelsCheckTheAuthAndRelayClientEvents(): void
    {
        $port = self::server()->port();
        $a = PusherTestClient::connect($port);
        $aId = $a->established();
        $b = PusherTestClient::connect($port);
        $bId = $b->established();
        $unauthorized = ['event' => 'pusher:error', 'data' => '{"code":4009,"message":"Connection is unauthorized"}'];

        // Another socket's signature, no auth, a wrong secret.
        $a->send(['event' => 'pusher:subscribe', 'data' => ['channel' => 'private-room', 'auth' => ChannelAuth::sign(self::app(), $bId, 'private-room')]]);
        self::assertSame($unauthorized, $a->next());
        $a->send(['event' => 'pusher:subscribe', 'data' => ['channel' => 'private-room']]);
        self::assertSame($unauthorized, $a->next());
        $a->send(['event' => 'pusher:subscribe', 'data' => ['channel' => 'private-room', 'auth' => ChannelAuth::sign(new PusherApp('1', 'app-key', 'x'), $aId, 'private-room')]]);
        self::assertSame($unauthorized, $a->next());

        foreach ([[$a, $aId], [$b, $bId]] as [$client, $id]) {
            foreach (['private-room', 'private-encrypted-vault', 'open'] as $channel) {
                $client->send(['event' => 'pusher:subscribe', 'data' => ['channel' => $channel, 'auth' => ChannelAuth::sign(self::app(), $id, $channel)]]);
                self::assertSame(['event' => 'pusher_internal:subscription_succeeded', 'data' => '{}', 'channel' => $channel], $client->next());
            }
        }
        // A client event reaches the others, not the sender.
        $a->send(['event' => 'client-typing', 'channel' => 'private-room', 'data' => ['who' => 'a']]);
        self::assertSame(['event' => 'client-typing', 'channel' => 'private-room', 'data' => ['who' => 'a']], $b->next());
        self::assertNull($a->next(0.3));
        // Not on public or encrypted channels, not on a channel the sender is not on.
        $a->send(['event' => 'client-typing', 'channel' => 'open', 'data' => []]);
        self::assertSame('pusher:error', $a->next()['event'] ?? null);
        $a->send(['event' => 'client-typing', 'channel' => 'private-encrypted-vault', 'data' => []]);
        self::assertSame('pusher:error', $a->next()['event'] ?? null);
        $a->send(['event' => 'client-typing', 'channel' => 'private-elsewhere', 'data' => []]);
        self::assertSame(['event' => 'pusher:error', 'data' => '{"code":4009,"message":"The client is not a member of the specified channel."}'], $a->next());
        self::assertNull($b->next(0.3));
        // The server relays encrypted channels' events it cannot read.
        $body = \json_encode(['name' => 'Secret', 'channel' => 'private-encrypted-vault', 'data' => '{"nonce":"bm9uY2U=","ciphertext":"Y2lwaGVy"}'], \JSON_THROW_ON_ERROR);
        self::assertSame(200, self::api('POST', '/apps/1/events', $body)[0]);
        self::assertSame(['event' => 'Secret', 'data' => '{"nonce":"bm9uY2U=","ciphertext":"Y2lwaGVy"}', 'channel' => 'private-encrypted-vault'], $a->next());
        // Past 3 client events a second: 4301, and the connection stays.
        $codes = [];
        for ($i = 0; $i < 6; ++$i) {
            $a->send(['event' => 'client-burst', 'channel' => 'private-room', 'data' => $i]);
        }
        $a->send(['event' => 'pusher:ping']);
        while (($frame = $a->next()) !== null && $frame['event'] !== 'pusher:pong') {
            $codes[] = \json_decode($frame['data'], true)['code'] ?? null;
        }
        self::assertNotSame([], $codes);
        self::assertSame([4301], \array_values(\array_unique($codes)));
        $a->close();
        $b->close();
    }

    public function testPresenceChannelsListAndAnnounceMembers(): void
    {
        $port = self::server()->port();
        $join = static function (PusherTestClient $client, string $socketId, int $userId, string $name): void {
            $channelData = \json_encode(['user_id' => $userId, 'user_info' => ['name' => $name]], \JSON_THROW_ON_ERROR);
            $client->send(['event' => 'pusher:subscribe', 'data' => [
                'channel' => 'presence-lobby',
                'auth' => ChannelAuth::sign(self::app(), $socketId, 'presence-lobby', $channelData),
                'channel_data' => $channelData,
            ]]);
        };
        $ann = PusherTestClient::connect($port);
        $annId = $ann->established();
        $join($ann, $annId, 1, 'Ann');
        self::assertSame([
            'event' => 'pusher_internal:subscription_succeeded',
            'data' => '{"presence":{"ids":[1],"hash":{"1":{"name":"Ann"}},"count":1}}',
            'channel' => 'presence-lobby',
        ], $ann->next());

        $bob = PusherTestClient::connect($port);
        $bobId = $bob->established();
        // channel_data that is not the one signed.
        $bob->send(['event' => 'pusher:subscribe', 'data' => [
            'channel' => 'presence-lobby',
            'auth' => ChannelAuth::sign(self::app(), $bobId, 'presence-lobby', '{"user_id":2}'),
            'channel_data' => '{"user_id":1}',
        ]]);
        self::assertSame('{"code":4009,"message":"Connection is unauthorized"}', $bob->next()['data'] ?? null);
        $join($bob, $bobId, 2, 'Bob');
        self::assertSame('{"presence":{"ids":[1,2],"hash":{"1":{"name":"Ann"},"2":{"name":"Bob"}},"count":2}}', $bob->next()['data'] ?? null);
        self::assertSame(['event' => 'pusher_internal:member_added', 'data' => '{"user_id":2,"user_info":{"name":"Bob"}}', 'channel' => 'presence-lobby'], $ann->next());

        // Bob on a second connection: no member_added; its first one leaving: no member_removed.
        $bob2 = PusherTestClient::connect($port);
        $join($bob2, $bob2->established(), 2, 'Bob');
        self::assertSame(2, \json_decode($bob2->next()['data'] ?? '', true)['presence']['count'] ?? null);
        $bob->send(['event' => 'client-wave', 'channel' => 'presence-lobby', 'data' => ['hi' => 1]]);
        self::assertSame(['event' => 'client-wave', 'channel' => 'presence-lobby', 'data' => ['hi' => 1], 'user_id' => 2], $ann->next());
        self::assertSame('client-wave', $bob2->next()['event'] ?? null);
        $bob->close();
        self::assertSame([200, '{"users":[{"id":1},{"id":2}]}'], self::api('GET', '/apps/1/channels/presence-lobby/users', ''));
        self::assertSame([200, '{"channels":{"presence-lobby":{"user_count":2}}}'], self::api('GET', '/apps/1/channels', '', null, null, null, ['filter_by_prefix' => 'presence-', 'info' => 'user_count']));
        $bob2->send(['event' => 'pusher:unsubscribe', 'data' => ['channel' => 'presence-lobby']]);
        self::assertSame(['event' => 'pusher_internal:member_removed', 'data' => '{"user_id":2}', 'channel' => 'presence-lobby'], $ann->next());
        self::assertSame([200, '{"users":[{"id":1}]}'], self::api('GET', '/apps/1/channels/presence-lobby/users', ''));
        // A string user id stays a string.
        $cid = PusherTestClient::connect($port);
        $channelData = '{"user_id":"7","user_info":null}';
        $cid->send(['event' => 'pusher:subscribe', 'data' => ['channel' => 'presence-lobby', 'auth' => ChannelAuth::sign(self::app(), $cid->established(), 'presence-lobby', $channelData), 'channel_data' => $channelData]]);
        self::assertSame('{"presence":{"ids":[1,"7"],"hash":{"1":{"name":"Ann"},"7":null},"count":2}}', $cid->next()['data'] ?? null);
        self::assertSame(['event' => 'pusher_internal:member_added', 'data' => '{"user_id":"7","user_info":null}', 'channel' => 'presence-lobby'], $ann->next());
        $cid->close();
        $ann->close();
        $bob2->close();
    }

    public function testSilentClientsConnectionLimitAndOverLongMessages(): void
    {
        $server = ServerProcess::startThrough(['env', 'PUSHER_MAX_CONNECTIONS=2', 'PUSHER_ACTIVITY_TIMEOUT=1'], __DIR__ . '/../fixtures/apps/pusher.php', ['--workers=1']);
        try {
            // Two connections fill the app's quota: a third gets 4004.
            $silent = PusherTestClient::connect($server->port());
            $answering = PusherTestClient::connect($server->port());
            self::assertStringContainsString('"activity_timeout":1', (string) ($silent->next()['data'] ?? ''));
            $answering->established();
            $over = PusherTestClient::connect($server->port());
            self::assertSame(['event' => 'pusher:error', 'data' => '{"code":4004,"message":"Application is over connection quota"}'], $over->next());
            self::assertSame(4004, $over->waitForClose());

            // A silent client is pinged after activity_timeout; one that answers stays, one that
            // does not is closed with 4201 after the pong timeout.
            self::assertSame(['event' => 'pusher:ping'], $answering->next());
            $answering->send(['event' => 'pusher:pong']);
            self::assertSame(['event' => 'pusher:ping'], $silent->next());
            self::assertSame(['event' => 'pusher:error', 'data' => '{"code":4201,"message":"Pong reply not received in time"}'], $silent->next());
            self::assertSame(4201, $silent->waitForClose());
            self::assertNull($answering->closeCode);
            $silent->close();

            // Messages past 10,000 bytes end the connection (1009).
            $answering->sendRaw(\str_repeat('x', 10_001));
            while (($frame = $answering->next()) !== null) {
                self::assertSame('pusher:ping', $frame['event'] ?? null);
            }
            self::assertSame(1009, $answering->waitForClose());
            $answering->close();

            // Their places are free again, once the server has seen them go.
            $deadline = \microtime(true) + 5.0;
            do {
                $again = PusherTestClient::connect($server->port());
                $frame = $again->next();
                $again->close();
            } while (($frame['event'] ?? null) !== 'pusher:connection_established' && \microtime(true) < $deadline);
            self::assertSame('pusher:connection_established', $frame['event'] ?? null);
        } finally {
            $server->stop();
        }
    }

    /**
     * @param array<string, string> $parameters
     *
     * @return array{int, string} the status and body of a signed API request
     */
    private static function api(string $method, string $path, string $body, ?int $timestamp = null, ?PusherApp $app = null, ?string $sentBody = null, array $parameters = []): array
    {
        $query = RequestSignature::signedQuery($app ?? self::app(), $method, $path, $body, $timestamp ?? \time(), $parameters);
        $arguments = ['-s', '-X', $method, '-w', '\n%{http_code}', self::server()->url($path . '?' . \http_build_query($query))];
        if ($method === 'POST') {
            \array_push($arguments, '-H', 'Content-Type: application/json', '--data-binary', $sentBody ?? $body);
        }
        $process = \proc_open(['curl', '--noproxy', '*', ...$arguments], [1 => ['pipe', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes);
        \assert(\is_resource($process));
        $output = (string) \stream_get_contents($pipes[1]);
        \proc_close($process);
        $at = (int) \strrpos($output, "\n");

        return [(int) \substr($output, $at + 1), \substr($output, 0, $at)];
    }
}
