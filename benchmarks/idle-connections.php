<?php

declare(strict_types=1);

// Connection pressure: N connections to one worker that send nothing (one in 100 trickles a request
// head and stops), then three real requests, each timed from connect to the end of its response.
//
//   php benchmarks/idle-connections.php [N=5000] [CHECKOUT=this one] [EVENT_LOOP]
//
// EVENT_LOOP (select or epoll) is passed as --event-loop; without it the server runs with its
// defaults (select, --max-connections=512), which a checkout older than the option needs. With
// epoll the worker holds all N connections (its default cap is 10,000); with select it closes the
// longest-waiting ones at its cap of 512 to make room. benchmarks/event-loop.php runs both.
//
// The server runs examples/hello.php with --header-timeout=60 and --keepalive-timeout=60, so a
// request that had to wait for a timeout to free a place would take a minute. Everything it starts
// is stopped by its pid; all traffic goes to 127.0.0.1.
$n = (int) ($argv[1] ?? 5000);
$dir = $argv[2] ?? \dirname(__DIR__);
$loop = $argv[3] ?? null;
$label = basename($dir) . ($loop !== null ? " ($loop)" : '');
$p = proc_open(['php', "$dir/bin/spindle", 'serve', "$dir/examples/hello.php", '--port=0', '--workers=1', '--header-timeout=60', '--keepalive-timeout=60', ...($loop !== null ? ["--event-loop=$loop"] : [])], [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
// Stopped by its pid however this script ends (a failed connect ends it with an error).
register_shutdown_function(static function () use ($p): void { if (is_resource($p) && proc_get_status($p)['running']) { proc_terminate($p); } });
stream_set_blocking($pipes[1], false); stream_set_blocking($pipes[2], false);
$out = ''; $deadline = microtime(true) + 20;
while (!preg_match('/listening on http:\/\/[0-9.]+:(\d+)/', $out, $m)) { if (microtime(true) > $deadline) { proc_terminate($p); exit("no readiness\n"); } $out .= fgets($pipes[1]) . fgets($pipes[2]); usleep(10000); }
$port = $m[1];
$idle = []; $t = microtime(true);
for ($i = 0; $i < $n; $i++) { $s = @stream_socket_client("tcp://127.0.0.1:$port", $e, $es, 10); if (!$s) { echo "connect $i failed: $es\n"; break; } $idle[] = $s; if ($i % 100 === 0) fwrite($s, "GET / HTTP/1.1\r\nHost: a\r\n"); }
printf("%s: %d idle connections opened in %.2f s\n", $label, count($idle), microtime(true) - $t);
foreach ([1, 2, 3] as $k) {
  $t = microtime(true);
  $r = stream_socket_client("tcp://127.0.0.1:$port", $e, $es, 10) ?: exit("connect failed: $es\n"); stream_set_timeout($r, 60);
  fwrite($r, "GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
  $resp = stream_get_contents($r);
  printf("%s: real request %d answered in %.1f ms (%s)\n", $label, $k, (microtime(true) - $t) * 1000, strtok($resp, "\r\n"));
}
proc_terminate($p);
proc_close($p);
