<?php

declare(strict_types=1);

// Holding many WebSocket connections on one worker: memory per connection and CPU while idle.
//
//   php benchmarks/websocket-idle.php [N=10000] [IDLE=20] [CHECKOUTS=this one, comma-separated]
//
// For each checkout, `spindle serve benchmarks/apps/websocket.php --workers=1 --event-loop=epoll
// --max-connections=N+100` (the worker raises its descriptor limit toward the hard limit itself),
// then two runs: N plain WebSockets to /ws that send nothing, and N Pusher protocol clients at
// /app/app-key each subscribed to the channel "idle". 100 connections are opened first (classes
// loaded, caches warm) and the worker's memory is read (/stats: memory_get_usage(), and VmRSS)
// before and after the other N; then, 21 s later (past --ws-open-timeout's one ping to a client
// that has said nothing, which WsFleet answers as a browser does), IDLE seconds of silence, with
// the worker's CPU seconds and wake-ups (voluntary context switches) read from /proc. The client is WsFleet (benchmarks/websocket-lib.php): 2 processes
// on Spindle's epoll loop. With several checkouts the rounds interleave (ROUNDS=2 by default).
require __DIR__ . '/websocket-lib.php';

const SETTLE = 21;

$n = (int) ($argv[1] ?? 10000);
$idle = (float) ($argv[2] ?? 20);
$checkouts = explode(',', $argv[3] ?? dirname(__DIR__));
$rounds = (int) (getenv('ROUNDS') ?: (count($checkouts) > 1 ? 2 : 1));

printf("# %s, %d cores, PHP %s; %d connections, %.0f s idle\n", gmdate('Y-m-d H:i'), (int) shell_exec('nproc'), PHP_VERSION, $n, $idle);
printf("| checkout | kind | open | PHP memory / conn | RSS / conn | worker CPU idle %.0f s | wake-ups/s |\n| --- | --- | --- | --- | --- | --- | --- |\n", $idle);
for ($round = 0; $round < $rounds; ++$round) {
    foreach ($checkouts as $checkout) {
        foreach (['websocket' => null, 'pusher' => 'idle'] as $kind => $channel) {
            $server = new WsServer($checkout, ['--workers=1', '--event-loop=epoll', '--max-connections=' . ($n + 200)]);
            $warm = new WsFleet($server->port, 100, 1, $channel);
            $warm->ready();
            $before = $server->stats();
            $fleet = new WsFleet($server->port, $n, 2, $channel);
            $open = $fleet->ready();
            // Let the last handshakes' tasks finish.
            usleep(500_000);
            $after = $server->stats();
            // Past twice --ws-open-timeout (10 s) from the last handshake: a client silent since
            // its 101 is pinged once then (and answers), and its deadline is checked once more
            // 10 s later; the figures below are the steady state after that.
            usleep(SETTLE * 1_000_000);
            $pid = $after['pid'];
            $cpu = WsServer::cpuOf($pid);
            $switches = contextSwitches($pid);
            usleep((int) ($idle * 1e6));
            $cpuIdle = WsServer::cpuOf($pid) - $cpu;
            $wakeups = (contextSwitches($pid) - $switches) / $idle;
            printf(
                "| %s | %s | %d | %.0f B | %.0f B | %.2f s | %.1f |\n",
                basename($checkout),
                $kind,
                $open,
                ($after['memory'] - $before['memory']) / max(1, $open),
                ($after['rss'] - $before['rss']) / max(1, $open),
                $cpuIdle,
                $wakeups,
            );
            $fleet->report();
            $warm->report();
            $server->stop();
        }
    }
}

/** Voluntary context switches of a process: how often it went to sleep (woke up) so far. */
function contextSwitches(int $pid): int
{
    return preg_match('/^voluntary_ctxt_switches:\s+(\d+)/m', (string) file_get_contents("/proc/$pid/status"), $m) === 1 ? (int) $m[1] : 0;
}
