<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Bridge\Pusher;

use PHPUnit\Framework\TestCase;
use Spindle\Bridge\Pusher\PusherApp;
use Spindle\Bridge\Pusher\PusherServer;
use Spindle\Tests\Support\Pusher\FakePeerLink;

/**
 * A PusherServer's view of its peers (Cluster, RemoteSubscriptions), driven by the fan-out
 * messages a peer would send: counts, presence lists and connection counts cover them, a peer's
 * state replaces what was known of it, a peer gone takes its subscriptions with it, and messages
 * that are none change nothing.
 */
final class ClusterTest extends TestCase
{
    public function testPeersSubscriptionsCountInListsCountsAndConnectionLimits(): void
    {
        $link = self::link();
        $app = new PusherApp('1', 'key', 'secret', maxConnections: 3);
        $server = new PusherServer([$app], $link);
        self::assertSame(['{"t":"hello"}'], $link->sent);

        $link->deliver('peer-a', '{"t":"sub","a":"1","c":"news","s":"1.1","m":null}');
        $link->deliver('peer-a', '{"t":"sub","a":"1","c":"presence-room","s":"1.1","m":[7,{"name":"ann"}]}');
        $link->deliver('peer-b', '{"t":"sub","a":"1","c":"news","s":"2.1","m":null}');
        $link->deliver('peer-b', '{"t":"sub","a":"1","c":"presence-room","s":"2.1","m":["bob",null]}');
        $link->deliver('peer-b', '{"t":"sub","a":"1","c":"presence-room","s":"2.2","m":[7,{"name":"ann"}]}');
        self::assertSame(2, $server->subscriptionCount($app, 'news'));
        self::assertSame(['news' => 2, 'presence-room' => 3], $server->occupied($app));
        self::assertSame([7, 'bob'], \array_map(static fn ($m) => $m->userId, $server->users($app, 'presence-room')));

        $link->deliver('peer-b', '{"t":"unsub","a":"1","c":"presence-room","s":"2.1"}');
        self::assertSame([7], \array_map(static fn ($m) => $m->userId, $server->users($app, 'presence-room')));

        // Connection counts of the peers bound max_connections here.
        $link->deliver('peer-a', '{"t":"conns","a":"1","n":2}');
        self::assertTrue($server->open($app));
        self::assertSame('{"t":"conns","a":"1","n":1}', $link->sent[\count($link->sent) - 1]);
        self::assertFalse($server->open($app));
        $server->closed($app);

        // A peer's state replaces what was known of it; a peer gone takes everything with it.
        $link->deliver('peer-b', '{"t":"state","s":{"1":{"news":{"2.9":null,"2.8":null},"presence-room":{"2.9":["cat",1]}},"2":{"x":{"1.1":null}}}}');
        self::assertSame(3, $server->subscriptionCount($app, 'news'));
        self::assertSame([7, 'cat'], \array_map(static fn ($m) => $m->userId, $server->users($app, 'presence-room')));
        $link->gone('peer-a');
        self::assertSame(2, $server->subscriptionCount($app, 'news'));
        self::assertSame(['cat'], \array_map(static fn ($m) => $m->userId, $server->users($app, 'presence-room')));
        self::assertTrue($server->open($app));
        self::assertTrue($server->open($app));
        $link->gone('peer-b');
        self::assertSame([], $server->occupied($app));

        // Garbage, unknown apps and kinds: counted, nothing else changes.
        foreach (['not json', '[]', '{"t":"sub","a":"9","c":"news","s":"1.1"}', '{"t":"dance"}', '{"t":"send","a":"1","c":"news"}', '{"t":"conns","a":"1","n":"x"}'] as $bad) {
            $link->deliver('peer-c', $bad);
        }
        self::assertSame(6, $server->cluster->malformed);
        self::assertSame([], $server->occupied($app));

        // A peer dropped (its heartbeats lapsed) that speaks again is asked for its subscriptions.
        $link->sent = [];
        $link->deliver('peer-a', '{"t":"unsub","a":"1","c":"news","s":"1.1"}');
        self::assertSame(['{"t":"hello"}'], $link->sent);
        $link->deliver('peer-a', '{"t":"unsub","a":"1","c":"news","s":"1.2"}');
        self::assertSame(['{"t":"hello"}'], $link->sent);
    }

    public function testAHelloFromAPeerIsAnsweredWithThisWorkersStateAndConnections(): void
    {
        $link = self::link();
        $app = new PusherApp('1', 'key', 'secret', maxConnections: 10);
        $server = new PusherServer([$app], $link);
        $server->open($app);
        $link->sent = [];
        $link->deliver('peer-late', '{"t":"hello"}');
        // No subscriptions here: an empty state, and the connection count the limit needs.
        self::assertSame(['{"t":"state","s":{}}', '{"t":"conns","a":"1","n":1}'], $link->sent);
    }

    private static function link(): FakePeerLink
    {
        return new FakePeerLink();
    }
}
