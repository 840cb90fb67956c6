<?php

declare(strict_types=1);

// What a broadcast() from a task worker costs against one from a request (docs/protocols.md
// "Broadcasting from task workers"): the Laravel 12 fixture under `spindle serve --workers=2
// --task-workers=1`, SUBSCRIBERS raw Pusher clients on "news" (spread over both workers by the
// kernel), and events triggered one at a time, the two ways alternating:
//
//   request  GET /broadcast: broadcast() in the request, published by that HTTP worker;
//   task     GET /broadcast-task: Spindle\task(fn () => broadcast(...)): the closure goes to the
//            task worker, whose app broadcasts, and the note comes back to the HTTP worker,
//            which publishes it.
//
// For each event and subscriber, the time from sending the GET to the event's arrival; and the
// GET's own time to its answer. Both routes broadcast the same event (the public, a private and
// an encrypted channel). With BASE=/path/to/other/checkout (its Laravel 12 fixture installed),
// that checkout's `request` row is measured in the same rounds.
//
//   php benchmarks/pusher-task-broadcast.php
//   BASE=/tmp/base php benchmarks/pusher-task-broadcast.php
//
// Env: SUBSCRIBERS (20), EVENTS (100 per way and round), ROUNDS (3; servers interleaved).

require __DIR__ . '/../vendor/autoload.php';

use Spindle\Http\WebSocket\ClientHandshake;
use Spindle\Http\WebSocket\EventType;
use Spindle\Http\WebSocket\FrameEncoder;
use Spindle\Http\WebSocket\FrameParser;
use Spindle\Http\WebSocket\WebSocketLimits;

$subscribers = (int) (getenv('SUBSCRIBERS') ?: 20);
$events = (int) (getenv('EVENTS') ?: 100);
$rounds = (int) (getenv('ROUNDS') ?: 3);
$here = dirname(__DIR__);
$targets = [['this', $here, ['request', 'task']]];
if (getenv('BASE')) {
    $targets[] = ['base', (string) getenv('BASE'), ['request']];
}
const KEY = 'bench-key';

/** @return array{resource, int} the server process and its port */
function startServer(string $root): array
{
    $env = [
        'PATH' => (string) getenv('PATH'), 'FIXTURE_BROADCASTING' => '1', 'BROADCAST_CONNECTION' => 'reverb', 'REVERB_APP_ID' => 'bench',
        'REVERB_APP_KEY' => KEY, 'REVERB_APP_SECRET' => 'bench-secret', 'REVERB_HOST' => '127.0.0.1', 'REVERB_SCHEME' => 'http',
        'SESSION_DRIVER' => 'array', 'REVERB_ENCRYPTION_MASTER_KEY_BASE64' => base64_encode(str_repeat('k', 32)), 'LOG_CHANNEL' => 'stderr',
    ];
    $process = proc_open(['php', "$root/bin/spindle", 'serve', "$root/tests/fixtures/laravel12-app", '--host=127.0.0.1', '--port=0', '--workers=2', '--task-workers=1'], [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes, $root, $env);
    assert(is_resource($process));
    $out = '';
    $deadline = microtime(true) + 60;
    while (preg_match('#listening on http://127\.0\.0\.1:(\d+)#', $out, $m) !== 1) {
        if (microtime(true) > $deadline) {
            throw new RuntimeException("$root did not start: $out");
        }
        $out .= (string) fgets($pipes[1]);
    }

    return [$process, (int) $m[1]];
}

/** @return list<array{resource, FrameParser}> subscribers of "news", each subscribed */
function subscribe(int $port, int $count): array
{
    $clients = [];
    for ($i = 0; $i < $count; ++$i) {
        $s = stream_socket_client("tcp://127.0.0.1:$port", $errno, $error, 10);
        assert(is_resource($s));
        fwrite($s, (new ClientHandshake("127.0.0.1:$port", '/app/' . KEY . '?protocol=7&client=js&version=8.4.0'))->request());
        $head = '';
        while (!str_contains($head, "\r\n\r\n")) {
            $head .= fread($s, 4096);
        }
        $parser = FrameParser::forClient(new WebSocketLimits(1 << 20, 1 << 20));
        $parser->push((string) substr($head, strpos($head, "\r\n\r\n") + 4));
        fwrite($s, FrameEncoder::frame(1, '{"event":"pusher:subscribe","data":{"channel":"news"}}', maskKey: random_bytes(4)));
        $clients[] = [$s, $parser];
    }
    foreach ($clients as [$s, $parser]) {
        while (!str_contains(implode('', array_map(static fn ($e) => $e->payload, $parser->push((string) fread($s, 65536)))), 'subscription_succeeded')) {
        }
        stream_set_blocking($s, false);
    }

    return $clients;
}

/**
 * Triggers one event through $path and waits for every subscriber's copy.
 *
 * @param list<array{resource, FrameParser}> $clients
 *
 * @return array{list<float>, float} each copy's time (ms) from the GET, and the GET's own time to its answer
 */
function trigger(int $port, string $path, string $message, array $clients): array
{
    $started = hrtime(true);
    $http = stream_socket_client("tcp://127.0.0.1:$port");
    assert(is_resource($http));
    fwrite($http, "GET $path?message=$message&order=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    stream_set_blocking($http, false);
    $answer = '';
    $answered = null;
    $arrivals = [];
    $waiting = array_keys($clients);
    $deadline = microtime(true) + 10;
    while (($waiting !== [] || $answered === null) && microtime(true) < $deadline) {
        $read = array_map(static fn (int $i) => $clients[$i][0], $waiting);
        if ($answered === null) {
            $read[] = $http;
        }
        $write = $except = null;
        if (@stream_select($read, $write, $except, 1) < 1) {
            continue;
        }
        $now = hrtime(true);
        foreach ($read as $s) {
            if ($s === $http) {
                $bytes = (string) fread($http, 65536);
                $answer .= $bytes;
                if ($bytes === '' && feof($http)) {
                    $answered = ($now - $started) / 1e6;
                }
                continue;
            }
            foreach ($waiting as $k => $i) {
                if ($clients[$i][0] !== $s) {
                    continue;
                }
                foreach ($clients[$i][1]->push((string) fread($s, 65536)) as $event) {
                    if ($event->type === EventType::Text && str_contains($event->payload, '\"message\":\"' . $message . '\"')) {
                        $arrivals[] = ($now - $started) / 1e6;
                        unset($waiting[$k]);
                    }
                }
            }
        }
    }
    fclose($http);
    if ($waiting !== [] || !str_starts_with($answer, 'HTTP/1.1 200')) {
        throw new RuntimeException(sprintf('%s: %d of %d subscribers got %s; the answer: %s', $path, count($clients) - count($waiting), count($clients), $message, substr($answer, 0, 300)));
    }

    return [$arrivals, (float) $answered];
}

/** @param list<float> $values */
function pct(array $values, float $p): float
{
    sort($values);

    return $values[min(count($values) - 1, (int) ($p * count($values)))];
}

$results = [];
for ($round = 1; $round <= $rounds; ++$round) {
    foreach ($round % 2 === 1 ? $targets : array_reverse($targets) as [$label, $root, $ways]) {
        [$server, $port] = startServer($root);
        $clients = subscribe($port, $subscribers);
        // Warm up: each way's first event boots what it needs (the task worker's app is booted already).
        foreach ($ways as $way) {
            trigger($port, $way === 'task' ? '/broadcast-task' : '/broadcast', 'warm' . $way, $clients);
        }
        /** @var array<string, list<float>> $arrivals */
        $arrivals = array_fill_keys($ways, []);
        /** @var array<string, list<float>> $answers */
        $answers = array_fill_keys($ways, []);
        for ($e = 0; $e < $events; ++$e) {
            foreach ($e % 2 === 0 ? $ways : array_reverse($ways) as $way) {
                [$times, $answer] = trigger($port, $way === 'task' ? '/broadcast-task' : '/broadcast', "r{$round}e{$e}" . $way, $clients);
                array_push($arrivals[$way], ...$times);
                $answers[$way][] = $answer;
            }
        }
        foreach ($clients as [$s]) {
            fclose($s);
        }
        proc_terminate($server);
        proc_close($server);
        foreach ($ways as $way) {
            $row = [pct($arrivals[$way], 0.5), pct($arrivals[$way], 0.99), pct($answers[$way], 0.5), pct($answers[$way], 0.99)];
            $results["$label, $way"][] = $row;
            fprintf(STDERR, "round %d %s, %s: arrival p50 %.2f ms p99 %.2f ms; answer p50 %.2f ms p99 %.2f ms\n", $round, $label, $way, ...$row);
        }
    }
}
printf("%d subscribers on \"news\" (2 workers, 1 task worker), %d events per way and round, %d rounds (medians of the rounds)\n\n", $subscribers, $events, $rounds);
printf("| checkout, broadcast from | arrival p50 ms | arrival p99 ms | GET answered p50 ms | GET answered p99 ms |\n|---|---:|---:|---:|---:|\n");
foreach ($results as $label => $runs) {
    $median = static function (int $i) use ($runs): float {
        $v = array_column($runs, $i);
        sort($v);

        return $v[intdiv(count($v), 2)];
    };
    printf("| %s | %.2f | %.2f | %.2f | %.2f |\n", $label, $median(0), $median(1), $median(2), $median(3));
}
