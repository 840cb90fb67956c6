<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Bridge\Laravel\Broadcasting;

use Illuminate\Auth\Access\AuthorizationException;
use Illuminate\Broadcasting\BroadcastException;
use Illuminate\Http\Request;
use PHPUnit\Framework\TestCase;
use Spindle\Bridge\Laravel\Broadcasting\InProcessBroadcaster;
use Spindle\Bridge\Pusher\ChannelAuth;
use Spindle\Bridge\Pusher\EncryptedChannels;
use Spindle\Bridge\Pusher\PusherApp;
use Spindle\Bridge\Pusher\PusherEndpoints;
use Spindle\Bridge\Pusher\PusherServer;
use Spindle\Bridge\Pusher\TaskBroadcast;
use Spindle\Bridge\Pusher\TaskPublisher;
use Spindle\Server\Tasks\Frames;
use Spindle\Server\Tasks\TaskCaller;

/**
 * The in-process broadcaster's answers to /broadcasting/auth (what the server then checks), its
 * refusal to broadcast where no client can be connected, and, in a task worker, the broadcasts it
 * hands back to the task's caller. The Laravel 12 fixture's classes load
 * in a process of each test's own, so that no other test sees them.
 *
 * @runTestsInSeparateProcesses
 *
 * @preserveGlobalState disabled
 */
final class InProcessBroadcasterTest extends TestCase
{
    protected function setUp(): void
    {
        $autoload = \dirname(__DIR__, 4) . '/fixtures/laravel12-app/vendor/autoload.php';
        self::assertFileExists($autoload, 'The Laravel 12 fixture is not installed (scripts/test installs it)');
        require_once $autoload;
    }

    public function testAuthAnswersAreWhatTheServerAccepts(): void
    {
        $app = new PusherApp('1', 'key', 'secret', encryptionMasterKey: \str_repeat('m', 32));
        $broadcaster = new InProcessBroadcaster(new PusherServer([$app]), $app);
        $request = Request::create('/broadcasting/auth', 'POST', ['socket_id' => '12.34', 'channel_name' => 'private-orders.1']);
        self::assertSame(['auth' => ChannelAuth::sign($app, '12.34', 'private-orders.1')], $broadcaster->validAuthenticationResponse($request, true));

        $request = Request::create('/broadcasting/auth', 'POST', ['socket_id' => '12.34', 'channel_name' => 'private-encrypted-vault']);
        $answer = $broadcaster->validAuthenticationResponse($request, true);
        self::assertTrue(ChannelAuth::verify($app, $answer['auth'], '12.34', 'private-encrypted-vault'));
        self::assertSame(\base64_encode(EncryptedChannels::sharedSecret(\str_repeat('m', 32), 'private-encrypted-vault')), $answer['shared_secret'] ?? null);

        // A socket id that is not one refuses before any channel callback runs.
        $this->expectException(AuthorizationException::class);
        $broadcaster->auth(Request::create('/broadcasting/auth', 'POST', ['socket_id' => '12', 'channel_name' => 'public']));
    }

    public function testBroadcastingWhereNoClientCanBeIsAnError(): void
    {
        $app = new PusherApp('1', 'key', 'secret');
        $server = new PusherServer([$app]);
        $broadcaster = new InProcessBroadcaster($server, $app);
        try {
            $broadcaster->broadcast(['news'], 'Event', ['a' => 1]);
            self::fail('A broadcast from a process that serves no connections went nowhere without an error');
        } catch (BroadcastException $e) {
            self::assertStringContainsString('serves no Pusher connections', $e->getMessage());
        }
        new PusherEndpoints($server);
        $broadcaster->broadcast(['news'], 'Event', ['a' => 1]);
        $this->expectException(BroadcastException::class);
        $broadcaster->broadcast(['news'], 'Event', ['a' => \str_repeat('x', 10_000)]);
    }

    public function testInATaskWorkerTheBroadcastGoesBackToTheTasksCaller(): void
    {
        $app = new PusherApp('1', 'key', 'secret', encryptionMasterKey: \str_repeat('m', 32));
        $caller = new TaskCaller();
        $broadcaster = new InProcessBroadcaster(new TaskPublisher($caller), $app);
        try {
            $broadcaster->broadcast(['news'], 'Event', ['a' => 1]);
            self::fail('A broadcast outside a task went somewhere');
        } catch (BroadcastException $e) {
            self::assertStringContainsString('outside a task', $e->getMessage());
        }

        $pair = \stream_socket_pair(\STREAM_PF_UNIX, \STREAM_SOCK_STREAM, \STREAM_IPPROTO_IP);
        self::assertIsArray($pair);
        $caller->attach($pair[0]);
        // toOthers(): the socket of the request that made the event, left out everywhere.
        $broadcaster->broadcast(['news', 'private-encrypted-vault', 'private-orders.1'], 'Event', ['a' => 1, 'socket' => '12.34']);
        $notes = \array_map(static fn (string $payload): TaskBroadcast => TaskBroadcast::decode(\unserialize($payload)[2]), (new Frames())->push((string) \fread($pair[1], 65536)));
        self::assertCount(2, $notes);
        [$sealed, $plain] = $notes;
        self::assertEquals(new TaskBroadcast('1', ['news', 'private-orders.1'], 'Event', '{"a":1}', '12.34'), $plain);
        self::assertSame(['private-encrypted-vault'], $sealed->channels);
        self::assertSame('12.34', $sealed->exceptSocketId);
        $box = \json_decode($sealed->data, true);
        self::assertIsArray($box);
        self::assertSame('{"a":1}', \sodium_crypto_secretbox_open(\base64_decode($box['ciphertext']), \base64_decode($box['nonce']), EncryptedChannels::sharedSecret(\str_repeat('m', 32), 'private-encrypted-vault')));
    }
}
