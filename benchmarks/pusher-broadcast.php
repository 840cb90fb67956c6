<?php

declare(strict_types=1);

// A broadcast to many Pusher subscribers on one public channel, end to end: `spindle serve`
// (tests/fixtures/apps/pusher.php of the checkout served) with 1 or 2 workers, SUBSCRIBERS
// WebSocket clients in PROCS client processes subscribed to "news", EVENTS events published
// through the signed HTTP API (one every 50 ms); for each event and subscriber the time from the
// publish to the event's arrival. With 2 workers about half the subscribers get each event through
// the master's relay (docs/protocols.md "Several workers").
//
//   php benchmarks/pusher-broadcast.php                 # this checkout, 1 and 2 workers
//   BASE=/path/to/other/checkout php benchmarks/pusher-broadcast.php   # and that one, 1 worker
//
// Env: SUBSCRIBERS (2000), PROCS (4), EVENTS (30), ROUNDS (3, interleaved), BASE_WORKERS (1).

require __DIR__ . '/../vendor/autoload.php';

use Spindle\Bridge\Pusher\PusherApp;
use Spindle\Bridge\Pusher\RequestSignature;
use Spindle\Http\WebSocket\ClientHandshake;
use Spindle\Http\WebSocket\EventType;
use Spindle\Http\WebSocket\FrameEncoder;
use Spindle\Http\WebSocket\FrameParser;
use Spindle\Http\WebSocket\WebSocketLimits;

$subscribers = (int) (getenv('SUBSCRIBERS') ?: 2000);
$procs = (int) (getenv('PROCS') ?: 4);
$events = (int) (getenv('EVENTS') ?: 30);
$rounds = (int) (getenv('ROUNDS') ?: 3);
$here = dirname(__DIR__);
$targets = [['this, 1 worker', $here, 1], ['this, 2 workers', $here, 2]];
if (getenv('BASE')) {
    $baseWorkers = (int) (getenv('BASE_WORKERS') ?: 1);
    $targets[] = ['base, ' . $baseWorkers . ' worker' . ($baseWorkers === 1 ? '' : 's'), (string) getenv('BASE'), $baseWorkers];
}

/** @return array{resource, int} the server process and its port */
function startServer(string $root, int $workers): array
{
    $process = proc_open(['php', "$root/bin/spindle", 'serve', "$root/tests/fixtures/apps/pusher.php", '--host=127.0.0.1', '--port=0', "--workers=$workers", '--max-connections=10000'], [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes);
    assert(is_resource($process));
    $out = '';
    $deadline = microtime(true) + 30;
    while (preg_match('#listening on http://127\.0\.0\.1:(\d+)#', $out, $m) !== 1) {
        if (microtime(true) > $deadline) {
            throw new RuntimeException("$root did not start: $out");
        }
        $out .= (string) fgets($pipes[1]);
    }

    return [$process, (int) $m[1]];
}

/** A child that connects $count subscribers, says "ready", then reports every event's latency (ms) when the parent closes its pipe. */
function subscribers(int $port, int $count, $toParent, $fromParent): void
{
    $clients = [];
    $parsers = [];
    for ($i = 0; $i < $count; ++$i) {
        $s = stream_socket_client("tcp://127.0.0.1:$port", $errno, $error, 10);
        if ($s === false) {
            fwrite($toParent, "error $error\n");
            exit(1);
        }
        $handshake = new ClientHandshake("127.0.0.1:$port", '/app/app-key?protocol=7&client=js&version=8.4.0');
        fwrite($s, $handshake->request());
        $head = '';
        while (!str_contains($head, "\r\n\r\n")) {
            $head .= fread($s, 4096);
        }
        $parser = FrameParser::forClient(new WebSocketLimits(1 << 20, 1 << 20));
        $parser->push((string) substr($head, strpos($head, "\r\n\r\n") + 4));
        fwrite($s, FrameEncoder::frame(1, '{"event":"pusher:subscribe","data":{"channel":"news"}}', maskKey: random_bytes(4)));
        stream_set_blocking($s, false);
        $clients[$i] = $s;
        $parsers[$i] = $parser;
    }
    // Wait for every subscription_succeeded.
    $subscribed = 0;
    $latencies = [];
    $ready = false;
    while (true) {
        $read = $clients;
        if ($ready) {
            $read[] = $fromParent;
        }
        $write = $except = null;
        if (@stream_select($read, $write, $except, 1) === 0) {
            continue;
        }
        $now = microtime(true);
        foreach ($read as $s) {
            if ($s === $fromParent) {
                fwrite($toParent, json_encode($latencies) . "\n");
                exit(0);
            }
            $i = array_search($s, $clients, true);
            $bytes = (string) fread($s, 65536);
            foreach ($parsers[$i]->push($bytes) as $event) {
                if ($event->type !== EventType::Text) {
                    continue;
                }
                $frame = json_decode($event->payload, true);
                if (($frame['event'] ?? '') === 'pusher_internal:subscription_succeeded' && ++$subscribed === $count) {
                    $ready = true;
                    fwrite($toParent, "ready\n");
                } elseif (($frame['event'] ?? '') === 'Tick') {
                    $latencies[] = ($now - (float) json_decode($frame['data'], true)['at']) * 1000;
                }
            }
        }
    }
}

function publish(int $port): void
{
    $app = new PusherApp('1', 'app-key', 'app-secret');
    $path = '/apps/1/events';
    $body = json_encode(['name' => 'Tick', 'channel' => 'news', 'data' => json_encode(['at' => microtime(true)])]);
    $query = http_build_query(RequestSignature::signedQuery($app, 'POST', $path, $body, time()));
    $s = stream_socket_client("tcp://127.0.0.1:$port");
    fwrite($s, "POST $path?$query HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: " . strlen($body) . "\r\nConnection: close\r\n\r\n$body");
    stream_get_contents($s);
    fclose($s);
}

$results = [];
for ($round = 1; $round <= $rounds; ++$round) {
    $order = $round % 2 === 1 ? $targets : array_reverse($targets);
    foreach ($order as [$label, $root, $workers]) {
        [$server, $port] = startServer($root, $workers);
        $children = [];
        for ($p = 0; $p < $procs; ++$p) {
            $up = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
            $down = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
            $pid = pcntl_fork();
            if ($pid === 0) {
                fclose($up[0]);
                fclose($down[0]);
                subscribers($port, intdiv($subscribers, $procs), $up[1], $down[1]);
            }
            fclose($up[1]);
            fclose($down[1]);
            $children[] = [$pid, $up[0], $down[0]];
        }
        foreach ($children as [, $up]) {
            $line = trim((string) fgets($up));
            if ($line !== 'ready') {
                throw new RuntimeException("A client process said: $line");
            }
        }
        for ($e = 0; $e < $events; ++$e) {
            publish($port);
            usleep(50_000);
        }
        usleep(300_000);
        $latencies = [];
        foreach ($children as [$pid, $up, $down]) {
            fwrite($down, "done\n");
            array_push($latencies, ...json_decode((string) fgets($up), true));
            pcntl_waitpid($pid, $status);
        }
        proc_terminate($server);
        proc_close($server);
        sort($latencies);
        $n = count($latencies);
        $results[$label][] = [$latencies[(int) (0.5 * $n)], $latencies[(int) (0.99 * $n)], $latencies[$n - 1], $n / ($events * intdiv($subscribers, $procs) * $procs)];
        fprintf(STDERR, "round %d %s: p50 %.1f ms, p99 %.1f ms, delivered %.3f\n", $round, $label, ...array_values([$results[$label][count($results[$label]) - 1][0], $results[$label][count($results[$label]) - 1][1], $results[$label][count($results[$label]) - 1][3]]));
    }
}
printf("%d subscribers in %d processes, %d events, %d rounds (medians)\n\n| server | p50 ms | p99 ms | max ms | delivered |\n|---|---|---|---|---|\n", $subscribers, $procs, $events, $rounds);
foreach ($results as $label => $runs) {
    $median = static function (int $i) use ($runs): float {
        $v = array_column($runs, $i);
        sort($v);

        return $v[intdiv(count($v), 2)];
    };
    printf("| %s | %.1f | %.1f | %.1f | %.3f |\n", $label, $median(0), $median(1), $median(2), $median(3));
}
