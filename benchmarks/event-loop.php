<?php

declare(strict_types=1);

// select() against epoll (--event-loop), side by side in one run:
//
//   php benchmarks/event-loop.php [ROUNDS=2] [DURATION=5] [IDLE=5000]
//
// 1. hello throughput: one worker serving examples/hello.php, `wrk -t2 -c64 -dDURATION`, the two
//    drivers taking turns for ROUNDS rounds (best round of each reported);
// 2. the time to answer a request with IDLE idle connections open (benchmarks/idle-connections.php
//    with each driver: epoll holds them all, select() closes the longest-waiting at its cap).
//
// Everything it starts is stopped by its pid; all traffic goes to 127.0.0.1.
$rounds = (int) ($argv[1] ?? 2);
$duration = (int) ($argv[2] ?? 5);
$idle = (int) ($argv[3] ?? 5000);
$root = \dirname(__DIR__);
$drivers = ['select', 'epoll'];

/** @return array{resource, int} the server process and its port */
function start(string $root, string $loop): array
{
    $process = proc_open(['php', "$root/bin/spindle", 'serve', "$root/examples/hello.php", '--port=0', '--workers=1', "--event-loop=$loop"], [1 => ['pipe', 'w'], 2 => ['file', '/dev/null', 'a']], $pipes);
    $line = (string) fgets($pipes[1]);
    if (!preg_match('/listening on http:\/\/[0-9.]+:(\d+)/', $line, $m)) {
        proc_terminate($process);
        exit("$loop: no readiness line\n");
    }

    return [$process, (int) $m[1]];
}

function stop($process): void
{
    $pid = proc_get_status($process)['pid'];
    posix_kill($pid, SIGTERM);
    proc_close($process);
}

$best = array_fill_keys($drivers, 0.0);
$latency = array_fill_keys($drivers, '');
for ($round = 1; $round <= $rounds; ++$round) {
    foreach ($drivers as $loop) {
        [$process, $port] = start($root, $loop);
        exec("wrk -t2 -c64 -d1s http://127.0.0.1:$port/ 2>&1"); // warm-up
        $out = (string) shell_exec("wrk -t2 -c64 -d{$duration}s --latency http://127.0.0.1:$port/ 2>&1");
        stop($process);
        preg_match('/Requests\/sec:\s+([\d.]+)/', $out, $rps);
        preg_match('/Latency\s+(\S+)/', $out, $avg);
        printf("round %d %-6s %10.0f req/s  avg latency %s\n", $round, $loop, $rps[1] ?? 0, $avg[1] ?? '?');
        if ((float) ($rps[1] ?? 0) > $best[$loop]) {
            $best[$loop] = (float) $rps[1];
            $latency[$loop] = $avg[1] ?? '?';
        }
    }
}
printf("\n| driver | hello req/s (1 worker, wrk -t2 -c64, best of %d) | vs select | avg latency |\n| --- | ---: | ---: | ---: |\n", $rounds);
foreach ($drivers as $loop) {
    printf("| %s | %s | %.2fx | %s |\n", $loop, number_format($best[$loop]), $best[$loop] / max(1, $best['select']), $latency[$loop]);
}
echo "\n";
foreach ($drivers as $loop) {
    passthru(sprintf('php %s %d %s %s', escapeshellarg(__DIR__ . '/idle-connections.php'), $idle, escapeshellarg($root), $loop));
}
