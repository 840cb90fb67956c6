<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Bridge\Pusher\PusherApp;
use Spindle\Bridge\Pusher\RequestSignature;
use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\LaravelFixture;
use Spindle\Tests\E2E\Support\ServerProcess;
use Spindle\Tests\Integration\Redis\RedisServer;

/**
 * Laravel Echo with no second server: the Laravel 12 fixture, set up for broadcasting as
 * `php artisan install:broadcasting` does (BROADCAST_CONNECTION=reverb, REVERB_* pointing at the
 * app's own host and port), served by `spindle serve`; Laravel Echo and pusher-js from npm,
 * unmodified (tests/Support/pusher-client), connect to it, authorize private and presence
 * channels through the app's own /broadcasting/auth and channel callbacks, and receive what
 * broadcast() sends from a request (in process: no HTTP request to a Pusher server) and what the
 * signed HTTP API sends.
 */
final class LaravelEchoTest extends E2ETestCase
{
    private const CLIENT_DIR = __DIR__ . '/../Support/pusher-client';

    /** @var resource|null */
    private $node = null;
    /** @var array<int, resource> */
    private array $pipes = [];
    private string $buffer = '';

    public static function setUpBeforeClass(): void
    {
        parent::setUpBeforeClass();
        if (!\is_file(self::CLIENT_DIR . '/node_modules/laravel-echo/package.json') || !\is_file(self::CLIENT_DIR . '/node_modules/pusher-js/package.json')) {
            $process = \proc_open(['npm', 'install', '--no-audit', '--no-fund', '--silent'], [1 => ['file', '/dev/null', 'w'], 2 => ['pipe', 'w']], $pipes, self::CLIENT_DIR);
            self::assertIsResource($process);
            $errors = (string) \stream_get_contents($pipes[2]);
            self::assertSame(0, \proc_close($process), 'npm install of laravel-echo and pusher-js failed: ' . $errors);
        }
    }

    protected function tearDown(): void
    {
        if ($this->node !== null) {
            $status = \proc_get_status($this->node);
            if ($status['running']) {
                \posix_kill($status['pid'], \SIGTERM);
            }
            \proc_close($this->node);
            $this->node = null;
        }
        parent::tearDown();
    }

    public function testLaravelEchoOnTheAppsOwnPort(): void
    {
        $app = new PusherApp('echo-app', 'echo-key', 'echo-secret');
        $server = ServerProcess::startThrough([
            'env', 'FIXTURE_BROADCASTING=1', 'BROADCAST_CONNECTION=reverb', 'REVERB_APP_ID=' . $app->id, 'REVERB_APP_KEY=' . $app->key,
            'REVERB_APP_SECRET=' . $app->secret, 'REVERB_HOST=127.0.0.1', 'REVERB_SCHEME=http', 'SESSION_DRIVER=array',
            'REVERB_ENCRYPTION_MASTER_KEY_BASE64=' . \base64_encode(\str_repeat('k', 32)),
        ], LaravelFixture::path(LaravelFixture::LARAVEL_12), ['--workers=1']);
        try {
            $node = \proc_open(
                ['node', self::CLIENT_DIR . '/echo-client.mjs', (string) $server->port(), $app->key],
                [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['file', '/dev/null', 'w']],
                $this->pipes,
            );
            self::assertIsResource($node);
            $this->node = $node;
            \stream_set_blocking($this->pipes[1], false);

            $seen = $this->until(static fn (array $line): bool => isset($line['ready']));
            $ready = $seen[\count($seen) - 1]['ready'];
            self::assertIsArray($ready);
            self::assertMatchesRegularExpression('/\A\d+\.\d+\z/', $ready['ann']);
            self::assertNotSame($ready['ann'], $ready['bob']);
            // Presence: Ann was alone, then saw Bob join, then his whisper; Bob was refused
            // private-orders.1 by the channel callback (403 from /broadcasting/auth).
            self::assertContains(['who' => 'ann', 'here' => [['id' => 1, 'name' => 'user-1']]], $seen);
            self::assertContains(['who' => 'bob', 'here' => [['id' => 1, 'name' => 'user-1'], ['id' => 2, 'name' => 'user-2']]], $seen);
            self::assertContains(['who' => 'bob', 'channel' => 'private-orders.1', 'error' => 403], $seen);
            $rest = $this->until(static fn (array $line): bool => isset($line['whisper']), $seen);
            self::assertContains(['who' => 'ann', 'joining' => ['id' => 2, 'name' => 'user-2']], [...$seen, ...$rest]);
            self::assertContains(['who' => 'ann', 'whisper' => ['from' => 'bob']], $rest);

            // broadcast() from a request: in process, to the public, the private and the encrypted
            // channel (sealed by the broadcaster, opened by pusher-js with the secret /broadcasting/auth gave).
            self::assertSame('InProcessBroadcaster', self::curl(['-s', $server->url('/broadcast?message=first&order=1')])['out']);
            $events = $this->until(static fn (array $line): bool => isset($line['event']), [], 4);
            self::assertEqualsCanonicalizing([
                ['who' => 'ann', 'channel' => 'private-encrypted-vault.1', 'event' => ['message' => 'first', 'orderId' => 1]],
                ['who' => 'ann', 'channel' => 'news', 'event' => ['message' => 'first', 'orderId' => 1]],
                ['who' => 'bob', 'channel' => 'news', 'event' => ['message' => 'first', 'orderId' => 1]],
                ['who' => 'ann', 'channel' => 'private-orders.1', 'event' => ['message' => 'first', 'orderId' => 1]],
            ], $events);
            // Another order's private channel, toOthers() with Ann's socket id: only Bob's public copy.
            self::curl(['-s', '-H', 'X-Socket-ID: ' . $ready['ann'], $server->url('/broadcast?message=second&order=2&others=1')]);
            self::assertSame([['who' => 'bob', 'channel' => 'news', 'event' => ['message' => 'second', 'orderId' => 2]]], $this->until(static fn (array $line): bool => isset($line['event'])));

            // The HTTP API, signed with the app's secret, for senders outside the process.
            $body = \json_encode(['name' => 'App\\Events\\FixtureBroadcast', 'channels' => ['news'], 'data' => '{"message":"api","orderId":0}'], \JSON_THROW_ON_ERROR);
            $path = '/apps/echo-app/events';
            $query = RequestSignature::signedQuery($app, 'POST', $path, $body, \time());
            $answer = self::curl(['-s', '-H', 'Content-Type: application/json', '--data-binary', $body, $server->url($path . '?' . \http_build_query($query))]);
            self::assertSame('{}', $answer['out']);
            self::assertEqualsCanonicalizing([
                ['who' => 'ann', 'channel' => 'news', 'event' => ['message' => 'api', 'orderId' => 0]],
                ['who' => 'bob', 'channel' => 'news', 'event' => ['message' => 'api', 'orderId' => 0]],
            ], $this->until(static fn (array $line): bool => isset($line['event']), [], 2));

            // Ann leaves the room: Bob sees her go.
            \fwrite($this->pipes[0], "leave\n");
            self::assertSame([['who' => 'bob', 'leaving' => ['id' => 1, 'name' => 'user-1']]], $this->until(static fn (array $line): bool => isset($line['leaving'])));
            \fwrite($this->pipes[0], "stop\n");
        } finally {
            $server->stop();
        }
    }

    /**
     * Two workers and Reverb's scaling config (REVERB_SCALING_ENABLED, REDIS_HOST/REDIS_PORT of
     * the test's own redis-server): every worker subscribes to the Redis channel, Echo's presence
     * and whispers work whichever worker each client is on, and broadcast() from whichever worker
     * answers the request reaches every subscriber.
     */
    public function testEveryWorkerThroughRedisWithReverbsScalingConfig(): void
    {
        $redis = RedisServer::start();
        $app = new PusherApp('echo-app', 'echo-key', 'echo-secret');
        $server = ServerProcess::startThrough([
            'env', 'FIXTURE_BROADCASTING=1', 'BROADCAST_CONNECTION=reverb', 'REVERB_APP_ID=' . $app->id, 'REVERB_APP_KEY=' . $app->key,
            'REVERB_APP_SECRET=' . $app->secret, 'REVERB_HOST=127.0.0.1', 'REVERB_SCHEME=http', 'SESSION_DRIVER=array',
            'REVERB_ENCRYPTION_MASTER_KEY_BASE64=' . \base64_encode(\str_repeat('k', 32)),
            'REVERB_SCALING_ENABLED=true', 'REDIS_HOST=127.0.0.1', 'REDIS_PORT=' . $redis->port,
        ], LaravelFixture::path(LaravelFixture::LARAVEL_12), ['--workers=2']);
        try {
            $node = \proc_open(
                ['node', self::CLIENT_DIR . '/echo-client.mjs', (string) $server->port(), $app->key],
                [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['file', '/dev/null', 'w']],
                $this->pipes,
            );
            self::assertIsResource($node);
            $this->node = $node;
            \stream_set_blocking($this->pipes[1], false);
            $seen = $this->until(static fn (array $line): bool => isset($line['ready']));
            // Bob joins on hearing Ann is in. Across Redis the other worker learns of Ann from a
            // message of her worker's, which a machine under load can deliver after Bob's join
            // (his worker then sends him member_added): his first list has himself, and Ann
            // only if her worker's message came first. The other test (one worker) and
            // PusherWorkersTest (the master's relay) check the whole list.
            $bobsList = \array_values(\array_filter($seen, static fn (array $line): bool => ($line['who'] ?? '') === 'bob' && isset($line['here'])));
            self::assertCount(1, $bobsList, \json_encode($seen, \JSON_THROW_ON_ERROR));
            self::assertContains(['id' => 2, 'name' => 'user-2'], $bobsList[0]['here']);
            self::assertContains(\count($bobsList[0]['here']), [1, 2]);
            $rest = $this->until(static fn (array $line): bool => isset($line['whisper']), $seen);
            self::assertContains(['who' => 'ann', 'whisper' => ['from' => 'bob']], $rest);
            // Both workers are subscribed to Reverb's scaling channel (Spindle's messages on "reverb:spindle").
            $numsub = \trim((string) \shell_exec('redis-cli -p ' . $redis->port . ' PUBSUB NUMSUB reverb:spindle'));
            self::assertSame("reverb:spindle\n2", $numsub);
            for ($i = 1; $i <= 4; ++$i) {
                self::assertSame('InProcessBroadcaster', self::curl(['-s', $server->url('/broadcast?message=m' . $i . '&order=1')])['out']);
                self::assertEqualsCanonicalizing([
                    ['who' => 'ann', 'channel' => 'private-encrypted-vault.1', 'event' => ['message' => 'm' . $i, 'orderId' => 1]],
                    ['who' => 'ann', 'channel' => 'news', 'event' => ['message' => 'm' . $i, 'orderId' => 1]],
                    ['who' => 'bob', 'channel' => 'news', 'event' => ['message' => 'm' . $i, 'orderId' => 1]],
                    ['who' => 'ann', 'channel' => 'private-orders.1', 'event' => ['message' => 'm' . $i, 'orderId' => 1]],
                ], $this->until(static fn (array $line): bool => isset($line['event']), [], 4));
            }
            \fwrite($this->pipes[0], "stop\n");
        } finally {
            $server->stop();
            $redis->stop();
        }
    }

    /**
     * The client's observations up to and including the $count-th that $stop accepts (at most 10 s).
     *
     * @param \Closure(array<string, mixed>): bool $stop
     * @param list<array<string, mixed>> $before what was read already, for the failure message
     *
     * @return list<array<string, mixed>>
     */
    private function until(\Closure $stop, array $before = [], int $count = 1): array
    {
        $lines = [];
        $deadline = \microtime(true) + 10.0;
        while (\microtime(true) < $deadline) {
            while (($at = \strpos($this->buffer, "\n")) !== false) {
                $line = \json_decode(\substr($this->buffer, 0, $at), true, 32, \JSON_THROW_ON_ERROR);
                $this->buffer = \substr($this->buffer, $at + 1);
                \assert(\is_array($line));
                self::assertArrayNotHasKey('timeout', $line, 'The Echo client timed out waiting for: ' . \json_encode($line));
                self::assertArrayNotHasKey('wrongly', $line);
                $lines[] = $line;
                if ($stop($line) && --$count === 0) {
                    return $lines;
                }
            }
            $read = [$this->pipes[1]];
            $write = $except = null;
            if (@\stream_select($read, $write, $except, 0, 200_000) === 1) {
                $bytes = \fread($this->pipes[1], 65536);
                if ($bytes === '' || $bytes === false) {
                    if (\feof($this->pipes[1])) {
                        break;
                    }
                    continue;
                }
                $this->buffer .= $bytes;
            }
        }
        self::fail('The Echo client did not report what was awaited; it reported: ' . \json_encode([...$before, ...$lines]));
    }
}
