<?php

declare(strict_types=1);

// Spindle and Reverb side by side on the same machine, the same app and the same client load:
// the lab of benchmarks/reverb-lab.sh (a Laravel 12 app set up for broadcasting with Reverb's
// settings, laravel/reverb installed) served by
//
//   reverb       php artisan reverb:start (one process; ReactPHP's loop, stream_select() here:
//                neither ext-ev, ext-event nor ext-uv is installed)
//   spindle w1   bin/spindle serve LAB/app --workers=1 --event-loop=epoll
//   spindle w2   the same with --workers=2
//
// each started with the same descriptor limit (ulimit -n, soft = hard = NOFILE) and the same PHP
// flags (OPcache and the tracing JIT, as benchmarks/lib.sh gives every server of a comparison). For
// each, in one run, rounds interleaved:
//
//   1. 100 Pusher clients subscribed to the public channel "news" (warm-up), then the
//      process tree's resident memory (VmRSS of the server and its workers) is read;
//   2. steps up to STEPS (1000, 1010, 1020, 1030, 2000, 5000, 10000 subscribers in all: select()
//      cannot watch a descriptor numbered 1024 or above, so the small steps find where a server
//      on stream_select() stops): each step opens the
//      difference (deadline STEP_DEADLINE s); a step where not every client got its
//      subscription, or after which a fresh client cannot connect within 5 s, is the last, and
//      what the clients got is printed (refused, pusher:error, still waiting);
//   3. memory per connection: the RSS delta from the warm-up to the step over the clients added
//      since, and from the step before over the step's clients (the broadcasts at 1000 make the
//      app and the broadcaster allocate what they keep, a few MB, which the first figure spreads
//      over the connections; the second, from 5000 to 10000, does not see it);
//   4. idle CPU: the server's CPU seconds (all its processes) over IDLE s with every client open
//      and silent, SETTLE s after the step (at 1000 subscribers and at the last step held; 21 s is
//      past Spindle's --ws-open-timeout ping and check, as in benchmarks/websocket-idle.php;
//      Reverb's ping_interval, 60 s, is longer);
//   5. broadcast latency to every subscriber (at 1000 and at the last step held): BROADCASTS
//      events signed and posted to the Pusher HTTP API (POST /apps/1/events), one every 0.3 s,
//      and as many through the app's own route /tick (broadcast(new Tick)): on Spindle in the
//      worker, in process; beside Reverb the app runs under `php -S` (one process booting the app
//      per request, as php-fpm does) with its broadcasting connection pointed at Reverb, so each
//      broadcast() is Laravel's Pusher driver posting to Reverb's HTTP API, the path of an app
//      that uses Reverb. One broadcast each time that is not counted (warm-up); p50 / p99 / max
//      from the request's start to each subscriber's read.
//
//   bash benchmarks/reverb-lab.sh                        # once: builds ../reverb-lab
//   php benchmarks/reverb-side-by-side.php               # ROUNDS=2
//   ROUNDS=3 STEPS=1000,2000,5000,10000 NOFILE=20000 php benchmarks/reverb-side-by-side.php
//
// Env: LAB (../reverb-lab), ROUNDS (2), STEPS, NOFILE (20000), IDLE (10), SETTLE (21), BROADCASTS (10),
// STEP_DEADLINE (60), TARGETS (reverb,spindle-w1,spindle-w2), REVERB_DEBUG (1: reverb:start --debug,
// which prints why it stops: `REVERB_DEBUG=1 TARGETS=reverb STEPS=1000,1030 ROUNDS=1`). The clients are WsFleet
// (benchmarks/websocket-lib.php): 2 processes on Spindle's epoll loop, the same for every server.
require __DIR__ . '/websocket-lib.php';
require __DIR__ . '/reverb-side-by-side-lib.php';

$lab = getenv('LAB') ?: dirname(__DIR__, 2) . '/reverb-lab';
$app = "$lab/app";
is_file("$app/vendor/laravel/reverb/composer.json") || exit("No lab in $lab: run bash benchmarks/reverb-lab.sh first\n");
$rounds = (int) (getenv('ROUNDS') ?: 2);
$steps = array_map('intval', explode(',', getenv('STEPS') ?: '1000,1010,1020,1030,2000,5000,10000'));
$nofile = (int) (getenv('NOFILE') ?: 20000);
$idle = (float) (getenv('IDLE') ?: 10);
$settle = (float) (getenv('SETTLE') ?: 21);
$broadcasts = (int) (getenv('BROADCASTS') ?: 10);
$deadline = (float) (getenv('STEP_DEADLINE') ?: 60);
$targets = explode(',', getenv('TARGETS') ?: 'reverb,spindle-w1,spindle-w2');
$max = max($steps);

printf(
    "# %s UTC, %d cores (%s), PHP %s, loadavg %s\n# Reverb %s, laravel/framework %s, Spindle %s; ulimit -n %d (soft = hard) for every server; steps %s\n",
    gmdate('Y-m-d H:i'),
    (int) shell_exec('nproc'),
    trim((string) shell_exec("grep -m1 'model name' /proc/cpuinfo | cut -d: -f2")),
    PHP_VERSION,
    implode(' ', array_slice(explode(' ', (string) file_get_contents('/proc/loadavg')), 0, 3)),
    LabServer::installedVersion($app, 'laravel/reverb'),
    LabServer::installedVersion($app, 'laravel/framework'),
    trim((string) shell_exec('git -C ' . escapeshellarg(dirname(__DIR__)) . ' rev-parse --short HEAD')),
    $nofile,
    implode(',', $steps),
);
$rows = ['steps' => [], 'idle' => [], 'latency' => []];
for ($round = 1; $round <= $rounds; ++$round) {
    foreach ($targets as $target) {
        $server = LabServer::start($target, $app, $nofile, $max + 500);
        fprintf(STDERR, "[round %d] %s: pid %d, port %d, %s\n", $round, $target, $server->pid, $server->port, $server->limits());
        $fleets = [new WsFleet($server->port, 100, 1, 'news', $deadline)];
        $fleets[0]->ready();
        usleep(500_000);
        $rssWarm = $rssBefore = $server->rss();
        $held = 100;
        foreach ($steps as $step) {
            $fleet = new WsFleet($server->port, $step - $held, 2, 'news', $deadline);
            $started = microtime(true);
            $open = $fleet->ready();
            $took = microtime(true) - $started;
            $fleets[] = $fleet;
            usleep(500_000);
            $alive = array_sum(array_map(static fn (WsFleet $f): int => $f->alive(), $fleets));
            $probe = $server->probe();
            $rss = $server->rss();
            $failures = $fleet->failures;
            if ($probe !== 'ok') {
                $probe .= ' (server ' . $server->status() . ')';
            }
            $full = $open === $step - $held && $alive === $step && $probe === 'ok';
            $rows['steps'][] = sprintf(
                "| %d | %s | %d | %d | %d | %d | %.1f s | %s | %s | %s | %s | %s |",
                $round, $target, $step, $open, $alive, $failures['failed'] + $failures['pending'], $took, $probe,
                $alive > 0 ? sprintf('%.1f MB', $rss / 1048576) : '-',
                $alive > 100 ? sprintf('%.1f KB', ($rss - $rssWarm) / 1024 / ($alive - 100)) : '-',
                $alive > $held ? sprintf('%.1f KB', ($rss - $rssBefore) / 1024 / ($alive - $held)) : '-',
                errorSummary($failures),
            );
            $rssBefore = $rss;
            fprintf(STDERR, "%s\n", end($rows['steps']));
            $held = $step;
            if ($step === 1000 || !$full || $step === $max) {
                if ($probe !== 'ok' && $alive === 0) {
                    break;
                }
                usleep((int) ($settle * 1e6));
                [$cpu, $wakeups, $perProcess] = $server->idleCpu($idle);
                $rows['idle'][] = sprintf('| %d | %s | %d | %.2f s | %.1f | %s |', $round, $target, $alive, $cpu, $wakeups, $perProcess);
                fprintf(STDERR, "%s\n", end($rows['idle']));
                foreach (['HTTP API', $server->spindle ? "app's broadcast(), in process" : "app's broadcast() under php -S, POST to Reverb"] as $via) {
                    $rows['latency'][] = measureBroadcasts($server, $fleets, $via, $broadcasts, $round, $target, $alive);
                    fprintf(STDERR, "%s\n", end($rows['latency']));
                }
            }
            if (!$full) {
                break;
            }
        }
        foreach ($fleets as $fleet) {
            $fleet->report();
        }
        $server->stop();
    }
}
echo "\n## Connections held (cumulative steps; RSS of all the server's processes; per connection: from the warm-up's 100, and from the step before)\n\n";
echo "| round | server | step | opened in step | open in all | failed or waiting | step took | fresh client | RSS | RSS / conn since warm-up | RSS / conn added in step | errors |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n";
echo implode("\n", $rows['steps']), "\n";
printf("\n## CPU while idle (%.0f s, %.0f s after the step, every client open and silent; all the server's processes)\n\n", $idle, $settle);
echo "| round | server | connections | CPU | wake-ups/s | per process (Spindle: master + workers) |\n| --- | --- | --- | --- | --- | --- |\n", implode("\n", $rows['idle']), "\n";
printf("\n## Broadcast latency to every subscriber of \"news\" (%d broadcasts, 0.3 s apart)\n\n", $broadcasts);
echo "| round | server | via | subscribers | deliveries | p50 | p99 | max | sender answered (p50) |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n";
echo implode("\n", $rows['latency']), "\n";

/** @param array{open: int, failed: int, pending: int, errors: array<string, int>} $failures */
function errorSummary(array $failures): string
{
    $parts = [];
    foreach ($failures['errors'] as $reason => $count) {
        $parts[] = "$count × $reason";
    }
    if ($failures['pending'] > 0) {
        $parts[] = "{$failures['pending']} × not open at the deadline (dropped, or never subscribed)";
    }

    return $parts === [] ? '' : implode('; ', $parts);
}

/** @param list<WsFleet> $fleets */
function measureBroadcasts(LabServer $server, array $fleets, string $via, int $count, int $round, string $target, int $subscribers): string
{
    // The fleets hold on: drain() takes what their clients measured since the last drain().
    $answered = [];
    $seqBase = random_int(1, 1 << 30);
    // Broadcast -1 warms the path up (the app's route, the broadcaster, the JIT) and is not counted.
    for ($b = -1; $b < $count; ++$b) {
        $t = microtime(true);
        $response = $via === 'HTTP API' ? $server->postEvent('news', 'Tick', ['t' => $t, 'seq' => $seqBase + $b]) : $server->get('/tick?t=' . sprintf('%.6F', $t) . '&seq=' . ($seqBase + $b));
        if ($b >= 0) {
            $answered[] = microtime(true) - $t;
        }
        if (preg_match('#^HTTP/1\.[01] 200 #', $response) !== 1) {
            return sprintf('| %d | %s | %s | %d | refused: %s |  |  |  |  |', $round, $target, $via, $subscribers, strtok($response, "\r\n"));
        }
        usleep(300_000);
        if ($b === -1) {
            foreach ($fleets as $fleet) {
                $fleet->drain();
            }
        }
    }
    usleep(1_000_000);
    $latencies = [];
    foreach ($fleets as $fleet) {
        $latencies = [...$latencies, ...$fleet->drain()];
    }

    return sprintf(
        '| %d | %s | %s | %d | %d of %d | %.1f ms | %.1f ms | %.1f ms | %.1f ms |',
        $round, $target, $via, $subscribers, count($latencies), $subscribers * $count,
        percentile($latencies, 50) * 1000, percentile($latencies, 99) * 1000, max($latencies ?: [NAN]) * 1000,
        percentile($answered, 50) * 1000,
    );
}
