<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Supervisor\ControlClient;
use Spindle\Supervisor\PidFile;
use Spindle\Tests\E2E\Support\BackgroundCommand;
use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\LoadClients;
use Spindle\Tests\E2E\Support\RawClient;
use Spindle\Tests\E2E\Support\ServerProcess;

/**
 * The master at work, seen from outside: crashed and killed workers are replaced, workers are
 * recycled (--max-memory, --max-requests) and reloaded under load without losing a request,
 * stuck requests time out, and the status/stop/reload commands, --daemon and --watch work.
 *
 * Every server here gets an explicit --pid-file in a temporary directory (its control socket
 * sits next to it). Load comes from LoadClients: many non-blocking clients driven by
 * stream_select in this process, so the test can act (kill, reload, poll) while they run.
 * Commands such as `bin/spindle reload` run through BackgroundCommand for the same reason.
 *
 * @group slow
 */
final class SupervisorTest extends E2ETestCase
{
    private const ROOT = __DIR__ . '/../..';
    /** Seconds after which a reload that has not finished fails its test: only a hang gets there. */
    private const HANG_BOUND = 120.0;

    /** @var list<ServerProcess> */
    private array $servers = [];
    /** @var list<string> */
    private array $directories = [];
    /** @var list<string> pid files of daemons started by a test, killed in tearDown if still running */
    private array $daemonPidFiles = [];

    protected function tearDown(): void
    {
        foreach ($this->servers as $server) {
            $server->stop();
        }
        $this->servers = [];
        foreach ($this->daemonPidFiles as $pidFile) {
            $pid = PidFile::read($pidFile);
            if ($pid !== null && PidFile::isRunning($pid)) {
                $workers = self::childrenOf($pid);
                \posix_kill($pid, \SIGKILL);
                foreach ($workers as $worker) {
                    \posix_kill($worker, \SIGKILL);
                }
            }
        }
        $this->daemonPidFiles = [];
        foreach ($this->directories as $directory) {
            self::removeTree($directory);
        }
        $this->directories = [];
    }

    // 1. Crash restart -------------------------------------------------------------------------

    public function testWorkerKilledUnderLoadIsReplacedWithinASecond(): void
    {
        [$server, $pidFile] = $this->serve(ServerProcess::fixture('delay.php'), ['--workers=2']);
        $before = $server->workerPids();
        self::assertCount(2, $before);
        $victim = $before[0];

        $load = new LoadClients($server->port(), 4, keepAlive: false, keepRecords: true);
        $killedAt = null;
        $replacedAt = null;
        $newPid = null;
        $begin = \microtime(true);
        $load->run(2.0, static function (float $now) use ($server, $victim, $before, $begin, &$killedAt, &$replacedAt, &$newPid): void {
            if ($killedAt === null && $now - $begin >= 0.5) {
                \posix_kill($victim, \SIGKILL);
                $killedAt = \microtime(true);
            }
            if ($killedAt !== null && $replacedAt === null) {
                $new = \array_values(\array_diff($server->workerPids(), $before));
                if ($new !== []) {
                    $replacedAt = \microtime(true);
                    $newPid = $new[0];
                }
            }
        });

        self::assertNotNull($killedAt);
        self::assertNotNull($replacedAt, 'no replacement worker appeared: ' . $server->stderr());
        self::assertIsInt($newPid);
        self::assertLessThan(1.0, $replacedAt - $killedAt, 'the replacement took too long');
        self::assertNotContains($victim, $server->workerPids());
        self::assertContains($newPid, $server->workerPids());
        self::assertTrue($server->waitForLog("Worker {$victim} was killed by signal 9; restarting it", 1.0), $server->stderr());

        $status = self::controlStatus($pidFile);
        $restarted = \array_values(\array_filter($status['workers'], static fn (array $w): bool => $w['restarts'] >= 1));
        self::assertCount(1, $restarted, \json_encode($status, \JSON_PRETTY_PRINT) ?: '');
        self::assertSame($newPid, $restarted[0]['pid']);

        // Requests in flight on the killed worker (or queued on its listening socket) may fail:
        // that is what SIGKILL does. Every request begun after the replacement appeared succeeds,
        // and plenty of them were served, by the new worker too.
        $late = \array_filter($load->records, static fn (array $r): bool => $r['start'] > $replacedAt);
        $lateFailures = \array_filter($late, static fn (array $r): bool => $r['error'] !== null || $r['status'] !== 200);
        self::assertGreaterThan(20, \count($late));
        self::assertSame([], \array_values($lateFailures));
        self::assertLessThanOrEqual(10, $load->failed + $load->socketErrors, $load->summary());
        self::assertArrayHasKey($newPid, $load->pids, 'the new worker served nothing: ' . $load->summary());
        self::reportFigures('kill -9 under load', \sprintf('replacement after %.0f ms; %s', ($replacedAt - $killedAt) * 1000, $load->summary()));
    }

    // 2. and 3. Recycling ----------------------------------------------------------------------

    public function testLeakingWorkerIsRecycledAtMaxMemoryWithoutFailedRequests(): void
    {
        [$server] = $this->serve(ServerProcess::fixture('leak.php'), ['--workers=1', '--max-memory=48']);
        $first = $server->workerPids();
        self::assertCount(1, $first);

        $retiredAt = [];
        $tookOverAt = [];
        $seen = 0;
        $load = new LoadClients($server->port(), 1, keepAlive: false);
        $load->run(30.0, static function () use ($server, &$retiredAt, &$tookOverAt, &$seen): void {
            // Timestamps of the log lines as they appear (the log has whole seconds only).
            $log = $server->stderr();
            if (\strlen($log) === $seen) {
                return;
            }
            $seen = \strlen($log);
            $now = \microtime(true);
            \preg_match_all('/Recycling worker (\d+) \(max-memory\)/', $log, $m);
            foreach ($m[1] as $pid) {
                $retiredAt[(int) $pid] ??= $now;
            }
            \preg_match_all('/Worker \d+ took over from worker (\d+) \(max-memory\)/', $log, $m);
            foreach ($m[1] as $pid) {
                $tookOverAt[(int) $pid] ??= $now;
            }
        }, maxRequests: 150, tickInterval: 0.0);

        self::assertSame(150, $load->completed(), $load->summary());
        self::assertSame(0, $load->failed + $load->socketErrors, $load->summary());
        self::assertGreaterThanOrEqual(2, \count($load->pids), 'the worker was never replaced: ' . $load->summary() . "\n" . $server->stderr());
        self::assertArrayHasKey($first[0], $retiredAt, $server->stderr());
        self::assertStringContainsString('Worker asks to be replaced (max-memory)', $server->stderr());
        self::assertTrue($server->waitForLog(\sprintf('Worker %d (generation 1) drained and exited', $first[0]), 2.0), $server->stderr());
        self::assertNotContains($first[0], $server->workerPids());

        $timings = [];
        foreach ($retiredAt as $pid => $at) {
            if (isset($tookOverAt[$pid])) {
                $timings[] = \sprintf('%d: %.0f ms', $pid, ($tookOverAt[$pid] - $at) * 1000);
            }
        }
        self::assertNotSame([], $timings);
        self::reportFigures('max-memory recycling', \sprintf(
            '%d recycles, retire → took over: %s; %s',
            \count($retiredAt),
            \implode(', ', $timings),
            $load->summary(),
        ));
    }

    public function testWorkersAreRecycledAfterMaxRequestsWithoutFailedRequests(): void
    {
        [$server] = $this->serve(ServerProcess::fixture('delay.php'), ['--workers=2', '--max-requests=50']);
        $first = $server->workerPids();
        self::assertCount(2, $first);

        // Load until both original workers have been replaced: the listening socket does not
        // share requests out evenly, so a fixed count may leave one under its 50.
        $load = new LoadClients($server->port(), 2, keepAlive: false);
        $load->run(30.0, static function (float $now) use ($server, $first, $load): void {
            foreach ($first as $pid) {
                if (!\str_contains($server->stderr(), "took over from worker {$pid} (max-requests)")) {
                    return;
                }
            }
            // Until both replacements have served too (one may take over a moment before it
            // accepts its first connection).
            if (\count($load->pids) < 4) {
                return;
            }
            $load->stopAt($now);
        }, maxRequests: 3000, tickInterval: 0.1);

        self::assertGreaterThanOrEqual(100, $load->completed(), $load->summary());
        self::assertSame(0, $load->failed + $load->socketErrors, $load->summary());
        foreach ($first as $pid) {
            self::assertMatchesRegularExpression("/Recycling worker {$pid} \\(max-requests\\)/", $server->stderr());
            self::assertTrue($server->waitForLog("took over from worker {$pid} (max-requests)", 2.0), $server->stderr());
        }
        // Retired workers drain, then exit.
        self::assertTrue(self::eventually(static fn (): bool => \array_intersect($first, $server->workerPids()) === [], 3.0), 'an original worker is still running: ' . $server->stderr());
        self::assertGreaterThanOrEqual(4, \count($load->pids), $load->summary());
        self::reportFigures('max-requests recycling', $load->summary());
    }

    // 4. Reload under load ---------------------------------------------------------------------

    public function testReloadUnderFreshConnectionLoadLosesNoRequest(): void
    {
        $load = $this->reloadUnderLoad(keepAlive: false);
        // A fresh connection per request never sends on a connection the server closed: any
        // error, and any retry, is a lost request.
        self::assertSame(0, $load->retried, $load->summary());
    }

    public function testReloadUnderKeepAliveLoadLosesNoRequest(): void
    {
        $this->reloadUnderLoad(keepAlive: true);
    }

    /**
     * The cause of the requests lost in fresh-connection mode: a draining worker closes at once
     * every connection that has not delivered a request yet, also one it accepted a moment ago
     * whose request is on its way (or already in the socket buffer, unread). The client sees
     * its new connection closed before any response, a lost request that it cannot safely
     * retry. A connection that has not sent its first request must be given until its first
     * request (bounded by --header-timeout and the drain timeout), as Go's http.Server does;
     * only connections idle after a response may be closed at once.
     *
     * This is worker-side behaviour (Spindle\Http\Connection::drain()), made deterministic
     * here: the connection is accepted, the worker starts draining, then the request is sent.
     */
    public function testDrainingWorkerAnswersAConnectionWhoseFirstRequestIsOnItsWay(): void
    {
        [$server, $pidFile] = $this->serve(ServerProcess::fixture('delay.php'), ['--workers=1']);
        [$old] = $server->workerPids();
        $client = new RawClient($server->port());
        // The worker has accepted the connection once its report counts it.
        self::assertTrue(self::eventually(
            static fn (): bool => (self::controlStatus($pidFile)['workers'][0]['connections'] ?? 0) === 1,
            3.0,
        ), 'the worker never reported the connection');

        $reload = self::runCommand(['reload', '--pid-file=' . $pidFile]);
        self::assertSame(0, $reload['code'], $reload['err']);

        $client->send(self::get('/late'));
        try {
            $response = $client->readResponse(timeout: 3.0);
        } catch (\RuntimeException $e) {
            self::fail('the draining worker dropped a connection whose first request was on its way: ' . $e->getMessage());
        }
        self::assertSame(200, $response->status);
        self::assertSame($old, $response->json()['pid']);
        self::assertSame('close', $response->header('connection'));
    }

    // 5. A reload whose code does not boot -----------------------------------------------------

    public function testReloadWithCodeThatFailsToBootKeepsTheOldWorkers(): void
    {
        $directory = $this->temporaryDirectory();
        $app = $directory . '/app.php';
        \copy(ServerProcess::fixture('reloadable.php'), $app);
        [$server, $pidFile] = $this->serve($app, ['--workers=2']);
        $workers = $server->workerPids();
        self::assertCount(2, $workers);

        \touch($directory . '/boot.flag');
        $reload = self::runCommand(['reload', '--pid-file=' . $pidFile]);
        self::assertNotSame(0, $reload['code'], $reload['out']);
        self::assertStringContainsString('Fixture reload failure: boot.flag is present', $reload['err']);

        self::assertSame($workers, $server->workerPids(), 'the old workers must keep serving');
        for ($i = 0; $i < 10; ++$i) {
            $response = self::assertServerAnswers($server);
            self::assertMatchesRegularExpression('/^version=1 pid=(\d+)$/', $response->body);
            self::assertContains((int) \substr($response->body, \strrpos($response->body, '=') + 1), $workers);
        }
        $status = self::controlStatus($pidFile);
        self::assertSame(1, $status['generation']);
        self::assertSame('running', $status['phase']);
        self::assertIsString($status['last_reload_error']);
        self::assertStringContainsString('Fixture reload failure', $status['last_reload_error']);
        self::assertStringContainsString('Reload failed, generation 1 keeps serving', $server->stderr());
        $text = self::runCommand(['status', '--pid-file=' . $pidFile]);
        self::assertStringContainsString('Last reload failed: ', $text['out']);

        \unlink($directory . '/boot.flag');
        $reload = self::runCommand(['reload', '--pid-file=' . $pidFile]);
        self::assertSame(0, $reload['code'], $reload['err']);
        // Generation 2 failed; the retry is generation 2 again.
        self::assertStringContainsString('Reloaded: generation 2 is serving', $reload['out']);
        $status = self::controlStatus($pidFile);
        self::assertSame(2, $status['generation']);
        self::assertNull($status['last_reload_error']);
        $new = \array_column(\array_filter($status['workers'], static fn (array $w): bool => $w['generation'] === 2), 'pid');
        self::assertCount(2, $new);
        self::assertSame([], \array_intersect($workers, $new));
        self::assertServerAnswers($server);
    }

    public function testASecondReloadIsRefusedWithoutAnsweringTheFirst(): void
    {
        $directory = $this->temporaryDirectory();
        $app = $directory . '/app.php';
        // While gate.wait exists, a booting worker waits for it to go: the reload stays open.
        \file_put_contents($app, "<?php\nwhile (is_file(__DIR__ . '/gate.wait')) { usleep(10000); clearstatcache(); }\nreturn static fn (): string => 'pid=' . getmypid();\n");
        [$server, $pidFile] = $this->serve($app, ['--workers=1']);

        \touch($directory . '/gate.wait');
        $first = BackgroundCommand::start([\PHP_BINARY, self::ROOT . '/bin/spindle', 'reload', '--pid-file=' . $pidFile]);
        self::assertTrue($server->waitForLog('Reloading: starting generation 2', 10.0), $server->stderr());

        $second = self::runCommand(['reload', '--pid-file=' . $pidFile]);
        self::assertSame(1, $second['code']);
        self::assertStringContainsString('Reload failed: cannot reload while reloading', $second['err']);
        self::assertTrue($server->waitForLog('Reload refused: cannot reload while reloading', 5.0), $server->stderr());
        self::assertNull($first->poll(), 'the first reload is still waiting for its outcome');

        \unlink($directory . '/gate.wait');
        $deadline = \microtime(true) + 10.0;
        while (($result = $first->poll()) === null && \microtime(true) < $deadline) {
            \usleep(5000);
        }
        self::assertNotNull($result, 'the first reload finished');
        self::assertSame(0, $result['code'], $result['err']);
        self::assertStringContainsString('Reloaded: generation 2 is serving', $result['out']);
        self::assertServerAnswers($server);
    }

    public function testARecycledWorkerWhoseReplacementFailsToBootIsReplacedOnceItBoots(): void
    {
        $directory = $this->temporaryDirectory();
        $app = $directory . '/app.php';
        \copy(ServerProcess::fixture('reloadable.php'), $app);
        [$server] = $this->serve($app, ['--workers=1', '--max-requests=5']);
        [$old] = $server->workerPids();

        \touch($directory . '/boot.flag');
        for ($i = 0; $i < 6; ++$i) {
            self::assertSame("version=1 pid={$old}", self::assertServerAnswers($server)->body);
        }
        self::assertTrue($server->waitForLog("Recycling worker {$old} (max-requests)", 2.0), $server->stderr());
        self::assertTrue($server->waitForLog('failed to boot: RuntimeException: Fixture reload failure: boot.flag is present; retrying in 0.5 s', 2.0), $server->stderr());
        \unlink($directory . '/boot.flag');

        // The log promised a retry: the replacement boots now and takes over.
        self::assertTrue($server->waitForLog("took over from worker {$old} (max-requests)", 3.0), 'the worker was never replaced: ' . $server->stderr());
        self::assertTrue(self::eventually(static fn (): bool => \count($server->workerPids()) === 1 && $server->workerPids() !== [$old], 3.0), $server->stderr());
        self::assertNotSame("version=1 pid={$old}", self::assertServerAnswers($server)->body);
    }

    public function testWorkersWaitingToRestartAreNotForgottenWhenAReloadFails(): void
    {
        $directory = $this->temporaryDirectory();
        $app = $directory . '/app.php';
        \copy(ServerProcess::fixture('reloadable.php'), $app);
        [$server, $pidFile] = $this->serve($app, ['--workers=2']);
        [, $b] = $server->workerPids();

        // A second crash within a minute is restarted after a 0.5 s backoff.
        \posix_kill($b, \SIGKILL);
        self::assertTrue($server->waitForLog("Worker {$b} was killed by signal 9; restarting it\n", 2.0), $server->stderr());
        self::assertTrue(self::eventually(static fn (): bool => \count(self::controlStatus($pidFile)['workers']) === 2
            && \array_column(self::controlStatus($pidFile)['workers'], 'state') === ['ready', 'ready'], 3.0), $server->stderr());
        $b2 = \max([0, ...\array_column(self::controlStatus($pidFile)['workers'], 'pid')]);
        self::assertIsInt($b2);
        self::assertNotContains($b2, [0, $b]);
        \touch($directory . '/boot.flag');
        \posix_kill($b2, \SIGKILL);
        self::assertTrue($server->waitForLog("Worker {$b2} was killed by signal 9; restarting it in 0.5 s", 2.0), $server->stderr());

        // A reload during the backoff, with code that does not boot.
        $server->signal(\SIGHUP);
        self::assertTrue($server->waitForLog('Reload failed, generation 1 keeps serving', 3.0), $server->stderr());
        \unlink($directory . '/boot.flag');

        // The crashed worker is still restarted.
        self::assertTrue(self::eventually(
            static fn (): bool => \array_column(self::controlStatus($pidFile)['workers'], 'state') === ['ready', 'ready'],
            4.0,
        ), 'the crashed worker was never restarted: ' . \json_encode(self::controlStatus($pidFile)) . "\n" . $server->stderr());
        self::assertSame(1, self::controlStatus($pidFile)['generation']);
        self::assertCount(2, $server->workerPids());
    }

    public function testAWorkerCrashingDuringAReloadIsNotReplacedTwice(): void
    {
        $directory = $this->temporaryDirectory();
        $app = $directory . '/app.php';
        \copy(ServerProcess::fixture('reloadable.php'), $app);
        [$server, $pidFile] = $this->serve($app, ['--workers=2']);
        [$a] = $server->workerPids();

        // The new generation takes a second to boot; meanwhile an old worker dies.
        \file_put_contents($directory . '/boot.delay', '1.0');
        $server->signal(\SIGHUP);
        self::assertTrue($server->waitForLog('Reloading: starting generation 2', 2.0), $server->stderr());
        \posix_kill($a, \SIGKILL);
        self::assertTrue($server->waitForLog("Worker {$a} was killed by signal 9", 2.0), $server->stderr());
        self::assertTrue($server->waitForLog('Reloaded: generation 2 is serving', 4.0), $server->stderr());
        \unlink($directory . '/boot.delay');

        // Generation 2 has one worker per slot: --workers=2, not 3.
        self::assertTrue(self::eventually(static fn (): bool => \count($server->workerPids()) <= 2, 3.0), 'old workers did not drain: ' . $server->stderr());
        $status = self::controlStatus($pidFile);
        $live = \array_filter($status['workers'], static fn (array $w): bool => $w['state'] !== 'draining');
        self::assertCount(2, $live, \json_encode($status, \JSON_PRETTY_PRINT) . $server->stderr());
        self::assertSame([2, 2], \array_column($live, 'generation'));
        self::assertCount(2, $server->workerPids());
    }

    // 6. Request timeout -----------------------------------------------------------------------

    public function testRequestTimeoutAnswers504AndAStuckWorkerIsKilled(): void
    {
        [$server] = $this->serve(ServerProcess::fixture('busy.php'), ['--workers=1', '--request-timeout=1', '--kill-grace=1']);
        [$worker] = $server->workerPids();

        // A suspended request: 504 after the timeout, and the worker goes on serving.
        $client = new RawClient($server->port());
        $started = \microtime(true);
        $client->send(self::get('/wait?wait=5'));
        $response = $client->readResponse(timeout: 3.0);
        $elapsed = \microtime(true) - $started;
        self::assertSame(504, $response->status, $response->raw);
        self::assertGreaterThan(0.9, $elapsed);
        // The worker checks the timeout on its 0.5 s sweep: the 504 comes 1 to 1.5 s in.
        self::assertLessThan(1.7, $elapsed);
        self::assertSame("pid={$worker}", self::assertServerAnswers($server, '/after-504')->body);

        // A request that computes without yielding: the worker stops reporting and the master
        // kills it after request-timeout + kill-grace (2 s, plus up to a 1 s report interval).
        $stuck = new RawClient($server->port());
        $started = \microtime(true);
        $stuck->send(self::get('/spin?spin=30&announce=1'));
        self::assertTrue($server->waitForLog('busy-app started /spin', 2.0), $server->stderr());
        self::assertTrue($stuck->waitForClose(5.0), 'the stuck worker was not killed');
        $killedAfter = \microtime(true) - $started;
        // 2 s after the last report, which came up to 1 s before the request.
        self::assertLessThan(4.0, $killedAfter);
        self::assertGreaterThan(0.9, $killedAfter);
        self::assertTrue($server->waitForLog("Worker {$worker} has not responded for", 1.0), $server->stderr());
        self::assertTrue($server->waitForLog("Worker {$worker} did not respond and was killed by signal 9", 1.0), $server->stderr());

        $replacement = null;
        self::assertTrue(self::eventually(static function () use ($server, $worker, &$replacement): bool {
            $client = RawClient::tryConnect($server->port(), 0.5);
            if ($client === null) {
                return false;
            }
            try {
                $client->send(self::get('/next', "Connection: close\r\n"));
                $response = $client->readResponse(timeout: 1.0);
            } catch (\RuntimeException) {
                return false;
            }
            $replacement = $response->body;

            return $response->status === 200 && $response->body !== "pid={$worker}";
        }, 3.0), 'no replacement answered: ' . $server->stderr());
        self::assertNotContains($worker, $server->workerPids());
        self::reportFigures('request timeout', \sprintf('504 after %.2f s; stuck worker killed after %.2f s; replacement %s', $elapsed, $killedAfter, $replacement));
    }

    // 7. Control commands ----------------------------------------------------------------------

    public function testStatusStopAndTheControlSocket(): void
    {
        [$server, $pidFile] = $this->serve(ServerProcess::fixture('delay.php'), ['--workers=2']);
        $socket = PidFile::socketPath($pidFile);
        self::assertSame('socket', \filetype($socket));
        self::assertSame(0600, \fileperms($socket) & 0777, \sprintf('%o', \fileperms($socket)));
        self::assertSame($server->pid(), PidFile::read($pidFile));

        for ($i = 0; $i < 3; ++$i) {
            self::assertServerAnswers($server);
        }
        // Workers report once a second.
        self::assertTrue(self::eventually(static function () use ($pidFile): bool {
            $status = self::controlStatus($pidFile);

            return \array_sum(\array_column($status['workers'], 'requests')) === 3
                && \min([\PHP_INT_MAX, ...\array_column($status['workers'], 'memory')]) > 0;
        }, 3.0));

        $json = self::runCommand(['status', '--json', '--pid-file=' . $pidFile]);
        self::assertSame(0, $json['code'], $json['err']);
        $status = \json_decode($json['out'], true);
        self::assertIsArray($status, $json['out']);
        self::assertSame($server->pid(), $status['pid']);
        self::assertSame('running', $status['phase']);
        self::assertSame(1, $status['generation']);
        self::assertSame('http://127.0.0.1:' . $server->port(), $status['address']);
        self::assertIsFloat($status['uptime']);
        self::assertGreaterThan(0.0, $status['uptime']);
        self::assertEqualsWithDelta(\microtime(true), $status['started_at'], 30.0);
        self::assertNull($status['last_reload_error']);
        self::assertCount(2, $status['workers']);
        self::assertSame($server->workerPids(), \array_map('intval', \array_column($status['workers'], 'pid')));
        foreach ($status['workers'] as $worker) {
            foreach (['pid', 'state', 'requests', 'inflight', 'memory', 'started_at', 'restarts', 'generation'] as $key) {
                self::assertArrayHasKey($key, $worker);
            }
            self::assertSame('ready', $worker['state']);
            self::assertSame(0, $worker['inflight']);
            self::assertSame(0, $worker['restarts']);
            self::assertEqualsWithDelta(\microtime(true), $worker['started_at'], 30.0);
        }

        $text = self::runCommand(['status', '--pid-file=' . $pidFile]);
        self::assertSame(0, $text['code'], $text['err']);
        self::assertMatchesRegularExpression(\sprintf(
            '/^Spindle http:\/\/127\.0\.0\.1:%d: master %d, running, generation 1, up \d+s$/m',
            $server->port(),
            $server->pid(),
        ), $text['out']);
        foreach ($server->workerPids() as $pid) {
            self::assertMatchesRegularExpression("/^{$pid}\\s+1\\s+ready\\s+\\d+\\s+0\\s+\\d+\\s+0\\s+[\\d.]+M\\s+-\\s+0\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d$/m", $text['out']);
        }

        // A wrong pid file: a clear error and exit code 1.
        $wrong = self::runCommand(['status', '--pid-file=' . \dirname($pidFile) . '/other.pid']);
        self::assertSame(1, $wrong['code']);
        self::assertStringContainsString('No Spindle server is running', $wrong['err']);
        self::assertStringContainsString(\dirname($pidFile) . '/other.sock', $wrong['err']);
        self::assertSame('', $wrong['out']);

        $stop = self::runCommand(['stop', '--pid-file=' . $pidFile]);
        self::assertSame(0, $stop['code'], $stop['err']);
        self::assertSame(0, $server->waitForExit(5.0), $server->stderr());
        \clearstatcache();
        self::assertFileDoesNotExist($pidFile);
        self::assertFileDoesNotExist($socket);

        // Once stopped, the same pid file gives the same clear error.
        $gone = self::runCommand(['status', '--pid-file=' . $pidFile]);
        self::assertSame(1, $gone['code']);
        self::assertStringContainsString('No Spindle server is running', $gone['err']);
    }

    // 8. Daemon --------------------------------------------------------------------------------

    public function testDaemonDetachesLogsAndStops(): void
    {
        $directory = $this->temporaryDirectory();
        $pidFile = $directory . '/daemon.pid';
        $logFile = $directory . '/daemon.log';
        $this->daemonPidFiles[] = $pidFile;

        $started = \microtime(true);
        $serve = self::runCommand([
            'serve', ServerProcess::fixture('delay.php'), '--port=0', '--workers=1', '--daemon',
            '--log-file=' . $logFile, '--pid-file=' . $pidFile,
        ], 10.0);
        self::assertSame(0, $serve['code'], $serve['err']);
        self::assertLessThan(2.0, $serve['seconds'], 'serve --daemon did not return promptly');
        self::assertSame('', $serve['out']);

        // Readiness: the line in the log file.
        $port = null;
        self::assertTrue(self::eventually(static function () use ($logFile, &$port): bool {
            $log = (string) @\file_get_contents($logFile);
            if (\preg_match('#Spindle listening on http://127\.0\.0\.1:(\d+)\n#', $log, $m) !== 1) {
                return false;
            }
            $port = (int) $m[1];

            return true;
        }, 10.0), 'no readiness line in the log file: ' . @\file_get_contents($logFile));
        \assert(\is_int($port));
        $pid = PidFile::read($pidFile);
        self::assertNotNull($pid);
        self::assertTrue(PidFile::isRunning($pid));
        // Detached: not a child of this process, in a session of its own.
        self::assertNotSame(\posix_getpid(), self::parentOf($pid));
        self::assertNotSame(\posix_getsid(0), \posix_getsid($pid), 'the daemon must have a session of its own');
        self::assertNotSame($pid, \posix_getsid($pid), 'the daemon must not lead its session');

        $client = new RawClient($port);
        $client->send(self::get('/daemon', "Connection: close\r\n"));
        $response = $client->readResponse();
        self::assertSame(200, $response->status);
        self::assertSame('/daemon', $response->json()['path']);
        self::assertContains($response->json()['pid'], self::childrenOf($pid));

        $stop = self::runCommand(['stop', '--pid-file=' . $pidFile]);
        self::assertSame(0, $stop['code'], $stop['err']);
        self::assertTrue(self::eventually(static fn (): bool => !PidFile::isRunning($pid), 5.0), 'the daemon did not stop');
        self::assertFileDoesNotExist($pidFile);
        $log = (string) \file_get_contents($logFile);
        self::assertStringContainsString('Stopping: draining workers', $log);
        self::assertLessThan(10.0, \microtime(true) - $started);
    }

    // 9. --watch -------------------------------------------------------------------------------

    public function testWatchReloadsChangedCode(): void
    {
        $directory = $this->temporaryDirectory();
        $app = $directory . '/app.php';
        \copy(ServerProcess::fixture('reloadable.php'), $app);
        [$server] = $this->serve($app, ['--workers=2', '--watch']);
        self::assertMatchesRegularExpression('/^version=1 pid=\d+$/', self::assertServerAnswers($server)->body);
        self::assertMatchesRegularExpression('/Watching .* for changes \((inotify\)|polling: )/', $server->stderr());
        $old = $server->workerPids();

        $changedAt = \microtime(true);
        $code = (string) \file_get_contents($app);
        self::assertStringContainsString("'version=1 pid='", $code);
        // Same length, so only the content (and the mtime) tells them apart.
        \file_put_contents($app, \str_replace("'version=1 pid='", "'version=2 pid='", $code));

        $body = '';
        $served = self::eventually(static function () use ($server, &$body): bool {
            $body = self::assertServerAnswers($server)->body;

            return \str_starts_with($body, 'version=2 ');
        }, 3.0);
        self::assertTrue($served, "the new code was not served within 3 s; last answer: {$body}\n" . $server->stderr());
        $after = \microtime(true) - $changedAt;
        self::assertStringContainsString('app.php changed: reloading', $server->stderr());
        self::assertTrue($server->waitForLog('Reloaded: generation 2 is serving', 1.0), $server->stderr());
        self::assertNotContains((int) \substr($body, \strrpos($body, '=') + 1), $old, 'the new code came from an old worker');
        self::reportFigures('--watch', \sprintf('new code served %.2f s after the change', $after));
    }

    public function testWatchSaysWhyItPolls(): void
    {
        $directory = $this->temporaryDirectory();
        $app = $directory . '/app.php';
        \copy(ServerProcess::fixture('reloadable.php'), $app);
        $path = \getenv('PATH');
        \putenv('PATH=' . $directory);   // no inotifywait there
        try {
            [$server] = $this->serve($app, ['--workers=1', '--watch']);
        } finally {
            \putenv($path === false ? 'PATH' : 'PATH=' . $path);
        }
        self::assertStringContainsString("Watching {$directory} for changes (polling: inotifywait was not found (install inotify-tools))", $server->stderr());
        self::assertServerAnswers($server);
    }

    // Helpers ----------------------------------------------------------------------------------

    /**
     * The shared logic of the reload-under-load tests. Each reload is awaited by its own event,
     * never by a window of time: the reload command's answer (it returns once the new generation
     * serves), or for SIGHUP the master's "Reloaded: generation N is serving" log line. The load
     * runs until 0.5 s after the last reload; the bounds below only end a test that hangs.
     */
    private function reloadUnderLoad(bool $keepAlive): LoadClients
    {
        [$server, $pidFile] = $this->serve(ServerProcess::fixture('delay.php'), ['--workers=2']);
        $socket = PidFile::socketPath($pidFile);
        $generation = 1;
        $pids = $server->workerPids();
        self::assertCount(2, $pids);

        // Three reloads, each 0.5 s after the previous one finished: two with the command, one
        // with SIGHUP.
        $plan = ['command', 'sighup', 'command'];
        $command = null;
        $waitingFor = null;
        $nextAt = 0.5;
        $done = [];
        $problems = [];
        $begin = \microtime(true);
        // A slow answer on a loaded machine is not a lost one: 30 s per request before it counts as failed.
        $load = new LoadClients($server->port(), 4, $keepAlive, requestTimeout: 30.0);
        $load->run(3 * self::HANG_BOUND, static function (float $now) use (
            $server, $pidFile, $socket, $load, &$plan, &$command, &$waitingFor, &$nextAt, &$generation, &$pids, &$done, &$problems, $begin,
        ): void {
            if ($waitingFor === null && $plan !== [] && $now - $begin >= $nextAt) {
                $how = \array_shift($plan);
                $target = $generation + 1;
                if ($how === 'command') {
                    $command = BackgroundCommand::start([\PHP_BINARY, self::ROOT . '/bin/spindle', 'reload', '--pid-file=' . $pidFile, '--timeout=' . self::HANG_BOUND]);
                } else {
                    \posix_kill($server->pid(), \SIGHUP);
                }
                $waitingFor = ['how' => $how, 'generation' => $target, 'at' => $now];
            }
            if ($waitingFor === null) {
                return;
            }
            if ($command !== null) {
                // The command answers when the reload finished (or failed).
                $result = $command->poll();
                if ($result === null) {
                    return;
                }
                $command = null;
                if ($result['code'] !== 0 || !\str_contains($result['out'], "Reloaded: generation {$waitingFor['generation']} is serving")) {
                    $problems[] = 'reload command: ' . \json_encode($result);
                }
            } elseif (!\str_contains($server->stderr(), "Reloaded: generation {$waitingFor['generation']} is serving")) {
                if ($now - $waitingFor['at'] > self::HANG_BOUND) {
                    $problems[] = 'SIGHUP: generation ' . $waitingFor['generation'] . ' never served';
                    $waitingFor = null;
                    $load->stopAt($now);
                }

                return;
            }
            // The reload finished: the new generation serves, and only it.
            $status = (new ControlClient())->send($socket, 'status', [], 10.0)['status'] ?? null;
            if (!\is_array($status) || $status['generation'] !== $waitingFor['generation'] || $status['phase'] !== 'running') {
                $problems[] = 'after reload ' . $waitingFor['generation'] . ' the status is ' . \json_encode($status);
            }
            $current = [];
            foreach (\is_array($status) ? $status['workers'] : [] as $worker) {
                if ($worker['generation'] === $waitingFor['generation']) {
                    $current[] = $worker['pid'];
                }
            }
            if (\count($current) !== 2 || \array_intersect($current, $pids) !== []) {
                $problems[] = \sprintf('after reload %d the workers are %s (before: %s)', $waitingFor['generation'], \json_encode($current), \json_encode($pids));
            }
            $done[] = \sprintf('%s → generation %d in %.0f ms', $waitingFor['how'], $waitingFor['generation'], ($now - $waitingFor['at']) * 1000);
            $generation = $waitingFor['generation'];
            $pids = $current;
            $waitingFor = null;
            $nextAt = $now - $begin + 0.5;
            if ($plan === [] || $problems !== []) {
                $load->stopAt($now + 0.5);
            }
        });

        self::assertSame([], $problems, $server->stderr());
        self::assertCount(3, $done, 'not every reload completed: ' . \implode('; ', $done) . "\n" . $server->stderr());
        self::assertSame(0, $load->failed, $load->summary());
        self::assertSame(0, $load->socketErrors, $load->summary());
        self::assertGreaterThan(200, $load->completed(), $load->summary());
        // The old generations drain and exit: only the last one is left.
        self::assertTrue(self::eventually(static fn (): bool => $server->workerPids() === \array_map('intval', $pids), 30.0), \json_encode([$server->workerPids(), $pids]) . $server->stderr());
        self::assertStringNotContainsString('ERROR', $server->stderr());
        self::reportFigures(\sprintf('reload under %s load', $keepAlive ? 'keep-alive' : 'fresh-connection'), \implode('; ', $done) . '; ' . $load->summary());

        return $load;
    }

    /**
     * Starts a server with a pid file in a fresh temporary directory.
     *
     * @param list<string> $options
     *
     * @return array{0: ServerProcess, 1: string} the server and its pid file
     */
    private function serve(string $app, array $options): array
    {
        $pidFile = $this->temporaryDirectory() . '/spindle.pid';
        $server = ServerProcess::start($app, [...$options, '--pid-file=' . $pidFile]);
        $this->servers[] = $server;

        return [$server, $pidFile];
    }

    private function temporaryDirectory(): string
    {
        $directory = \sys_get_temp_dir() . '/spindle-supervisor-' . \bin2hex(\random_bytes(6));
        self::assertTrue(\mkdir($directory, 0700));
        $this->directories[] = $directory;

        return $directory;
    }

    /**
     * Runs bin/spindle with $arguments (no shell) and waits for it, at most $timeout seconds.
     *
     * @param list<string> $arguments
     *
     * @return array{code: int, out: string, err: string, seconds: float}
     */
    private static function runCommand(array $arguments, float $timeout = 10.0): array
    {
        $command = BackgroundCommand::start([\PHP_BINARY, self::ROOT . '/bin/spindle', ...$arguments]);
        $deadline = \microtime(true) + $timeout;
        while (($result = $command->poll()) === null) {
            if (\microtime(true) > $deadline) {
                $command->kill();
                self::fail(\sprintf('bin/spindle %s did not finish within %s s', \implode(' ', $arguments), $timeout));
            }
            \usleep(5000);
        }

        return $result;
    }

    /**
     * The master's status through its control socket (what `status --json` prints).
     *
     * @return array{pid: int, phase: string, generation: int, uptime: float, started_at: float, last_reload_error: ?string, workers: list<array<string, mixed>>}
     */
    private static function controlStatus(string $pidFile): array
    {
        $reply = (new ControlClient())->send(PidFile::socketPath($pidFile), 'status', [], 5.0);
        self::assertTrue($reply['ok'], \json_encode($reply) ?: '');
        self::assertIsArray($reply['status']);

        /** @var array{pid: int, phase: string, generation: int, uptime: float, started_at: float, last_reload_error: ?string, workers: list<array<string, mixed>>} */
        return $reply['status'];
    }

    /** @return list<int> live children of $pid */
    private static function childrenOf(int $pid): array
    {
        $children = [];
        foreach (\glob('/proc/[0-9]*/stat') ?: [] as $statFile) {
            $stat = @\file_get_contents($statFile);
            if (!\is_string($stat) || ($close = \strrpos($stat, ')')) === false) {
                continue;
            }
            $fields = \explode(' ', \trim(\substr($stat, $close + 2)));
            if (($fields[1] ?? null) === (string) $pid && $fields[0] !== 'Z') {
                $children[] = (int) $stat;
            }
        }
        \sort($children);

        return $children;
    }

    private static function parentOf(int $pid): ?int
    {
        $stat = @\file_get_contents('/proc/' . $pid . '/stat');
        if (!\is_string($stat) || ($close = \strrpos($stat, ')')) === false) {
            return null;
        }

        return (int) \explode(' ', \substr($stat, $close + 2))[1];
    }
}
