<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Bridge\Pusher;

use PHPUnit\Framework\TestCase;
use Spindle\Bridge\Pusher\PusherApp;
use Spindle\Bridge\Pusher\PusherServer;
use Spindle\Bridge\Pusher\TaskBroadcast;
use Spindle\Bridge\Pusher\TaskPublisher;
use Spindle\Server\Tasks\Frames;
use Spindle\Server\Tasks\TaskCaller;
use Spindle\Tests\Support\Pusher\FakePeerLink;

/**
 * A task worker's broadcast on its way back (TaskBroadcast, as TaskPublisher writes it through a
 * TaskCaller) and its delivery by the HTTP worker's PusherServer: what it decodes to, what it
 * refuses, and that the server publishes it once to its peers, as its own broadcast.
 */
final class TaskBroadcastTest extends TestCase
{
    public function testItCrossesWhole(): void
    {
        foreach ([
            new TaskBroadcast('1', ['news', 'private-orders.1'], 'App\Events\Shipped', '{"id":1,"name":"Zoë \u2603"}', '123.456'),
            new TaskBroadcast('app', ['presence-room'], 'e', '', null),
        ] as $broadcast) {
            $decoded = TaskBroadcast::decode($broadcast->encode());
            self::assertEquals($broadcast, $decoded);
            self::assertSame($broadcast->exceptSocketId, $decoded->exceptSocketId);
        }
    }

    public function testWhatIsNoBroadcastIsRefused(): void
    {
        foreach ([
            '', 'not json', '[]', '{"a":"1","c":["news"],"e":"e"}', '{"a":1,"c":["news"],"e":"e","d":"{}"}',
            '{"a":"1","c":[],"e":"e","d":"{}"}', '{"a":"1","c":"news","e":"e","d":"{}"}', '{"a":"1","c":{"x":"news"},"e":"e","d":"{}"}',
            '{"a":"1","c":["news",7],"e":"e","d":"{}"}', '{"a":"1","c":["news"],"e":"e","d":"{}","x":5}', \str_repeat('[', 100),
        ] as $bad) {
            try {
                TaskBroadcast::decode($bad);
                self::fail('Decoded ' . $bad);
            } catch (\InvalidArgumentException $e) {
                self::assertStringContainsString('broadcast', $e->getMessage());
            }
        }
    }

    public function testTheHttpWorkerPublishesItOnceToItsPeers(): void
    {
        $link = new FakePeerLink();
        $app = new PusherApp('1', 'key', 'secret');
        $server = new PusherServer([$app], $link);
        $link->sent = [];
        self::assertSame(0, (new TaskBroadcast('1', ['news', 'private-a'], 'Shipped', '{"id":1}', '1.2'))->deliver($server));
        self::assertSame([
            '{"t":"send","a":"1","c":"news","f":"{\"event\":\"Shipped\",\"data\":\"{\\\\\"id\\\\\":1}\",\"channel\":\"news\"}","x":"1.2"}',
            '{"t":"send","a":"1","c":"private-a","f":"{\"event\":\"Shipped\",\"data\":\"{\\\\\"id\\\\\":1}\",\"channel\":\"private-a\"}","x":"1.2"}',
        ], $link->sent);

        $this->expectException(\InvalidArgumentException::class);
        $this->expectExceptionMessage('app id 2');
        (new TaskBroadcast('2', ['news'], 'Shipped', '{}'))->deliver($server);
    }

    public function testTheTaskPublisherWritesANoteWhileATaskRuns(): void
    {
        [$worker, $http] = self::pair();
        $caller = new TaskCaller();
        $publisher = new TaskPublisher($caller);
        $app = new PusherApp('1', 'key', 'secret');
        try {
            $publisher->publish($app, ['news'], 'Shipped', '{}');
            self::fail('A broadcast outside a task went somewhere');
        } catch (\RuntimeException $e) {
            self::assertStringContainsString('outside a task', $e->getMessage());
        }

        $caller->attach($worker);
        self::assertSame(0, $publisher->publish($app, ['news', 'private-a'], 'Shipped', '{"id":1}', '1.2'));
        self::assertSame(0, $publisher->publish($app, [], 'Nothing', '{}'));
        $payloads = (new Frames())->push((string) \fread($http, 65536));
        self::assertCount(1, $payloads);
        self::assertTrue(Frames::isNote($payloads[0]));
        $note = \unserialize($payloads[0]);
        self::assertSame(['note', TaskBroadcast::TOPIC], [$note[0], $note[1]]);
        self::assertEquals(new TaskBroadcast('1', ['news', 'private-a'], 'Shipped', '{"id":1}', '1.2'), TaskBroadcast::decode($note[2]));

        // The caller gave up: the broadcast reached nobody, and the task is told.
        \fclose($http);
        $this->expectException(\RuntimeException::class);
        $this->expectExceptionMessage('is gone');
        \set_error_handler(static fn (): bool => true);
        try {
            $publisher->publish($app, ['news'], 'Shipped', \str_repeat('x', 300000));
        } finally {
            \restore_error_handler();
        }
    }

    /** @return array{resource, resource} */
    private static function pair(): array
    {
        $pair = \stream_socket_pair(\STREAM_PF_UNIX, \STREAM_SOCK_STREAM, \STREAM_IPPROTO_IP);
        self::assertIsArray($pair);

        return [$pair[0], $pair[1]];
    }
}
