<?php

declare(strict_types=1);

// select() against epoll (--event-loop), side by side in one run:
//
//   php benchmarks/event-loop.php [ROUNDS=2] [DURATION=5] [IDLE=5000]
//
// 1. hello throughput: one worker serving examples/hello.php, `wrk -t2 -c64 -dDURATION`, the two
//    drivers taking turns for ROUNDS rounds (best round of each reported);
// 2. the same with 900 idle connections held open by the worker (--max-connections=1000, as many
//    as select() can hold): each select() call passes every watched descriptor, epoll only the
//    ready ones;
// 3. the time to answer a request with IDLE idle connections open (benchmarks/idle-connections.php
//    with each driver: epoll holds them all, select() closes the longest-waiting at its cap).
//
// Everything it starts is stopped by its pid; all traffic goes to 127.0.0.1.
$rounds = (int) ($argv[1] ?? 2);
$duration = (int) ($argv[2] ?? 5);
$idle = (int) ($argv[3] ?? 5000);
$root = \dirname(__DIR__);
$drivers = ['select', 'epoll'];

/** @return array{resource, int} the server process and its port */
function start(string $root, string $loop, array $options = []): array
{
    $process = proc_open(['php', "$root/bin/spindle", 'serve', "$root/examples/hello.php", '--port=0', '--workers=1', "--event-loop=$loop", ...$options], [1 => ['pipe', 'w'], 2 => ['file', '/dev/null', 'a']], $pipes);
    $line = (string) fgets($pipes[1]);
    if (!preg_match('/listening on http:\/\/[0-9.]+:(\d+)/', $line, $m)) {
        proc_terminate($process);
        exit("$loop: no readiness line\n");
    }

    // Stopped by its pid however this script ends.
    register_shutdown_function(static function () use ($process): void {
        if (is_resource($process) && proc_get_status($process)['running']) {
            proc_terminate($process);
        }
    });

    return [$process, (int) $m[1]];
}

/**
 * Idle connections held by a child process: sockets opened here would be inherited by wrk, whose
 * event loop cannot take descriptors numbered above its connection count.
 *
 * @return array{resource, resource} the process and the pipe whose closing ends it
 */
function holdIdle(int $port, int $count): array
{
    $code = 'for ($i = 0; $i < ' . $count . '; ++$i) { $s[] = stream_socket_client("tcp://127.0.0.1:' . $port . '", $e, $m, 10) ?: exit(1); } echo "ready\n"; fread(STDIN, 1);';
    $process = proc_open(['php', '-r', $code], [0 => ['pipe', 'r'], 1 => ['pipe', 'w']], $pipes);
    if (trim((string) fgets($pipes[1])) !== 'ready') {
        exit("could not open $count idle connections\n");
    }

    return [$process, $pipes[0]];
}

function stop($process): void
{
    $pid = proc_get_status($process)['pid'];
    posix_kill($pid, SIGTERM);
    proc_close($process);
}

$held = 900;
$best = [];
$latency = [];
for ($round = 1; $round <= $rounds; ++$round) {
    foreach ([0, $held] as $idleHeld) {
        foreach ($drivers as $loop) {
            $options = $idleHeld > 0 ? ['--max-connections=1000', '--keepalive-timeout=60', '--header-timeout=60'] : [];
            [$process, $port] = start($root, $loop, $options);
            $holder = $idleHeld > 0 ? holdIdle($port, $idleHeld) : null;
            exec("wrk -t2 -c64 -d1s http://127.0.0.1:$port/ 2>&1"); // warm-up
            $out = (string) shell_exec("wrk -t2 -c64 -d{$duration}s --latency http://127.0.0.1:$port/ 2>&1");
            if ($holder !== null) {
                fclose($holder[1]);
                proc_close($holder[0]);
            }
            stop($process);
            preg_match('/Requests\/sec:\s+([\d.]+)/', $out, $rps);
            preg_match('/Latency\s+(\S+)/', $out, $avg);
            $key = "$loop, $idleHeld idle";
            printf("round %d %-18s %10.0f req/s  avg latency %s\n", $round, $key, $rps[1] ?? 0, $avg[1] ?? '?');
            if ((float) ($rps[1] ?? 0) > ($best[$key] ?? 0.0)) {
                $best[$key] = (float) $rps[1];
                $latency[$key] = $avg[1] ?? '?';
            }
        }
    }
}
printf("\n| driver | idle connections held | hello req/s (1 worker, wrk -t2 -c64, best of %d) | vs select | avg latency |\n| --- | ---: | ---: | ---: | ---: |\n", $rounds);
foreach ([0, $held] as $idleHeld) {
    foreach ($drivers as $loop) {
        $key = "$loop, $idleHeld idle";
        printf("| %s | %d | %s | %.2fx | %s |\n", $loop, $idleHeld, number_format($best[$key]), $best[$key] / max(1, $best["select, $idleHeld idle"]), $latency[$key]);
    }
}
echo "\n";
foreach ($drivers as $loop) {
    passthru(sprintf('php %s %d %s %s', escapeshellarg(__DIR__ . '/idle-connections.php'), $idle, escapeshellarg($root), $loop));
}
