<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\RawClient;
use Spindle\Tests\E2E\Support\ServerProcess;

/**
 * Task workers (--task-workers, or SPINDLE_TASK_WORKERS) and Spindle\task() through a real server
 * (tests/fixtures/apps/tasks.php): results from another process, errors, a crashed task worker
 * replaced, and bcrypt hashing that no longer holds up the worker's other requests.
 */
final class TaskWorkersTest extends E2ETestCase
{
    private static ?ServerProcess $server = null;

    private static function server(): ServerProcess
    {
        if (self::$server === null || !self::$server->isRunning()) {
            self::$server = ServerProcess::start(ServerProcess::fixture('tasks.php'), ['--workers=1', '--task-workers=2']);
        }

        return self::$server;
    }

    public static function tearDownAfterClass(): void
    {
        self::$server?->stop();
        self::$server = null;
        parent::tearDownAfterClass();
    }

    /** @return array<mixed> */
    private static function call(string $path): array
    {
        $response = self::rawRequest(self::server(), self::get($path, "Connection: close\r\n"));
        self::assertSame(200, $response->status, $response->raw);

        return $response->json();
    }

    public function testATaskRunsInATaskWorkerAndItsErrorsComeBack(): void
    {
        $pids = [];
        for ($i = 0; $i < 10; ++$i) {
            $data = self::call('/pid');
            self::assertIsInt($data['result'] ?? null, \json_encode($data) ?: '');
            self::assertNotSame($data['worker'], $data['result'], 'the task ran in another process');
            $pids[$data['result']] = true;
        }
        self::assertSame(['error' => 'Spindle\Server\Tasks\TaskFailed: The task threw DomainException: the task failed on purpose'], self::call('/throw'));
        self::assertStringContainsString('without laravel/serializable-closure', self::call('/closure')['error']);
    }

    public function testACrashedTaskWorkerFailsItsTaskAndIsReplaced(): void
    {
        $server = self::server();
        self::assertSame(['error' => 'Spindle\Server\Tasks\TaskFailed: The task worker exited while it ran the task'], self::call('/crash'));
        self::assertTrue($server->waitForLog('exited (signal 9); starting another', 5.0), $server->stderr());
        // Its replacement (or the other task worker) takes the next tasks.
        $seen = [];
        self::assertTrue(self::eventually(static function () use (&$seen): bool {
            $data = self::call('/pid');
            if (isset($data['result'])) {
                $seen[$data['result']] = true;
            }

            return \count($seen) >= 2;
        }, 10.0), 'two task workers answer again');
    }

    /**
     * A reload renews the task workers (a Laravel app boots in each: its new code must be loaded):
     * a task running during it finishes in its worker, then every task runs in a new task worker.
     */
    public function testAReloadRenewsTheTaskWorkersWithoutCuttingATask(): void
    {
        $server = self::server();
        $before = [];
        for ($i = 0; $i < 6; ++$i) {
            $before[] = self::call('/pid')['result'] ?? null;
        }
        $started = \sys_get_temp_dir() . '/spindle-slow-task-' . \bin2hex(\random_bytes(6));
        $slow = \proc_open(['curl', '--noproxy', '*', '-s', '--max-time', '20', $server->url('/slow?started=' . \rawurlencode($started))], [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes);
        self::assertIsResource($slow);
        // The slow task is running (its worker's other task worker answers meanwhile), then the reload.
        self::assertTrue(self::eventually(static fn (): bool => \is_file($started), 10.0), 'the slow task started');
        @\unlink($started);
        \exec(\implode(' ', \array_map('escapeshellarg', [\PHP_BINARY, \dirname(__DIR__, 2) . '/bin/spindle', 'reload', '--port=' . $server->port()])) . ' 2>&1', $output, $code);
        self::assertSame(0, $code, \implode("\n", $output));
        $answer = \json_decode((string) \stream_get_contents($pipes[1]), true);
        \proc_close($slow);
        self::assertIsArray($answer);
        self::assertIsInt($answer['result'] ?? null, \json_encode($answer) ?: '');
        $before[] = $answer['result'];
        $fresh = [];
        self::assertTrue(self::eventually(static function () use ($before, &$fresh): bool {
            $pid = self::call('/pid')['result'] ?? null;
            $fresh = \in_array($pid, $before, true) ? [] : [...$fresh, $pid];

            return \count($fresh) >= 6;
        }, 10.0), 'tasks run in new task workers after the reload');
        self::assertTrue($server->waitForLog('ended (status 0); starting another', 1.0), $server->stderr());
    }

    public function testHashingInTaskWorkersDoesNotHoldUpOtherRequests(): void
    {
        $server = self::server();
        self::call('/hello');
        // Four bcrypt hashes of cost 12 (about 0.25 s of CPU each) and, meanwhile, /hello.
        $hashes = [];
        $sent = \microtime(true);
        for ($i = 0; $i < 4; ++$i) {
            $client = new RawClient($server->port(), 30.0);
            $client->send(self::get('/hash?cost=12', "Connection: close\r\n"));
            $hashes[] = $client;
        }
        $hellos = [];
        $latencies = [];
        for ($i = 0; $i < 10; ++$i) {
            $started = \microtime(true);
            $response = self::rawRequest($server, self::get('/hello', "Connection: close\r\n"));
            $latencies[] = \microtime(true) - $started;
            self::assertSame(200, $response->status);
            $hellos[] = $response->json()['done'];
        }
        $hashDone = [];
        foreach ($hashes as $client) {
            $response = $client->readResponse(false, 30.0);
            self::assertSame(200, $response->status, $response->raw);
            self::assertTrue($response->json()['verified']);
            $hashDone[] = $response->json()['done'];
        }
        $allHashed = \microtime(true) - $sent;
        // The worker answered /hello while the hashes were still being computed elsewhere.
        self::assertLessThan(\max($hashDone), \max($hellos), 'every /hello was answered before the last hash');
        \sort($latencies);
        \fwrite(\STDERR, \sprintf("\n[task workers] /hello during 4 bcrypt(12) hashes and checks: median %.1f ms, max %.1f ms; the hashes took %.2f s\n", $latencies[5] * 1000, \max($latencies) * 1000, $allHashed));
    }

    public function testTaskWorkersRunAtALowerCpuPriority(): void
    {
        $server = self::server();
        $data = self::call('/pid');
        self::assertIsInt($data['result'] ?? null, \json_encode($data) ?: '');
        $nice = static function (int $pid): int {
            // /proc/PID/stat: the fields after "(comm) " start with the 3rd; nice is the 19th.
            $stat = (string) \file_get_contents("/proc/$pid/stat");

            return (int) \explode(' ', \substr($stat, (int) \strrpos($stat, ')') + 2))[19 - 3];
        };
        self::assertSame(\min(19, $nice($data['worker']) + 10), $nice($data['result']), 'nice +10 against the HTTP worker');
    }

    public function testTaskMetricsCountTasksAndThoseInFlight(): void
    {
        $server = ServerProcess::start(ServerProcess::fixture('tasks.php'), ['--workers=1', '--task-workers=1', '--metrics=127.0.0.1:0']);
        try {
            self::assertSame(1, \preg_match('#Metrics on http://127\.0\.0\.1:(\d+)/metrics#', $server->stderr(), $m), $server->stderr());
            $metrics = static function () use ($m): string {
                $client = new RawClient((int) $m[1]);
                $client->send(self::get('/metrics', "Connection: close\r\n"));

                return $client->readResponse()->body;
            };
            $sample = static fn (string $text, string $series): ?float => \preg_match('/^' . \preg_quote($series, '/') . ' (\S+)$/m', $text, $s) === 1 ? (float) $s[1] : null;
            // Two requests, each a hash and a check at cost 13, queued on one task worker.
            $clients = [];
            for ($i = 0; $i < 2; ++$i) {
                $client = new RawClient($server->port(), 60.0);
                $client->send(self::get('/hash?cost=13', "Connection: close\r\n"));
                $clients[] = $client;
            }
            self::assertTrue(self::eventually(static fn (): bool => ($sample($metrics(), 'spindle_tasks_in_flight') ?? 0.0) >= 1.0, 30.0), 'tasks in flight: ' . $metrics());
            foreach ($clients as $client) {
                $response = $client->readResponse(false, 60.0);
                self::assertSame(200, $response->status, $response->raw);
                self::assertTrue($response->json()['verified']);
            }
            self::assertTrue(self::eventually(static function () use ($metrics, $sample): bool {
                $text = $metrics();

                return $sample($text, 'spindle_tasks_in_flight') === 0.0
                    && $sample($text, 'spindle_tasks_total{outcome="ok"}') === 4.0
                    && $sample($text, 'spindle_task_duration_seconds_count') === 4.0;
            }, 10.0), 'four tasks counted, none left in flight: ' . $metrics());
        } finally {
            $server->stop();
        }
    }

    public function testTheTaskWorkersGoWithTheMaster(): void
    {
        $server = self::server();
        self::assertSame(1, \preg_match('/task worker\(s\) \(supervisor pid (\d+),/', $server->stderr(), $m), $server->stderr());
        $supervisor = (int) $m[1];
        self::assertTrue(\posix_kill($supervisor, 0));
        $server->stop();
        self::$server = null;
        self::assertTrue(self::eventually(static fn (): bool => !\posix_kill($supervisor, 0) || \str_contains((string) @\file_get_contents("/proc/$supervisor/stat"), ') Z '), 5.0), 'the supervisor exited');
    }
}
