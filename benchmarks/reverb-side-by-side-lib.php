<?php

declare(strict_types=1);

// The servers of benchmarks/reverb-side-by-side.php: Reverb (`php artisan reverb:start`) or
// `spindle serve` on the lab app, started under one descriptor limit and the same PHP flags,
// awaited by their readiness line, stopped by pid; their process tree's memory and CPU read from
// /proc; a fresh Pusher client as a health probe; signed Pusher HTTP API requests and plain GETs.

use Spindle\Bridge\Pusher\PusherApp;
use Spindle\Bridge\Pusher\RequestSignature;

final class LabServer
{
    /** The flags benchmarks/lib.sh gives every server of a comparison (PHP_SHARED_SETTINGS). */
    private const PHP_FLAGS = [
        'realpath_cache_size=4096K', 'realpath_cache_ttl=600',
        'opcache.enable=1', 'opcache.enable_cli=1', 'opcache.validate_timestamps=0',
        'opcache.memory_consumption=128', 'opcache.max_accelerated_files=20000', 'opcache.interned_strings_buffer=16',
        'opcache.jit=tracing', 'opcache.jit_buffer_size=64M',
        'opcache.jit_max_root_traces=8192', 'opcache.jit_max_exit_counters=65536',
    ];

    /**
     * @param resource $process
     * @param resource|null $appProcess beside Reverb, the app under `php -S` (its broadcast() posts to Reverb)
     */
    private function __construct(
        private readonly mixed $process,
        public readonly int $pid,
        public readonly int $port,
        public readonly bool $spindle,
        public readonly string $log,
        private readonly mixed $appProcess = null,
        public readonly int $appPort = 0,
    ) {
    }

    /** $target: reverb, spindle-w1 or spindle-w2. */
    public static function start(string $target, string $app, int $nofile, int $maxConnections): self
    {
        $php = ['php'];
        foreach (self::PHP_FLAGS as $flag) {
            $php[] = '-d';
            $php[] = $flag;
        }
        if ($target === 'reverb') {
            $port = self::freePort();
            $command = [...$php, 'artisan', 'reverb:start', '--host=127.0.0.1', "--port=$port", '--no-interaction'];
            // Reverb prints why it stops only with --debug (which also prints every message).
            if (getenv('REVERB_DEBUG') === '1') {
                $command[] = '--debug';
            }
            $ready = '/Starting server on/';
        } elseif (preg_match('/^spindle-w(\d+)$/', $target, $m) === 1) {
            $command = [...$php, dirname(__DIR__) . '/bin/spindle', 'serve', $app, '--port=0', "--workers={$m[1]}", '--event-loop=epoll', "--max-connections=$maxConnections"];
            $ready = '#listening on http://[0-9.]+:(\d+)#';
            $port = 0;
        } else {
            throw new InvalidArgumentException("Unknown target $target");
        }
        $log = sys_get_temp_dir() . "/reverb-side-by-side-$target.log";
        $output = fopen($log, 'w') ?: throw new RuntimeException("Cannot write $log");
        // Soft and hard descriptor limits set alike, then the server exec'd in the shell's place (same pid).
        $process = proc_open(['sh', '-c', 'ulimit -n "$0" && exec "$@"', (string) $nofile, ...$command], [0 => ['file', '/dev/null', 'r'], 1 => $output, 2 => $output], $pipes, $app)
            ?: throw new RuntimeException('Cannot start ' . implode(' ', $command));
        $pid = proc_get_status($process)['pid'];
        register_shutdown_function(static function () use ($process): void {
            if (is_resource($process) && proc_get_status($process)['running']) {
                proc_terminate($process);
            }
        });
        $deadline = microtime(true) + 30;
        while (preg_match($ready, (string) file_get_contents($log), $m) !== 1) {
            if (microtime(true) > $deadline || !proc_get_status($process)['running']) {
                throw new RuntimeException("$target did not start:\n" . file_get_contents($log));
            }
            usleep(50_000);
        }
        $port = $port ?: (int) ($m[1] ?? 0);
        // Reverb prints its line before it listens: wait until it accepts.
        while (($socket = @stream_socket_client("tcp://127.0.0.1:$port", $errno, $error, 1)) === false) {
            if (microtime(true) > $deadline) {
                throw new RuntimeException("$target does not accept on $port: $error");
            }
            usleep(50_000);
        }
        fclose($socket);

        if ($target !== 'reverb') {
            return new self($process, $pid, $port, true, $log, null, $port);
        }
        // The app itself, for its broadcast() (/tick): PHP's built-in server, one process that
        // boots the app per request as php-fpm does, the broadcasting connection pointed at
        // Reverb's port, so that each broadcast() is Laravel's Pusher driver posting to Reverb.
        $appPort = self::freePort();
        $appLog = sys_get_temp_dir() . '/reverb-side-by-side-app.log';
        $environment = [...getenv(), 'REVERB_HOST' => '127.0.0.1', 'REVERB_PORT' => (string) $port, 'REVERB_SCHEME' => 'http'];
        $appProcess = proc_open([...$php, '-S', "127.0.0.1:$appPort", '-t', "$app/public", "$app/public/index.php"], [0 => ['file', '/dev/null', 'r'], 1 => ['file', $appLog, 'w'], 2 => ['file', $appLog, 'w']], $pipes, $app, $environment)
            ?: throw new RuntimeException('Cannot start php -S');
        register_shutdown_function(static function () use ($appProcess): void {
            if (is_resource($appProcess) && proc_get_status($appProcess)['running']) {
                proc_terminate($appProcess);
            }
        });
        while (($socket = @stream_socket_client("tcp://127.0.0.1:$appPort", $errno, $error, 1)) === false) {
            if (microtime(true) > $deadline + 10) {
                throw new RuntimeException("php -S does not accept on $appPort: $error");
            }
            usleep(50_000);
        }
        fclose($socket);

        return new self($process, $pid, $port, false, $log, $appProcess, $appPort);
    }

    private static function freePort(): int
    {
        $probe = stream_socket_server('tcp://127.0.0.1:0') ?: throw new RuntimeException('No free port');
        $port = (int) substr((string) strrchr((string) stream_socket_get_name($probe, false), ':'), 1);
        fclose($probe);

        return $port;
    }

    /** "running", or how the server ended and the last line of its output. */
    public function status(): string
    {
        $status = proc_get_status($this->process);
        if ($status['running']) {
            return 'running';
        }
        $output = (string) file_get_contents($this->log);
        // The first error line when there is one (Reverb with --debug), else the last line.
        $lines = array_values(array_filter(array_map('trim', explode("\n", $output))));
        $errors = preg_grep('/ERROR|Fatal|Uncaught/', $lines) ?: [];
        $last = substr((string) ($errors === [] ? end($lines) : reset($errors)), 0, 200);

        return ($status['signaled'] ? "killed by signal {$status['termsig']}" : "exited with {$status['exitcode']}") . ($last !== '' ? ": $last" : '');
    }

    public static function installedVersion(string $app, string $package): string
    {
        /** @var array{packages: list<array{name: string, version: string, dist?: array{reference?: string}, source?: array{reference?: string}}>} $installed */
        $installed = json_decode((string) file_get_contents("$app/vendor/composer/installed.json"), true, 512, JSON_THROW_ON_ERROR);
        foreach ($installed['packages'] as $entry) {
            if ($entry['name'] === $package) {
                $commit = is_file("$app/../packages/$package/.commit") ? ' (' . substr(trim((string) file_get_contents("$app/../packages/$package/.commit")), 0, 12) . ')' : '';

                return $entry['version'] . $commit;
            }
        }

        return 'not installed';
    }

    /** @return list<int> the server's pid and its descendants' */
    public function tree(): array
    {
        $pids = [$this->pid];
        for ($i = 0; $i < count($pids); ++$i) {
            foreach (glob("/proc/{$pids[$i]}/task/*/children") ?: [] as $file) {
                foreach (preg_split('/\s+/', trim((string) @file_get_contents($file))) ?: [] as $child) {
                    if ($child !== '') {
                        $pids[] = (int) $child;
                    }
                }
            }
        }

        return $pids;
    }

    /** Resident memory of the whole tree, in bytes. */
    public function rss(): int
    {
        return array_sum(array_map(static fn (int $pid): int => WsServer::rssOf($pid), $this->tree()));
    }

    /** "Max open files" soft/hard of each process of the tree. */
    public function limits(): string
    {
        $parts = [];
        foreach ($this->tree() as $pid) {
            if (preg_match('/^Max open files\s+(\S+)\s+(\S+)/m', (string) @file_get_contents("/proc/$pid/limits"), $m) === 1) {
                $parts[] = "pid $pid nofile {$m[1]}/{$m[2]}";
            }
        }

        return implode(', ', $parts);
    }

    /**
     * @return array{float, float, string} CPU seconds of the tree over $seconds of idleness, its
     *     wake-ups (voluntary context switches) a second, and both per process (the first is the
     *     server's main process: Reverb's only one, Spindle's master)
     */
    public function idleCpu(float $seconds): array
    {
        $pids = $this->tree();
        $cpu = array_map(WsServer::cpuOf(...), $pids);
        $switches = array_map(self::switchesOf(...), $pids);
        usleep((int) ($seconds * 1e6));
        $parts = [];
        foreach ($pids as $i => $pid) {
            $cpu[$i] = WsServer::cpuOf($pid) - $cpu[$i];
            $switches[$i] = (self::switchesOf($pid) - $switches[$i]) / $seconds;
            $parts[] = sprintf('%.2f s, %.1f/s', $cpu[$i], $switches[$i]);
        }

        return [array_sum($cpu), array_sum($switches), implode(' + ', $parts)];
    }

    private static function switchesOf(int $pid): int
    {
        return preg_match('/^voluntary_ctxt_switches:\s+(\d+)/m', (string) @file_get_contents("/proc/$pid/status"), $m) === 1 ? (int) $m[1] : 0;
    }

    /** A fresh Pusher client: "ok" when it gets pusher:connection_established within 5 s, else what it got. */
    public function probe(): string
    {
        $socket = @stream_socket_client("tcp://127.0.0.1:{$this->port}", $errno, $error, 5);
        if ($socket === false) {
            return "connect: $error";
        }
        fwrite($socket, "GET /app/app-key?protocol=7&client=probe HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
            . 'Sec-WebSocket-Version: 13' . "\r\nSec-WebSocket-Key: " . base64_encode(random_bytes(16)) . "\r\n\r\n");
        $got = '';
        $deadline = microtime(true) + 5;
        stream_set_blocking($socket, false);
        while (!str_contains($got, 'pusher:connection_established') && microtime(true) < $deadline) {
            $read = [$socket];
            $w = $e = null;
            if (stream_select($read, $w, $e, 0, 200_000) > 0) {
                $chunk = fread($socket, 8192);
                if ($chunk === false || ($chunk === '' && feof($socket))) {
                    break;
                }
                $got .= $chunk;
            }
        }
        fclose($socket);
        if (str_contains($got, 'pusher:connection_established')) {
            return 'ok';
        }

        return $got === '' ? 'no answer in 5 s' : 'got: ' . substr((string) strtok($got, "\r\n"), 0, 60);
    }

    /** @param array<string, mixed> $data a signed POST /apps/1/events; returns the raw response */
    public function postEvent(string $channel, string $name, array $data): string
    {
        $body = json_encode(['name' => $name, 'channel' => $channel, 'data' => json_encode($data, JSON_THROW_ON_ERROR)], JSON_THROW_ON_ERROR);
        $query = RequestSignature::signedQuery(new PusherApp('1', 'app-key', 'app-secret'), 'POST', '/apps/1/events', $body, time());

        return $this->request('POST /apps/1/events?' . http_build_query($query) . " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: " . strlen($body) . "\r\nConnection: close\r\n\r\n" . $body);
    }

    /** A GET to the app: Spindle's port, or beside Reverb the app's `php -S`. */
    public function get(string $target): string
    {
        return $this->request("GET $target HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", $this->appPort);
    }

    /** Sends a request on a fresh connection; reads the head and Content-Length bytes of body (10 s at most). */
    private function request(string $request, ?int $port = null): string
    {
        $port ??= $this->port;
        $socket = @stream_socket_client("tcp://127.0.0.1:$port", $errno, $error, 10);
        if ($socket === false) {
            return "connect: $error";
        }
        stream_set_timeout($socket, 10);
        fwrite($socket, $request);
        $response = '';
        while (!feof($socket)) {
            $chunk = fread($socket, 65536);
            if ($chunk === false || ($chunk === '' && stream_get_meta_data($socket)['timed_out'])) {
                break;
            }
            $response .= $chunk;
            $end = strpos($response, "\r\n\r\n");
            if ($end !== false && preg_match('/^content-length:\s*(\d+)/mi', substr($response, 0, $end), $m) === 1 && strlen($response) >= $end + 4 + (int) $m[1]) {
                break;
            }
        }
        fclose($socket);

        return $response === '' ? 'no answer' : $response;
    }

    public function stop(): void
    {
        if ($this->appProcess !== null) {
            proc_terminate($this->appProcess);
            proc_close($this->appProcess);
        }
        proc_terminate($this->process);
        $deadline = microtime(true) + 10;
        while (proc_get_status($this->process)['running'] && microtime(true) < $deadline) {
            usleep(100_000);
        }
        if (proc_get_status($this->process)['running']) {
            proc_terminate($this->process, SIGKILL);
        }
        proc_close($this->process);
    }
}
