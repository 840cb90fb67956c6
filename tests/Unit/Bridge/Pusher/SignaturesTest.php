<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Bridge\Pusher;

use PHPUnit\Framework\TestCase;
use Spindle\Bridge\Laravel\Broadcasting\PusherConnections;
use Spindle\Bridge\Pusher\ChannelAuth;
use Spindle\Bridge\Pusher\EncryptedChannels;
use Spindle\Bridge\Pusher\PusherApp;
use Spindle\Bridge\Pusher\RequestSignature;

/**
 * The Pusher protocol's signatures against the worked examples of Pusher's library auth
 * reference (its published key, secret, socket id, body and timestamp), the HTTP API's checks
 * one by one, and which Laravel broadcasting connections Spindle serves.
 */
final class SignaturesTest extends TestCase
{
    private const BODY = '{"name":"foo","channels":["project-3"],"data":"{\"some\":\"data\"}"}';

    private static function app(): PusherApp
    {
        return new PusherApp('3', '278d425bdf160c739803', '7ad3773142a6692b25b8');
    }

    public function testPrivateChannelAuthMatchesThePublishedExample(): void
    {
        $auth = '278d425bdf160c739803:58df8b0c36d6982b82c3ecf6b4662e34fe8c25bba48f5369f135bf843651c3a4';
        self::assertSame($auth, ChannelAuth::sign(self::app(), '1234.1234', 'private-foobar'));
        self::assertTrue(ChannelAuth::verify(self::app(), $auth, '1234.1234', 'private-foobar'));
        self::assertFalse(ChannelAuth::verify(self::app(), $auth, '1234.1235', 'private-foobar'));
        self::assertFalse(ChannelAuth::verify(self::app(), $auth, '1234.1234', 'private-foobaz'));
        // Presence: the channel_data is part of what is signed.
        $presence = ChannelAuth::sign(self::app(), '1234.1234', 'presence-foobar', '{"user_id":10}');
        self::assertTrue(ChannelAuth::verify(self::app(), $presence, '1234.1234', 'presence-foobar', '{"user_id":10}'));
        self::assertFalse(ChannelAuth::verify(self::app(), $presence, '1234.1234', 'presence-foobar', '{"user_id":11}'));
        self::assertTrue(ChannelAuth::isSocketId('1234.1234'));
        foreach (['1234', '1234.', '.1', 'a.1', "1.1\n", '1.1.1'] as $bad) {
            self::assertFalse(ChannelAuth::isSocketId($bad), $bad);
        }
    }

    public function testHttpApiSignatureMatchesThePublishedExample(): void
    {
        self::assertSame('ec365a775a4cd0599faeb73354201b6f', \md5(self::BODY));
        $query = RequestSignature::signedQuery(self::app(), 'POST', '/apps/3/events', self::BODY, 1353088179);
        self::assertSame('da454824c97ba181a32ccc17a72625ba02771f50b50e1e7430e47a1f3f457e6c', $query['auth_signature']);
        self::assertNull(RequestSignature::check(self::app(), 'POST', '/apps/3/events', $query, self::BODY, 1353088179 + 600));
    }

    public function testHttpApiChecks(): void
    {
        $now = 1353088179;
        $query = RequestSignature::signedQuery(self::app(), 'POST', '/apps/3/events', self::BODY, $now);
        $check = static fn (array $query, string $body = self::BODY, int $at = 1353088179, string $path = '/apps/3/events'): ?string => RequestSignature::check(self::app(), 'POST', $path, $query, $body, $at);

        self::assertStringContainsString('Timestamp expired', (string) $check($query, self::BODY, $now + 601));
        self::assertStringContainsString('Timestamp expired', (string) $check($query, self::BODY, $now - 601));
        self::assertSame('body_md5 does not match the body', $check($query, self::BODY . ' '));
        self::assertSame('Invalid signature', $check($query, self::BODY, $now, '/apps/3/batch_events'));
        self::assertSame('Unknown auth_key', $check(['auth_key' => 'other'] + $query));
        self::assertSame('auth_version must be 1.0', $check(['auth_version' => '2.0'] + $query));
        self::assertSame('Invalid signature', $check(['auth_signature' => \str_repeat('0', 64)] + $query));
        // Parameter names count in lower case, in any order.
        $reordered = \array_reverse($query, true);
        self::assertNull($check($reordered));
        self::assertSame('Invalid signature', $check(['extra' => '1'] + $query));
    }

    public function testWhichBroadcastingConnectionsAreServed(): void
    {
        $reverb = ['driver' => 'reverb', 'key' => 'k', 'secret' => 's', 'app_id' => 'i', 'options' => ['host' => 'localhost']];
        self::assertTrue(PusherConnections::isServed($reverb));
        self::assertFalse(PusherConnections::isServed(['secret' => ''] + $reverb));
        self::assertFalse(PusherConnections::isServed(['key' => null] + $reverb));
        self::assertFalse(PusherConnections::isServed(['driver' => 'log'] + $reverb));
        // `pusher` connections to Pusher's own service stay Laravel's.
        self::assertFalse(PusherConnections::isServed(['driver' => 'pusher', 'options' => ['host' => 'api-mt1.pusher.com']] + $reverb));
        self::assertFalse(PusherConnections::isServed(['driver' => 'pusher', 'options' => []] + $reverb));
        self::assertTrue(PusherConnections::isServed(['driver' => 'pusher'] + $reverb));

        $apps = PusherConnections::apps(['reverb' => $reverb, 'again' => $reverb, 'app_id_as_int' => ['key' => 'k2', 'app_id' => 7] + $reverb, 'null' => ['driver' => 'null']]);
        self::assertSame([['i', 'k', 's'], ['7', 'k2', 's']], \array_map(static fn (PusherApp $app): array => [$app->id, $app->key, $app->secret], $apps));
        self::assertSame([], PusherConnections::apps(null));

        // Reverb's own settings for the same key, when config/reverb.php is there.
        $apps = PusherConnections::apps(['reverb' => $reverb], [
            ['key' => 'other', 'activity_timeout' => 5],
            ['key' => 'k', 'activity_timeout' => '12', 'max_connections' => null, 'ping_interval' => 60],
        ]);
        self::assertSame([12, 0, 30], [$apps[0]->activityTimeout, $apps[0]->maxConnections, $apps[0]->pongTimeout]);
        $apps = PusherConnections::apps(['reverb' => $reverb], [['key' => 'k', 'max_connections' => 100, 'activity_timeout' => 'x']]);
        self::assertSame([30, 100], [$apps[0]->activityTimeout, $apps[0]->maxConnections]);
    }

    public function testEncryptedChannelsSealForTheirChannelOnly(): void
    {
        $key = \str_repeat('k', 32);
        $sealed = EncryptedChannels::seal($key, 'private-encrypted-a', '{"x":1}');
        $fields = \json_decode($sealed, true);
        self::assertIsArray($fields);
        self::assertSame(['nonce', 'ciphertext'], \array_keys($fields));
        self::assertStringNotContainsString('"x"', $sealed);
        self::assertSame('{"x":1}', EncryptedChannels::open($key, 'private-encrypted-a', $sealed));
        self::assertNull(EncryptedChannels::open($key, 'private-encrypted-b', $sealed));
        self::assertNull(EncryptedChannels::open(\str_repeat('j', 32), 'private-encrypted-a', $sealed));
        self::assertNotSame($sealed, EncryptedChannels::seal($key, 'private-encrypted-a', '{"x":1}'));
        self::assertSame(\hash('sha256', 'private-encrypted-a' . $key, true), EncryptedChannels::sharedSecret($key, 'private-encrypted-a'));
        $this->expectException(\InvalidArgumentException::class);
        EncryptedChannels::sharedSecret('short', 'private-encrypted-a');
    }
}
