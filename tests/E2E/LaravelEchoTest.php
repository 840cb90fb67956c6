<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Bridge\Pusher\PusherApp;
use Spindle\Bridge\Pusher\RequestSignature;
use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\LaravelFixture;
use Spindle\Tests\E2E\Support\ServerProcess;
use Spindle\Tests\Integration\Redis\RedisServer;
use Spindle\Tests\Support\Pusher\PusherTestClient;

/**
 * Laravel Echo with no second server: the Laravel 12 fixture, set up for broadcasting as
 * `php artisan install:broadcasting` does (BROADCAST_CONNECTION=reverb, REVERB_* pointing at the
 * app's own host and port), served by `spindle serve`; Laravel Echo and pusher-js from npm,
 * unmodified (tests/Support/pusher-client), connect to it, authorize private and presence
 * channels through the app's own /broadcasting/auth and channel callbacks, and receive what
 * broadcast() sends from a request (in process: no HTTP request to a Pusher server) and what the
 * signed HTTP API sends, and what broadcast() sends from a task worker (Spindle\task()).
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
        $server = ServerProcess::startThrough(['env', ...self::reverbEnv($app), 'SESSION_DRIVER=array'], LaravelFixture::path(LaravelFixture::LARAVEL_12), ['--workers=1']);
        try {
            $this->startEchoClient($server, $app);

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
            // Bob's whisper may have come before "ready" (Bob's 403 can be the last to settle).
            $rest = self::whispered($seen) ? [] : $this->until(static fn (array $line): bool => isset($line['whisper']), $seen);
            self::assertContains(['who' => 'ann', 'joining' => ['id' => 2, 'name' => 'user-2']], [...$seen, ...$rest]);
            self::assertContains(['who' => 'ann', 'whisper' => ['from' => 'bob']], [...$seen, ...$rest]);

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
     * broadcast() in a task worker (`Spindle\task(fn () => broadcast(...))`, --task-workers=1): the
     * task worker boots the app, its broadcaster hands the event back to the HTTP worker that sent
     * the task, and that worker publishes it: Echo's clients get it on the public, private and
     * encrypted channels, and two raw clients, one on each of the two workers, get it once each;
     * likewise when a queued job that the task runs with dispatch_sync() dispatches the event.
     * toOthers() works with the socket id taken in the request. A task worker killed and started
     * again by its supervisor broadcasts as well. And a process that is not Spindle's (an artisan
     * command, as `queue:work` is) broadcasts with Laravel's own driver and pusher/pusher-php-server
     * through the HTTP API, to the same subscribers.
     */
    public function testBroadcastFromATaskWorkerReachesEveryWorkerOnce(): void
    {
        $app = new PusherApp('echo-app', 'echo-key', 'echo-secret');
        $server = ServerProcess::startThrough(['env', ...self::reverbEnv($app), 'SESSION_DRIVER=array'], LaravelFixture::path(LaravelFixture::LARAVEL_12), ['--workers=2', '--task-workers=1']);
        $raw = [];
        try {
            // Raw clients on "news" until each of the two workers holds one (`spindle status` counts
            // each worker's WebSockets; no other client is connected yet), then Echo's two.
            $raw = self::onEveryWorker($server, $app, 2);
            foreach ($raw as $client) {
                $client->send(['event' => 'pusher:subscribe', 'data' => ['channel' => 'news']]);
                self::assertSame(['event' => 'pusher_internal:subscription_succeeded', 'data' => '{}', 'channel' => 'news'], $client->next());
            }
            $this->startEchoClient($server, $app);
            $seen = $this->until(static fn (array $line): bool => isset($line['ready']));
            $ready = $seen[\count($seen) - 1]['ready'];
            self::assertIsArray($ready);
            // Bob's whisper to Ann is the client's last observation before the broadcasts (it may
            // have come before "ready").
            if (!self::whispered($seen)) {
                $this->until(static fn (array $line): bool => isset($line['whisper']), $seen);
            }

            $pids = self::taskBroadcast($server, 'message=t1&order=1');
            $this->assertEveryoneGotIt('t1', $raw);
            // A queued job run in the task worker (dispatch_sync()) that dispatches the event.
            self::taskBroadcast($server, 'message=job&order=1&job=1');
            $this->assertEveryoneGotIt('job', $raw);
            // toOthers(): Ann's socket id, taken in the request, crosses with the event.
            self::curl(['-s', '-H', 'X-Socket-ID: ' . $ready['ann'], $server->url('/broadcast-task?message=t2&order=2&others=1')]);
            self::assertSame([['who' => 'bob', 'channel' => 'news', 'event' => ['message' => 't2', 'orderId' => 2]]], $this->until(static fn (array $line): bool => isset($line['event'])));
            foreach ($raw as $client) {
                self::assertSame(['event' => 'App\\Events\\FixtureBroadcast', 'data' => '{"message":"t2","orderId":2}', 'channel' => 'news'], $client->next());
            }

            // The supervisor starts another task worker: it broadcasts too.
            \posix_kill($pids['task_worker'], \SIGKILL);
            $again = self::taskBroadcast($server, 'message=t3&order=1');
            self::assertNotSame($pids['task_worker'], $again['task_worker']);
            $this->assertEveryoneGotIt('t3', $raw);

            // A process that is not Spindle's (as `php artisan queue:work`): Laravel's own driver
            // (pusher/pusher-php-server) through the HTTP API, which either worker fans out.
            $artisan = self::runCommand(['env', ...self::reverbEnv($app), 'REVERB_PORT=' . $server->port(), \PHP_BINARY, LaravelFixture::path(LaravelFixture::LARAVEL_12) . '/artisan', 'fixture:broadcast', 'cli']);
            self::assertSame("PusherBroadcaster\n", $artisan);
            $this->assertEveryoneGotIt('cli', $raw);
            foreach ($raw as $client) {
                self::assertNull($client->next(0.3), 'a broadcast came twice');
            }
            \fwrite($this->pipes[0], "stop\n");
        } finally {
            foreach ($raw as $client) {
                $client->close();
            }
            $server->stop();
        }
    }

    /**
     * Two workers and Reverb's scaling config (REVERB_SCALING_ENABLED, REDIS_HOST/REDIS_PORT of
     * the test's own redis-server): every worker subscribes to the Redis channel, Echo's presence
     * and whispers work whichever worker each client is on, and broadcast() from whichever worker
     * answers the request, or from a task worker, reaches every subscriber.
     */
    public function testEveryWorkerThroughRedisWithReverbsScalingConfig(): void
    {
        $redis = RedisServer::start();
        $app = new PusherApp('echo-app', 'echo-key', 'echo-secret');
        $server = ServerProcess::startThrough([
            'env', ...self::reverbEnv($app), 'SESSION_DRIVER=array', 'REVERB_SCALING_ENABLED=true', 'REDIS_HOST=127.0.0.1', 'REDIS_PORT=' . $redis->port,
        ], LaravelFixture::path(LaravelFixture::LARAVEL_12), ['--workers=2', '--task-workers=1']);
        try {
            $this->startEchoClient($server, $app);
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
            $rest = self::whispered($seen) ? [] : $this->until(static fn (array $line): bool => isset($line['whisper']), $seen);
            self::assertContains(['who' => 'ann', 'whisper' => ['from' => 'bob']], [...$seen, ...$rest]);
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
            // From a task worker: the HTTP worker that sent the task publishes it through Redis too.
            self::taskBroadcast($server, 'message=t&order=1');
            $this->assertEveryoneGotIt('t', []);
            \fwrite($this->pipes[0], "stop\n");
        } finally {
            $server->stop();
            $redis->stop();
        }
    }

    /**
     * Whether the client reported Bob's whisper among $seen.
     *
     * @param list<array<string, mixed>> $seen
     */
    private static function whispered(array $seen): bool
    {
        return \array_filter($seen, static fn (array $line): bool => isset($line['whisper'])) !== [];
    }

    /**
     * What $command writes on stdout (and stderr), once it exited 0.
     *
     * @param list<string> $command
     */
    private static function runCommand(array $command): string
    {
        $process = \proc_open($command, [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
        self::assertIsResource($process);
        $out = (string) \stream_get_contents($pipes[1]);
        $err = (string) \stream_get_contents($pipes[2]);
        self::assertSame(0, \proc_close($process), $out . $err);

        return $out . $err;
    }

    /**
     * The environment of the fixture's `reverb` broadcasting connection for $app, as
     * `install:broadcasting` writes it (the port is the server's own).
     *
     * @return list<string>
     */
    private static function reverbEnv(PusherApp $app): array
    {
        return [
            'FIXTURE_BROADCASTING=1', 'BROADCAST_CONNECTION=reverb', 'REVERB_APP_ID=' . $app->id, 'REVERB_APP_KEY=' . $app->key,
            'REVERB_APP_SECRET=' . $app->secret, 'REVERB_HOST=127.0.0.1', 'REVERB_SCHEME=http',
            'REVERB_ENCRYPTION_MASTER_KEY_BASE64=' . \base64_encode(\str_repeat('k', 32)),
        ];
    }

    private function startEchoClient(ServerProcess $server, PusherApp $app): void
    {
        $node = \proc_open(
            ['node', self::CLIENT_DIR . '/echo-client.mjs', (string) $server->port(), $app->key],
            [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['file', '/dev/null', 'w']],
            $this->pipes,
        );
        self::assertIsResource($node);
        $this->node = $node;
        \stream_set_blocking($this->pipes[1], false);
    }

    /**
     * GET /broadcast-task?$query: the pids of the HTTP worker and of the task worker that broadcast.
     *
     * @return array{worker: int, task_worker: int}
     */
    private static function taskBroadcast(ServerProcess $server, string $query): array
    {
        $answer = self::curl(['-s', $server->url('/broadcast-task?' . $query)])['out'];
        $pids = \json_decode($answer, true);
        self::assertIsArray($pids, $answer . $server->stderr());
        self::assertIsInt($pids['worker'] ?? null);
        self::assertIsInt($pids['task_worker'] ?? null);
        self::assertNotSame($pids['worker'], $pids['task_worker'], 'the task ran in the task worker');

        return ['worker' => $pids['worker'], 'task_worker' => $pids['task_worker']];
    }

    /**
     * Echo's four copies of order 1's broadcast $message (Ann: news, her private and encrypted
     * channels; Bob: news), and one on "news" for each raw client.
     *
     * @param list<PusherTestClient> $raw
     */
    private function assertEveryoneGotIt(string $message, array $raw): void
    {
        self::assertEqualsCanonicalizing([
            ['who' => 'ann', 'channel' => 'private-encrypted-vault.1', 'event' => ['message' => $message, 'orderId' => 1]],
            ['who' => 'ann', 'channel' => 'news', 'event' => ['message' => $message, 'orderId' => 1]],
            ['who' => 'bob', 'channel' => 'news', 'event' => ['message' => $message, 'orderId' => 1]],
            ['who' => 'ann', 'channel' => 'private-orders.1', 'event' => ['message' => $message, 'orderId' => 1]],
        ], $this->until(static fn (array $line): bool => isset($line['event']), [], 4));
        // In order: a copy that came twice would be read here instead of the next event.
        foreach ($raw as $client) {
            self::assertSame(['event' => 'App\\Events\\FixtureBroadcast', 'data' => '{"message":"' . $message . '","orderId":1}', 'channel' => 'news'], $client->next());
        }
    }

    /**
     * Raw Pusher clients, connected one by one until each of the server's $workers workers holds
     * at least one (as `spindle status` reports them: the workers report every second).
     *
     * @return list<PusherTestClient>
     */
    private static function onEveryWorker(ServerProcess $server, PusherApp $app, int $workers): array
    {
        $clients = [];
        $deadline = \microtime(true) + 30.0;
        while (\microtime(true) < $deadline && \count($clients) < 12) {
            $client = PusherTestClient::connect($server->port(), '/app/' . $app->key . '?protocol=7&client=js&version=8.4.0');
            $client->established();
            $clients[] = $client;
            do {
                $output = [];
                \exec(\implode(' ', \array_map('escapeshellarg', [\PHP_BINARY, \dirname(__DIR__, 2) . '/bin/spindle', 'status', '--json', '--port=' . $server->port()])), $output);
                $status = \json_decode(\implode("\n", $output), true);
                $counts = \array_map(static fn (array $worker): int => (int) ($worker['websockets'] ?? 0), \is_array($status) ? $status['workers'] ?? [] : []);
                if (\array_sum($counts) < \count($clients)) {
                    \usleep(200_000);
                }
            } while (\array_sum($counts) < \count($clients) && \microtime(true) < $deadline);
            if (\count($counts) === $workers && !\in_array(0, $counts, true)) {
                return $clients;
            }
        }
        self::fail('The raw clients did not reach every worker: ' . \json_encode($counts ?? []));
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
