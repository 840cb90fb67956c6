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
 * retry. These are the clients of the supervisor end-to-end tests (tests/E2E/Support/LoadClients.php),
 * and the servers and reload commands run as in those tests (ServerProcess, BackgroundCommand):
 * the script needs the Composer autoloader with the dev autoload (`composer install`).
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

use Spindle\Tests\E2E\Support\BackgroundCommand;
use Spindle\Tests\E2E\Support\LoadClients;
use Spindle\Tests\E2E\Support\ServerProcess;

const RELOAD_INTERVAL = 2.0;
const RECYCLE_MAX_REQUESTS = 500;

/** Stops every server still running when the script ends, however it ends. */
final class Cleanup
{
    /** @var list<ServerProcess> */
    private static array $servers = [];
    /** @var list<string> */
    private static array $directories = [];

    public static function add(ServerProcess $server): void
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

/** `bin/spindle reload` every RELOAD_INTERVAL seconds, in the background so the load never waits for it. */
final class Reloader
{
    public int $done = 0;
    /** @var list<string> the output of every reload that failed */
    public array $problems = [];
    private ?BackgroundCommand $command = null;
    private float $next;

    public function __construct(private readonly string $root, private readonly string $pidFile)
    {
        $this->next = \microtime(true) + RELOAD_INTERVAL;
    }

    /** Starts the next reload when it is due and the previous one has answered. */
    public function tick(float $now): void
    {
        if ($this->answered() && $now >= $this->next) {
            $this->command = BackgroundCommand::start([\PHP_BINARY, $this->root . '/bin/spindle', 'reload', '--pid-file=' . $this->pidFile, '--timeout=30']);
            $this->next += RELOAD_INTERVAL;
        }
    }

    /** Waits for the answer of a reload still running, at most $timeout seconds. */
    public function finish(float $timeout): void
    {
        $deadline = \microtime(true) + $timeout;
        while (!$this->answered() && \microtime(true) < $deadline) {
            \usleep(10000);
        }
    }

    private function answered(): bool
    {
        if ($this->command === null) {
            return true;
        }
        $result = $this->command->poll();
        if ($result === null) {
            return false;
        }
        $this->command = null;
        if ($result['code'] === 0) {
            ++$this->done;
        } else {
            $this->problems[] = \trim($result['out'] . $result['err']);
        }

        return true;
    }
}

/**
 * One run against a fresh server.
 *
 * @return bool whether it lost nothing
 */
function run(string $root, string $name, bool $keepAlive, bool $reloads, int $clients, float $duration): bool
{
    $pidFile = Cleanup::directory() . '/spindle.pid';
    $options = ['--workers=2', '--pid-file=' . $pidFile];
    if (!$reloads) {
        $options[] = '--max-requests=' . RECYCLE_MAX_REQUESTS;
    }
    $server = ServerProcess::start($root . '/examples/hello.php', $options);
    Cleanup::add($server);

    $reloader = $reloads ? new Reloader($root, $pidFile) : null;
    $load = new LoadClients($server->port(), $clients, $keepAlive);
    $started = \microtime(true);
    $load->run($duration, $reloader === null ? null : $reloader->tick(...));
    $elapsed = \microtime(true) - $started;
    $reloader?->finish(30.0);
    $log = $server->stderr();
    $code = $server->stop();
    $recycled = \preg_match_all('/Recycling worker \d+ \(max-requests\)/', $log);

    $total = $load->total();
    \printf(
        "%-28s %9d %8d %8d %8d %12s %8.2f %8.2f %8.0f\n",
        $name,
        $total,
        $load->failed,
        $load->socketErrors,
        $load->retried,
        $reloader !== null ? (string) $reloader->done : $recycled . ' recycled',
        $load->percentile(50) * 1000,
        $load->percentile(99) * 1000,
        $total / $elapsed,
    );
    foreach ($load->errorCounts as $error => $count) {
        \printf("    %dx %s\n", $count, $error);
    }
    foreach ($reloader->problems ?? [] as $problem) {
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

    return $load->failed === 0 && $load->socketErrors === 0 && ($reloader->problems ?? []) === [] && $code === 0;
}

function main(): int
{
    $root = \dirname(__DIR__);
    require_once $root . '/vendor/autoload.php';
    if (!\class_exists(LoadClients::class)) {
        \fwrite(\STDERR, "This benchmark needs the dev autoload of tests/ (run composer install without --no-dev).\n");

        return 2;
    }
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
