<?php

declare(strict_types=1);

/*
 * Reload and recycle under load: does Spindle lose requests while it replaces its workers?
 *
 *   php benchmarks/reload.php                          # 16 clients, 10 s per run
 *   php benchmarks/reload.php --clients=32 --duration=20
 *
 * Four runs, each against a fresh `bin/spindle serve examples/hello.php --workers=2 --port=0`
 * with its pid file in a temporary directory:
 *
 *   reload,  fresh connections   a reload (`bin/spindle reload`) every 2 s
 *   reload,  keep-alive          the same, clients reuse their connections
 *   recycle, fresh connections   --max-requests=500, no reloads
 *   recycle, keep-alive          the same
 *
 * The load comes from this process: --clients HTTP/1.1 clients on non-blocking sockets driven
 * by stream_select, each sending its next GET as soon as its previous response is complete.
 * Keep-alive clients reconnect when the server answers "Connection: close" or has closed the
 * idle connection; a request sent on a reused connection that the server closed at that very
 * moment, with no byte of response, is sent once more on a new connection and counted as
 * "retried" (the keep-alive race every HTTP client handles). Fresh-connection clients never
 * retry.
 *
 * Printed per run: requests, failed (a complete response other than 200), socket errors
 * (refused, reset, closed before the response was complete, no response within 5 s), retried,
 * reloads done (or workers recycled), p50/p99 latency and requests per second. The exit status
 * is 1 if any request failed or hit a socket error, or a reload failed.
 *
 * Only 127.0.0.1 is used. The script stops the servers it started (SIGTERM, then SIGKILL to the
 * master and its workers) when it ends, also on Ctrl-C.
 */

namespace Spindle\Benchmarks;

const RELOAD_INTERVAL = 2.0;
const RECYCLE_MAX_REQUESTS = 500;
const READY_TIMEOUT = 10.0;

final class Server
{
    /** @var resource|null */
    private $process;
    public readonly int $pid;
    public readonly int $port;
    public readonly string $pidFile;
    public readonly string $logFile;
    private ?int $exitCode = null;

    /** @param list<string> $options */
    public function __construct(string $root, string $directory, string $app, array $options)
    {
        $this->pidFile = $directory . '/spindle.pid';
        $this->logFile = $directory . '/spindle.log';
        $command = [\PHP_BINARY, $root . '/bin/spindle', 'serve', $app, '--port=0', '--pid-file=' . $this->pidFile, ...$options];
        $process = \proc_open($command, [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['file', $this->logFile, 'w']], $pipes, $root);
        if (!\is_resource($process)) {
            throw new \RuntimeException('Cannot start ' . \implode(' ', $command));
        }
        $this->process = $process;
        $this->pid = \proc_get_status($process)['pid'];
        Cleanup::add($this);

        $stdout = $pipes[1];
        \stream_set_blocking($stdout, false);
        $output = '';
        $deadline = \microtime(true) + READY_TIMEOUT;
        while (\preg_match('#Spindle listening on http://127\.0\.0\.1:(\d+)\n#', $output, $m) !== 1) {
            $left = $deadline - \microtime(true);
            $read = [$stdout];
            $write = $except = null;
            if ($left <= 0 || @\stream_select($read, $write, $except, (int) $left, (int) (($left - (int) $left) * 1e6)) === false) {
                $this->stop();
                throw new \RuntimeException("The server did not announce readiness:\n" . $this->log());
            }
            $chunk = (string) \fread($stdout, 8192);
            if ($chunk === '' && \feof($stdout)) {
                $this->stop();
                throw new \RuntimeException("The server exited before it was ready:\n" . $this->log());
            }
            $output .= $chunk;
        }
        \fclose($stdout);
        $this->port = (int) $m[1];
    }

    public function log(): string
    {
        return (string) @\file_get_contents($this->logFile);
    }

    /** @return list<int> live children of the master */
    public function workers(): array
    {
        $children = [];
        foreach (\glob('/proc/[0-9]*/stat') ?: [] as $statFile) {
            $stat = @\file_get_contents($statFile);
            if (!\is_string($stat) || ($close = \strrpos($stat, ')')) === false) {
                continue;
            }
            $fields = \explode(' ', \trim(\substr($stat, $close + 2)));
            if (($fields[1] ?? null) === (string) $this->pid && $fields[0] !== 'Z') {
                $children[] = (int) $stat;
            }
        }

        return $children;
    }

    /** SIGTERM; SIGKILL to the master and its workers if it has not exited within 5 s. */
    public function stop(): ?int
    {
        if ($this->process === null) {
            return $this->exitCode;
        }
        $deadline = \microtime(true) + 5.0;
        $signalled = false;
        while (true) {
            $status = \proc_get_status($this->process);
            if (!$status['running']) {
                $this->exitCode = $status['signaled'] ? 128 + $status['termsig'] : $status['exitcode'];
                break;
            }
            if (!$signalled) {
                \posix_kill($this->pid, \SIGTERM);
                $signalled = true;
            } elseif (\microtime(true) > $deadline) {
                foreach ($this->workers() as $worker) {
                    \posix_kill($worker, \SIGKILL);
                }
                \posix_kill($this->pid, \SIGKILL);
                $deadline = \INF;
            }
            \usleep(10000);
        }
        \proc_close($this->process);
        $this->process = null;

        return $this->exitCode;
    }
}

/** Stops every server still running when the script ends, however it ends. */
final class Cleanup
{
    /** @var list<Server> */
    private static array $servers = [];
    /** @var list<string> */
    private static array $directories = [];

    public static function add(Server $server): void
    {
        self::$servers[] = $server;
    }

    public static function directory(): string
    {
        $directory = \sys_get_temp_dir() . '/spindle-reload-bench-' . \bin2hex(\random_bytes(6));
        if (!\mkdir($directory, 0700)) {
            throw new \RuntimeException('Cannot create ' . $directory);
        }
        self::$directories[] = $directory;

        return $directory;
    }

    public static function run(): void
    {
        foreach (self::$servers as $server) {
            $server->stop();
        }
        self::$servers = [];
        foreach (self::$directories as $directory) {
            foreach (\glob($directory . '/{,.}*', \GLOB_BRACE) ?: [] as $file) {
                if (\is_file($file) || \filetype($file) === 'socket') {
                    @\unlink($file);
                }
            }
            @\rmdir($directory);
        }
        self::$directories = [];
    }
}

/** `bin/spindle reload` in the background, so the load never waits for it. */
final class ReloadCommand
{
    /** @var resource */
    private $process;
    private string $out;

    public function __construct(string $root, string $pidFile)
    {
        $out = \tempnam(\sys_get_temp_dir(), 'spindle-reload-');
        if ($out === false) {
            throw new \RuntimeException('Cannot create a temporary file');
        }
        $this->out = $out;
        $process = \proc_open(
            [\PHP_BINARY, $root . '/bin/spindle', 'reload', '--pid-file=' . $pidFile, '--timeout=30'],
            [0 => ['file', '/dev/null', 'r'], 1 => ['file', $out, 'w'], 2 => ['file', $out, 'a']],
            $pipes,
        );
        if (!\is_resource($process)) {
            throw new \RuntimeException('Cannot run bin/spindle reload');
        }
        $this->process = $process;
    }

    /** @return array{code: int, output: string}|null null while it runs */
    public function poll(): ?array
    {
        $status = \proc_get_status($this->process);
        if ($status['running']) {
            return null;
        }
        \proc_close($this->process);
        $output = (string) \file_get_contents($this->out);
        @\unlink($this->out);

        return ['code' => $status['signaled'] ? 128 + $status['termsig'] : $status['exitcode'], 'output' => \trim($output)];
    }
}

/**
 * $clients HTTP/1.1 clients on non-blocking sockets, driven by stream_select (see the comment
 * at the top for keep-alive, retries and what counts as an error).
 */
final class Load
{
    public int $ok = 0;
    public int $failed = 0;
    public int $socketErrors = 0;
    public int $retried = 0;
    /** @var array<string, int> */
    public array $errors = [];
    /** @var list<float> */
    public array $latencies = [];
    /** @var list<array{socket: resource|null, reused: bool, inflight: bool, retry: bool, start: float, buffer: string, wait: float}> */
    private array $clients = [];
    private readonly string $request;

    public function __construct(private readonly int $port, int $clients, private readonly bool $keepAlive, private readonly float $timeout = 5.0)
    {
        for ($i = 0; $i < $clients; ++$i) {
            $this->clients[] = ['socket' => null, 'reused' => false, 'inflight' => false, 'retry' => false, 'start' => 0.0, 'buffer' => '', 'wait' => 0.0];
        }
        $this->request = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n" . ($keepAlive ? '' : "Connection: close\r\n") . "\r\n";
    }

    /** @param (\Closure(float): void)|null $tick called every 10 ms or so */
    public function run(float $duration, ?\Closure $tick = null): void
    {
        $deadline = \microtime(true) + $duration;
        $nextTick = 0.0;
        while (true) {
            $now = \microtime(true);
            $more = $now < $deadline;
            $busy = false;
            $read = [];
            foreach ($this->clients as $i => $client) {
                if (!$client['inflight'] && $more && $client['wait'] <= $now) {
                    $this->begin($i, $now, false);
                }
                if ($this->clients[$i]['inflight']) {
                    $busy = true;
                    if ($this->clients[$i]['socket'] !== null) {
                        $read[$i] = $this->clients[$i]['socket'];
                    }
                }
            }
            if (!$busy && !$more) {
                break;
            }
            if ($read === []) {
                \usleep(1000);
            } else {
                $write = $except = null;
                if (@\stream_select($read, $write, $except, 0, 10000) === false) {
                    throw new \RuntimeException('stream_select failed');
                }
                foreach (\array_keys($read) as $i) {
                    $this->receive($i, \microtime(true));
                }
            }
            $now = \microtime(true);
            foreach ($this->clients as $i => $client) {
                if ($client['inflight'] && $now - $client['start'] > $this->timeout) {
                    $this->fail($i, 'no response within ' . $this->timeout . ' s');
                }
            }
            if ($tick !== null && $now >= $nextTick) {
                $nextTick = $now + 0.01;
                $tick($now);
            }
        }
        foreach (\array_keys($this->clients) as $i) {
            $this->close($i);
        }
    }

    public function percentile(float $p): float
    {
        if ($this->latencies === []) {
            return \NAN;
        }
        \sort($this->latencies);

        return $this->latencies[(int) \min(\count($this->latencies) - 1, \floor($p / 100 * \count($this->latencies)))];
    }

    private function begin(int $i, float $now, bool $retry): void
    {
        $client = &$this->clients[$i];
        if (!$retry) {
            $client['start'] = $now;
        }
        $client['retry'] = $retry;
        $client['buffer'] = '';
        $client['inflight'] = true;
        if ($client['socket'] !== null) {
            // Only send on a connection the server has not closed: an idle connection that
            // turned readable has reached its end.
            $check = [$client['socket']];
            $write = $except = null;
            if (@\stream_select($check, $write, $except, 0) !== 0) {
                $this->close($i);
            }
        }
        if ($client['socket'] === null) {
            $socket = @\stream_socket_client('tcp://127.0.0.1:' . $this->port, $errno, $error, 2.0);
            if ($socket === false) {
                $this->fail($i, "connect: {$error}");
                $client['wait'] = $now + 0.01;

                return;
            }
            \stream_set_blocking($socket, false);
            $client['socket'] = $socket;
            $client['reused'] = false;
        }
        if (@\fwrite($client['socket'], $this->request) !== \strlen($this->request)) {
            $this->lost($i, $now, 'cannot send the request');
        }
    }

    private function receive(int $i, float $now): void
    {
        $client = &$this->clients[$i];
        if ($client['socket'] === null) {
            return;
        }
        $data = @\fread($client['socket'], 65536);
        if (\is_string($data) && $data !== '') {
            $client['buffer'] .= $data;
            $this->parse($i, $now, false);
        } elseif ($data === false || \feof($client['socket'])) {
            $this->parse($i, $now, true);
        }
    }

    private function parse(int $i, float $now, bool $closed): void
    {
        $client = &$this->clients[$i];
        $end = \strpos($client['buffer'], "\r\n\r\n");
        if ($end === false) {
            if ($closed) {
                $this->lost($i, $now, $client['buffer'] === '' ? 'closed before any byte of the response' : 'closed in the response head');
            }

            return;
        }
        $head = \substr($client['buffer'], 0, $end);
        $body = (string) \substr($client['buffer'], $end + 4);
        if (\preg_match('#^HTTP/1\.[01] (\d{3})#', $head, $m) !== 1) {
            $this->fail($i, 'malformed status line');

            return;
        }
        if (\preg_match('/\r\ncontent-length: *(\d+)/i', $head, $lm) === 1) {
            if (\strlen($body) < (int) $lm[1]) {
                if ($closed) {
                    $this->fail($i, 'closed in the middle of the body');
                }

                return;
            }
        } elseif (\preg_match('/\r\ntransfer-encoding: *chunked/i', $head) === 1) {
            if (!\str_ends_with($body, "0\r\n\r\n")) {
                if ($closed) {
                    $this->fail($i, 'closed in the middle of the body');
                }

                return;
            }
        } elseif (!$closed) {
            return;
        }
        if ((int) $m[1] === 200) {
            ++$this->ok;
            $this->latencies[] = $now - $client['start'];
        } else {
            ++$this->failed;
            $this->errors['status ' . $m[1]] = ($this->errors['status ' . $m[1]] ?? 0) + 1;
        }
        $client['inflight'] = false;
        if (!$this->keepAlive || $closed || \preg_match('/\r\nconnection: *close/i', $head) === 1) {
            $this->close($i);
        } else {
            $client['reused'] = true;
        }
    }

    /** Nothing came back: on a reused connection, the keep-alive race; retry it once. */
    private function lost(int $i, float $now, string $why): void
    {
        $client = &$this->clients[$i];
        if ($client['buffer'] === '' && $client['reused'] && !$client['retry']) {
            ++$this->retried;
            $this->close($i);
            $this->begin($i, $now, true);

            return;
        }
        $this->fail($i, $why . ($client['reused'] ? ' (reused connection)' : ' (new connection)'));
    }

    private function fail(int $i, string $why): void
    {
        ++$this->socketErrors;
        $this->errors[$why] = ($this->errors[$why] ?? 0) + 1;
        $this->clients[$i]['inflight'] = false;
        $this->close($i);
    }

    private function close(int $i): void
    {
        if ($this->clients[$i]['socket'] !== null) {
            @\fclose($this->clients[$i]['socket']);
        }
        $this->clients[$i]['socket'] = null;
        $this->clients[$i]['reused'] = false;
    }
}

/**
 * One run against a fresh server.
 *
 * @return bool whether it lost nothing
 */
function run(string $root, string $name, bool $keepAlive, bool $reloads, int $clients, float $duration): bool
{
    $directory = Cleanup::directory();
    $options = ['--workers=2'];
    if (!$reloads) {
        $options[] = '--max-requests=' . RECYCLE_MAX_REQUESTS;
    }
    $server = new Server($root, $directory, $root . '/examples/hello.php', $options);

    $reloadsDone = 0;
    $reloadProblems = [];
    $command = null;
    $nextReload = \microtime(true) + RELOAD_INTERVAL;
    $load = new Load($server->port, $clients, $keepAlive);
    $started = \microtime(true);
    $load->run($duration, !$reloads ? null : static function (float $now) use ($root, $server, &$command, &$nextReload, &$reloadsDone, &$reloadProblems): void {
        if ($command !== null) {
            $result = $command->poll();
            if ($result === null) {
                return;
            }
            $command = null;
            if ($result['code'] === 0) {
                ++$reloadsDone;
            } else {
                $reloadProblems[] = $result['output'];
            }
        }
        if ($now >= $nextReload) {
            $command = new ReloadCommand($root, $server->pidFile);
            $nextReload += RELOAD_INTERVAL;
        }
    });
    $elapsed = \microtime(true) - $started;
    // A reload still running when the load ended: wait for its answer (bounded).
    $waitUntil = \microtime(true) + 30.0;
    while ($command !== null && \microtime(true) < $waitUntil) {
        $result = $command->poll();
        if ($result !== null) {
            $command = null;
            if ($result['code'] === 0) {
                ++$reloadsDone;
            } else {
                $reloadProblems[] = $result['output'];
            }
        } else {
            \usleep(10000);
        }
    }
    $log = $server->log();
    $code = $server->stop();
    $recycled = \preg_match_all('/Recycling worker \d+ \(max-requests\)/', $log);

    $total = $load->ok + $load->failed + $load->socketErrors;
    \printf(
        "%-28s %9d %8d %8d %8d %12s %8.2f %8.2f %8.0f\n",
        $name,
        $total,
        $load->failed,
        $load->socketErrors,
        $load->retried,
        $reloads ? (string) $reloadsDone : $recycled . ' recycled',
        $load->percentile(50) * 1000,
        $load->percentile(99) * 1000,
        $total / $elapsed,
    );
    foreach ($load->errors as $error => $count) {
        \printf("    %dx %s\n", $count, $error);
    }
    foreach ($reloadProblems as $problem) {
        \printf("    reload failed: %s\n", $problem);
    }
    if ($code !== 0) {
        \printf("    the server exited with status %s\n", \var_export($code, true));
    }
    foreach (['ERROR', 'CRITICAL'] as $level) {
        if (\str_contains($log, "] {$level} [")) {
            \printf("    the server logged %s lines:\n%s\n", $level, \implode("\n", \preg_grep("/\\] {$level} \\[/", \explode("\n", $log)) ?: []));
        }
    }

    return $load->failed === 0 && $load->socketErrors === 0 && $reloadProblems === [] && $code === 0;
}

function main(): int
{
    $root = \dirname(__DIR__);
    $clients = 16;
    $duration = 10.0;
    foreach (\array_slice($_SERVER['argv'] ?? [], 1) as $argument) {
        if (\preg_match('/^--clients=(\d+)$/D', (string) $argument, $m) === 1 && (int) $m[1] > 0) {
            $clients = (int) $m[1];
        } elseif (\preg_match('/^--duration=(\d+(?:\.\d+)?)$/D', (string) $argument, $m) === 1 && (float) $m[1] > 0) {
            $duration = (float) $m[1];
        } else {
            \fwrite(\STDERR, "Usage: php benchmarks/reload.php [--clients=16] [--duration=10]\n");

            return 2;
        }
    }
    foreach (['pcntl_signal', 'posix_kill', 'proc_open'] as $function) {
        if (!\function_exists($function)) {
            \fwrite(\STDERR, "This benchmark needs {$function}() (the pcntl and posix extensions).\n");

            return 2;
        }
    }
    \register_shutdown_function([Cleanup::class, 'run']);
    \pcntl_async_signals(true);
    foreach ([\SIGINT, \SIGTERM] as $signal) {
        \pcntl_signal($signal, static function (): void {
            Cleanup::run();
            exit(130);
        });
    }

    \printf(
        "Spindle reload/recycle benchmark: examples/hello.php, --workers=2, %d clients, %s s per run, reload every %s s, recycle at --max-requests=%d\n",
        $clients,
        $duration,
        RELOAD_INTERVAL,
        RECYCLE_MAX_REQUESTS,
    );
    $cpus = \preg_match_all('/^processor\s*:/m', (string) @\file_get_contents('/proc/cpuinfo'));
    \printf("PHP %s, %d CPUs, %s\n\n", \PHP_VERSION, $cpus, \gmdate('Y-m-d H:i:s') . ' UTC');
    \printf("%-28s %9s %8s %8s %8s %12s %8s %8s %8s\n", 'run', 'requests', 'failed', 'sockerr', 'retried', 'reloads', 'p50 ms', 'p99 ms', 'req/s');
    $ok = true;
    foreach ([
        ['reload, fresh connections', false, true],
        ['reload, keep-alive', true, true],
        ['recycle, fresh connections', false, false],
        ['recycle, keep-alive', true, false],
    ] as [$name, $keepAlive, $reloads]) {
        $ok = run($root, $name, $keepAlive, $reloads, $clients, $duration) && $ok;
    }
    echo $ok ? "\nNo request lost.\n" : "\nRequests were lost (see above).\n";

    return $ok ? 0 : 1;
}

exit(main());
