<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Bridge\Pusher\PusherApp;
use Spindle\Bridge\Pusher\RequestSignature;
use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\ServerProcess;
use Spindle\Tests\Support\Pusher\PusherTestClient;

/**
 * Reloads and crashes with Pusher clients connected (tests/fixtures/apps/pusher.php,
 * --workers=2): a reload (SIGHUP) closes every Pusher connection with 4200, and pusher-js from
 * npm, unmodified, reconnects at once, to a worker of the new generation (the old ones are gone),
 * resubscribes and receives what is published next; after SIGKILL of every worker it reconnects
 * to the workers that replace them.
 */
final class PusherReconnectTest extends E2ETestCase
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
        if (!\is_file(self::CLIENT_DIR . '/node_modules/pusher-js/package.json')) {
            $process = \proc_open(['npm', 'install', '--no-audit', '--no-fund', '--silent'], [1 => ['file', '/dev/null', 'w'], 2 => ['pipe', 'w']], $pipes, self::CLIENT_DIR);
            self::assertIsResource($process);
            $errors = (string) \stream_get_contents($pipes[2]);
            self::assertSame(0, \proc_close($process), 'npm install of pusher-js failed: ' . $errors);
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

    public function testReloadAndCrashSendPusherJsToTheNewWorkers(): void
    {
        $server = ServerProcess::start(ServerProcess::fixture('pusher.php'), ['--workers=2']);
        try {
            $node = \proc_open(
                ['node', self::CLIENT_DIR . '/reconnect-client.mjs', (string) $server->port(), 'app-key'],
                [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['file', '/dev/null', 'w']],
                $this->pipes,
            );
            self::assertIsResource($node);
            $this->node = $node;
            \stream_set_blocking($this->pipes[1], false);
            $first = $this->until('subscribed')['subscribed'];
            $raw = PusherTestClient::connect($server->port());
            $raw->established();
            $this->publishAndSee($server, 'before');

            // Reload: 4200 to every Pusher connection; pusher-js is back on a new worker.
            $old = $server->workerPids();
            self::assertCount(2, $old);
            $server->signal(\SIGHUP);
            self::assertSame(4200, $raw->waitForClose(10.0));
            $second = $this->until('subscribed')['subscribed'];
            self::assertNotSame($first, $second);
            $this->waitForWorkersOtherThan($server, $old);
            $this->publishAndSee($server, 'after reload');

            // Crash: every worker killed; pusher-js reconnects to their replacements.
            $killed = $server->workerPids();
            foreach ($killed as $pid) {
                \posix_kill($pid, \SIGKILL);
            }
            $third = $this->until('subscribed', 15.0)['subscribed'];
            self::assertNotSame($second, $third);
            $this->waitForWorkersOtherThan($server, $killed);
            $this->publishAndSee($server, 'after crash');
            \fwrite($this->pipes[0], "stop\n");
        } finally {
            $server->stop();
        }
    }

    private function publishAndSee(ServerProcess $server, string $text): void
    {
        $app = new PusherApp('1', 'app-key', 'app-secret');
        $path = '/apps/1/events';
        $body = \json_encode(['name' => 'Story', 'channel' => 'news', 'data' => \json_encode(['text' => $text])], \JSON_THROW_ON_ERROR);
        $query = RequestSignature::signedQuery($app, 'POST', $path, $body, \time());
        self::assertSame('{}', self::curl(['-s', '-H', 'Content-Type: application/json', '--data-binary', $body, $server->url($path . '?' . \http_build_query($query))])['out']);
        self::assertSame(['story' => ['text' => $text]], $this->until('story'));
    }

    /** @param list<int> $old */
    private function waitForWorkersOtherThan(ServerProcess $server, array $old): void
    {
        $deadline = \microtime(true) + 15.0;
        do {
            $now = $server->workerPids();
            if (\count($now) === 2 && \array_intersect($now, $old) === []) {
                return;
            }
            // Waits on the client's output meanwhile (it says nothing unless something changes).
            $read = [$this->pipes[1]];
            $write = $except = null;
            @\stream_select($read, $write, $except, 0, 100_000);
        } while (\microtime(true) < $deadline);
        self::fail('The old workers are still there: ' . \implode(', ', $server->workerPids()));
    }

    /**
     * The client's next observation with $key, skipping state changes (at most $timeout seconds).
     *
     * @return array<string, mixed>
     */
    private function until(string $key, float $timeout = 10.0): array
    {
        $deadline = \microtime(true) + $timeout;
        $seen = [];
        while (\microtime(true) < $deadline) {
            while (($at = \strpos($this->buffer, "\n")) !== false) {
                $line = \json_decode(\substr($this->buffer, 0, $at), true, 32, \JSON_THROW_ON_ERROR);
                $this->buffer = \substr($this->buffer, $at + 1);
                \assert(\is_array($line));
                if (\array_key_exists($key, $line)) {
                    return $line;
                }
                $seen[] = $line;
            }
            $read = [$this->pipes[1]];
            $write = $except = null;
            if (@\stream_select($read, $write, $except, 0, 200_000) > 0) {
                $this->buffer .= (string) \fread($this->pipes[1], 65536);
            }
        }
        self::fail(\sprintf('pusher-js said no "%s" within %s s; it said: %s', $key, $timeout, \json_encode($seen)));
    }
}
