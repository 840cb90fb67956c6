<?php

declare(strict_types=1);

// What benchmarks/websocket-idle.php and websocket-broadcast.php share: starting `spindle serve`
// on benchmarks/apps/websocket.php (port 0, its readiness line awaited, stopped by its pid), the
// worker's /stats, a signed Pusher HTTP API request, and the load client (WsFleet): processes
// forked from the benchmark that each open their share of the connections on Spindle's own epoll
// loop (select() cannot watch a descriptor numbered 1024 or above) and report over a pipe.

use Revolt\EventLoop;
use Spindle\Bridge\Pusher\PusherApp;
use Spindle\Bridge\Pusher\RequestSignature;
use Spindle\Http\WebSocket\EventType;
use Spindle\Http\WebSocket\FrameEncoder;
use Spindle\Http\WebSocket\FrameParser;
use Spindle\Http\WebSocket\Opcode;
use Spindle\Loop\EventLoopKind;
use Spindle\Loop\Loop;

require_once __DIR__ . '/../vendor/autoload.php';

final class WsServer
{
    /** @var resource */
    private $process;
    public readonly int $port;
    public readonly int $masterPid;

    /** @param list<string> $options */
    public function __construct(string $checkout, array $options)
    {
        $command = ['php', "$checkout/bin/spindle", 'serve', __DIR__ . '/apps/websocket.php', '--port=0', ...$options];
        $this->process = proc_open($command, [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['file', sys_get_temp_dir() . '/spindle-ws-bench.log', 'w']], $pipes, $checkout)
            ?: throw new RuntimeException('Cannot start ' . implode(' ', $command));
        $this->masterPid = proc_get_status($this->process)['pid'];
        $process = $this->process;
        register_shutdown_function(static function () use ($process): void {
            if (is_resource($process) && proc_get_status($process)['running']) {
                proc_terminate($process);
            }
        });
        $deadline = microtime(true) + 30;
        $out = '';
        stream_set_blocking($pipes[1], false);
        while (preg_match('#listening on http://[0-9.]+:(\d+)#', $out, $m) !== 1) {
            if (microtime(true) > $deadline || !proc_get_status($this->process)['running']) {
                throw new RuntimeException("The server did not start:\n" . $out . @file_get_contents(sys_get_temp_dir() . '/spindle-ws-bench.log'));
            }
            $read = [$pipes[1]];
            $w = $e = null;
            if (stream_select($read, $w, $e, 1) > 0) {
                $out .= (string) fread($pipes[1], 8192);
            }
        }
        $this->port = (int) $m[1];
    }

    /** @return array{pid: int, memory: int, memory_real: int, rss: int, cpu: float} the worker's */
    public function stats(): array
    {
        $body = file_get_contents("http://127.0.0.1:{$this->port}/stats");
        /** @var array{pid: int, memory: int, memory_real: int, rss: int, cpu: float} $stats */
        $stats = json_decode((string) $body, true, 4, JSON_THROW_ON_ERROR);

        return $stats;
    }

    /** CPU seconds (user + system) of a process, from /proc, without asking it. */
    public static function cpuOf(int $pid): float
    {
        $fields = explode(' ', substr((string) file_get_contents("/proc/$pid/stat"), strrpos((string) file_get_contents("/proc/$pid/stat"), ')') + 2));

        return ((int) $fields[11] + (int) $fields[12]) / 100;
    }

    public static function rssOf(int $pid): int
    {
        return preg_match('/^VmRSS:\s+(\d+) kB/m', (string) file_get_contents("/proc/$pid/status"), $m) === 1 ? (int) $m[1] * 1024 : 0;
    }

    /** A signed POST /apps/1/events; returns the raw request to write (Connection: close). */
    public function eventRequest(string $channel, string $name, string $data): string
    {
        $body = json_encode(['name' => $name, 'channel' => $channel, 'data' => $data], JSON_THROW_ON_ERROR);
        $query = RequestSignature::signedQuery(new PusherApp('1', 'app-key', 'app-secret'), 'POST', '/apps/1/events', $body, time());

        return 'POST /apps/1/events?' . http_build_query($query) . " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: " . strlen($body) . "\r\nConnection: close\r\n\r\n" . $body;
    }

    public function stop(): void
    {
        proc_terminate($this->process);
        proc_close($this->process);
    }
}

/**
 * Client processes holding WebSocket connections. Each child opens its share (at most 200
 * handshakes in flight), optionally as Pusher clients subscribed to a channel, tells the parent
 * "ready", then records the latency of each broadcast that carries its send time ("t") until the
 * parent writes "report", when it writes the latencies (JSON) and exits. With a deadline, a child
 * that has not opened its share by then says "ready" with what it has, and stops opening more;
 * a connection refused, a handshake answered with another status than 101, a `pusher:error` or a
 * close before the subscription counts as failed, its reason kept ($failures).
 */
final class WsFleet
{
    /** @var array{open: int, failed: int, pending: int, errors: array<string, int>} what the last ready() saw */
    public array $failures = ['open' => 0, 'failed' => 0, 'pending' => 0, 'errors' => []];

    /** @var list<array{int, resource, resource}> pid, to-child, from-child */
    private array $children = [];

    public function __construct(int $port, int $connections, int $processes, ?string $pusherChannel, float $deadline = 0.0, string $appKey = 'app-key')
    {
        $share = intdiv($connections, $processes);
        for ($p = 0; $p < $processes; ++$p) {
            $count = $p === $processes - 1 ? $connections - $share * ($processes - 1) : $share;
            $down = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
            $up = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
            assert($down !== false && $up !== false);
            $pid = pcntl_fork();
            if ($pid === 0) {
                fclose($down[0]);
                fclose($up[0]);
                (new WsFleetChild($port, $count, $pusherChannel, $down[1], $up[1], $deadline, $appKey))->run();
                exit(0);
            }
            fclose($down[1]);
            fclose($up[1]);
            $this->children[] = [$pid, $down[0], $up[0]];
        }
        $pids = array_column($this->children, 0);
        register_shutdown_function(static function () use ($pids): void {
            foreach ($pids as $pid) {
                if (pcntl_waitpid($pid, $status, WNOHANG) === 0) {
                    posix_kill($pid, SIGTERM);
                    pcntl_waitpid($pid, $status);
                }
            }
        });
    }

    /** Waits until every child holds its connections; returns how many are open in all. */
    public function ready(): int
    {
        $open = 0;
        $this->failures = ['open' => 0, 'failed' => 0, 'pending' => 0, 'errors' => []];
        foreach ($this->children as [, , $up]) {
            $line = fgets($up);
            if ($line === false || !str_starts_with($line, 'ready ')) {
                throw new RuntimeException('A client process failed: ' . var_export($line, true));
            }
            $fields = explode(' ', trim($line), 5);
            $open += (int) $fields[1];
            $this->failures['failed'] += (int) ($fields[2] ?? 0);
            $this->failures['pending'] += (int) ($fields[3] ?? 0);
            /** @var array<string, int> $errors */
            $errors = json_decode($fields[4] ?? '[]', true) ?: [];
            foreach ($errors as $reason => $count) {
                $this->failures['errors'][$reason] = ($this->failures['errors'][$reason] ?? 0) + $count;
            }
        }
        $this->failures['open'] = $open;

        return $open;
    }

    /** How many of the connections the children opened are still open (and subscribed). */
    public function alive(): int
    {
        $alive = 0;
        foreach ($this->children as [, $down, $up]) {
            fwrite($down, "count\n");
            $alive += (int) substr((string) fgets($up), 6);
        }

        return $alive;
    }

    /** @return list<float> the latencies the children measured since the last drain(), in seconds; they go on */
    public function drain(): array
    {
        $all = [];
        foreach ($this->children as [, $down, $up]) {
            fwrite($down, "drain\n");
            /** @var list<float> $latencies */
            $latencies = json_decode((string) fgets($up), true, 4, JSON_THROW_ON_ERROR);
            $all = [...$all, ...$latencies];
        }

        return $all;
    }

    /** @return list<float> every latency the children measured, in seconds */
    public function report(): array
    {
        $all = [];
        foreach ($this->children as [$pid, $down, $up]) {
            fwrite($down, "report\n");
            /** @var list<float> $latencies */
            $latencies = json_decode((string) fgets($up), true, 4, JSON_THROW_ON_ERROR);
            $all = [...$all, ...$latencies];
            pcntl_waitpid($pid, $status);
        }
        $this->children = [];

        return $all;
    }
}

final class WsFleetChild
{
    private const IN_FLIGHT = 200;
    /** @var array<int, resource> */
    private array $sockets = [];
    /** @var array<int, string> handshake bytes read so far, until the 101's head is complete */
    private array $heads = [];
    /** @var array<int, FrameParser> */
    private array $parsers = [];
    /** @var array<int, bool> subscribed (or, without Pusher, open) */
    private array $ready = [];
    private int $started = 0;
    private int $failed = 0;
    /** @var array<string, int> why connections failed, and how many for each reason */
    private array $errors = [];
    /** @var list<float> */
    private array $latencies = [];
    private bool $announced = false;

    /**
     * @param resource $down
     * @param resource $up
     */
    public function __construct(
        private readonly int $port,
        private readonly int $count,
        private readonly ?string $channel,
        private readonly mixed $down,
        private readonly mixed $up,
        private readonly float $deadline = 0.0,
        private readonly string $appKey = 'app-key',
    ) {
    }

    public function run(): void
    {
        Loop::install(EventLoopKind::Epoll);
        Loop::raiseDescriptorLimit($this->count + 100);
        EventLoop::onReadable($this->down, function (string $id): void {
            $line = fgets($this->down);
            if ($line !== false && trim($line) === 'count') {
                fwrite($this->up, 'count ' . count($this->ready) . "\n");

                return;
            }
            if ($line !== false && trim($line) === 'drain') {
                fwrite($this->up, json_encode($this->latencies, JSON_THROW_ON_ERROR) . "\n");
                $this->latencies = [];

                return;
            }
            if ($line === false || trim($line) === 'report') {
                EventLoop::cancel($id);
                fwrite($this->up, json_encode($this->latencies, JSON_THROW_ON_ERROR) . "\n");
                EventLoop::getDriver()->stop();
            }
        });
        if ($this->deadline > 0) {
            EventLoop::unreference(EventLoop::delay($this->deadline, function (): void {
                $this->announce();
            }));
        }
        for ($i = 0; $i < min(self::IN_FLIGHT, $this->count); ++$i) {
            $this->open();
        }
        EventLoop::run();
    }

    private function open(): void
    {
        if ($this->started >= $this->count || $this->announced) {
            return;
        }
        ++$this->started;
        $socket = @stream_socket_client("tcp://127.0.0.1:{$this->port}", $errno, $error, 30);
        if ($socket === false) {
            $this->fail("connect: $error");

            return;
        }
        stream_set_blocking($socket, false);
        $id = (int) $socket;
        $path = $this->channel !== null ? "/app/{$this->appKey}?protocol=7&client=bench" : '/ws';
        $key = base64_encode(random_bytes(16));
        // The head a browser sends (Chrome's, with a session cookie), so that what the server keeps of it weighs what it would.
        fwrite($socket, "GET $path HTTP/1.1\r\nHost: 127.0.0.1:{$this->port}\r\nConnection: Upgrade\r\nPragma: no-cache\r\nCache-Control: no-cache\r\n"
            . "User-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36\r\nUpgrade: websocket\r\n"
            . "Origin: http://127.0.0.1:{$this->port}\r\nSec-WebSocket-Version: 13\r\nAccept-Encoding: gzip, deflate, br, zstd\r\nAccept-Language: en-US,en;q=0.9\r\n"
            . 'Cookie: laravel_session=' . bin2hex(random_bytes(120)) . "\r\nSec-WebSocket-Key: $key\r\nSec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n\r\n");
        $this->sockets[$id] = $socket;
        $this->heads[$id] = '';
        EventLoop::onReadable($socket, fn (string $watcher) => $this->onReadable($watcher, $id));
    }

    private function onReadable(string $watcher, int $id): void
    {
        $data = @fread($this->sockets[$id], 65536);
        if ($data === false || $data === '') {
            if ($data === false || feof($this->sockets[$id])) {
                EventLoop::cancel($watcher);
                fclose($this->sockets[$id]);
                if (!isset($this->ready[$id])) {
                    $this->fail(isset($this->heads[$id]) ? 'closed before the 101' : 'closed before subscribed');
                }
                unset($this->sockets[$id], $this->parsers[$id], $this->heads[$id], $this->ready[$id]);
            }

            return;
        }
        $now = microtime(true);
        if (isset($this->heads[$id])) {
            $this->heads[$id] .= $data;
            $end = strpos($this->heads[$id], "\r\n\r\n");
            if ($end === false) {
                return;
            }
            if (!str_starts_with($this->heads[$id], 'HTTP/1.1 101')) {
                EventLoop::cancel($watcher);
                fclose($this->sockets[$id]);
                $this->fail('refused: ' . strtok($this->heads[$id], "\r\n"));
                unset($this->sockets[$id], $this->heads[$id]);

                return;
            }
            $data = substr($this->heads[$id], $end + 4);
            unset($this->heads[$id]);
            $this->parsers[$id] = FrameParser::forClient();
            if ($this->channel === null) {
                $this->opened($id);
            }
        }
        foreach ($this->parsers[$id]->push($data) as $event) {
            if ($event->type === EventType::Ping) {
                // As a browser does: the server pings a client that stays silent.
                fwrite($this->sockets[$id], FrameEncoder::frame(Opcode::Pong->value, $event->payload, true, random_bytes(4)));

                continue;
            }
            if ($event->type !== EventType::Text) {
                continue;
            }
            $frame = json_decode($event->payload, true);
            $name = is_array($frame) ? ($frame['event'] ?? '') : '';
            if ($name === 'pusher:connection_established') {
                $subscribe = json_encode(['event' => 'pusher:subscribe', 'data' => ['channel' => $this->channel]], JSON_THROW_ON_ERROR);
                fwrite($this->sockets[$id], FrameEncoder::frame(Opcode::Text->value, $subscribe, true, random_bytes(4)));
            } elseif ($name === 'pusher_internal:subscription_succeeded') {
                $this->opened($id);
            } elseif ($name === 'pusher:error' && !isset($this->ready[$id])) {
                // Its data is an object, or (as some servers send it) that object as a JSON string.
                $error = $frame['data'] ?? null;
                $error = is_string($error) ? json_decode($error, true) : $error;
                EventLoop::cancel($watcher);
                fclose($this->sockets[$id]);
                unset($this->sockets[$id], $this->parsers[$id]);
                $this->fail('pusher:error ' . (is_array($error) ? ($error['code'] ?? '?') . ' ' . ($error['message'] ?? '') : '?'));

                return;
            } elseif ($name === 'pusher:ping') {
                fwrite($this->sockets[$id], FrameEncoder::frame(Opcode::Text->value, '{"event":"pusher:pong","data":{}}', true, random_bytes(4)));
            } elseif (is_array($frame) && is_string($frame['data'] ?? null)) {
                $data = json_decode($frame['data'], true);
                if (is_array($data) && isset($data['t'])) {
                    $this->latencies[] = $now - (float) $data['t'];
                }
            }
        }
    }

    private function opened(int $id): void
    {
        $this->ready[$id] = true;
        $this->open();
        $this->check();
    }

    private function fail(string $reason): void
    {
        ++$this->failed;
        $this->errors[$reason] = ($this->errors[$reason] ?? 0) + 1;
        $this->check();
    }

    private function check(): void
    {
        if (count($this->ready) + $this->failed >= $this->count) {
            $this->announce();
        }
    }

    /** Tells the parent how many are open, failed and still pending, and why they failed. */
    private function announce(): void
    {
        if ($this->announced) {
            return;
        }
        $this->announced = true;
        $pending = $this->count - count($this->ready) - $this->failed;
        fwrite($this->up, sprintf("ready %d %d %d %s\n", count($this->ready), $this->failed, $pending, json_encode((object) $this->errors, JSON_THROW_ON_ERROR)));
    }
}

/** @param list<float> $values */
function percentile(array $values, float $p): float
{
    if ($values === []) {
        return NAN;
    }
    sort($values);

    return $values[min(count($values) - 1, (int) ceil($p / 100 * count($values)) - 1)];
}
