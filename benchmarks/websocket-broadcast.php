<?php

declare(strict_types=1);

// One broadcast to many subscribers: N Pusher protocol clients on the public channel "news", one
// event sent through the signed HTTP API (POST /apps/1/events), and the time from just before the
// POST to the moment each subscriber has read the event: p50, p99 and max over every delivery.
//
//   php benchmarks/websocket-broadcast.php [N=10000] [BROADCASTS=10] [CHECKOUTS=this one, comma-separated] [WORKERS=1]
//
// The event's data carries its send time (microtime), so each client process computes its
// latencies on its own; client and server share the machine's clock. The clients are WsFleet
// (benchmarks/websocket-lib.php): 2 processes on Spindle's epoll loop, which read and parse every
// frame in PHP, so their own time is in the figures (the server's share is given apart: the POST's
// answer comes once every frame is written). Broadcasts go one at a time, 0.5 s apart. With
// WORKERS > 1 the subscribers spread over the workers, and each reaches only its own worker's
// subscribers until broadcasts cross workers. With several checkouts the rounds interleave.
require __DIR__ . '/websocket-lib.php';

$n = (int) ($argv[1] ?? 10000);
$broadcasts = (int) ($argv[2] ?? 10);
$checkouts = explode(',', $argv[3] ?? dirname(__DIR__));
$workers = (int) ($argv[4] ?? 1);
$rounds = (int) (getenv('ROUNDS') ?: (count($checkouts) > 1 ? 2 : 1));

printf("# %s, %d cores, PHP %s; %d subscribers on %d worker(s), %d broadcasts\n", gmdate('Y-m-d H:i'), (int) shell_exec('nproc'), PHP_VERSION, $n, $workers, $broadcasts);
echo "| checkout | subscribed | deliveries | p50 | p99 | max | POST answered (p50 / max) |\n| --- | --- | --- | --- | --- | --- | --- |\n";
for ($round = 0; $round < $rounds; ++$round) {
    foreach ($checkouts as $checkout) {
        $server = new WsServer($checkout, ["--workers=$workers", '--event-loop=epoll', '--max-connections=' . ($n + 200)]);
        $fleet = new WsFleet($server->port, $n, 2, 'news');
        $open = $fleet->ready();
        usleep(500_000);
        $answered = [];
        for ($b = 0; $b < $broadcasts; ++$b) {
            $socket = stream_socket_client("tcp://127.0.0.1:{$server->port}", $errno, $error, 10) ?: throw new RuntimeException((string) $error);
            $t = microtime(true);
            // The send time goes in the data; the signature covers the body, so it is signed now.
            $request = $server->eventRequest('news', 'Tick', json_encode(['t' => $t, 'seq' => $b], JSON_THROW_ON_ERROR));
            fwrite($socket, $request);
            $response = stream_get_contents($socket);
            $answered[] = microtime(true) - $t;
            if (!str_starts_with((string) $response, 'HTTP/1.1 200')) {
                throw new RuntimeException('The broadcast was refused: ' . $response);
            }
            fclose($socket);
            usleep(500_000);
        }
        $latencies = $fleet->report();
        printf(
            "| %s | %d | %d of %d | %.1f ms | %.1f ms | %.1f ms | %.1f / %.1f ms |\n",
            basename($checkout),
            $open,
            count($latencies),
            $open * $broadcasts,
            percentile($latencies, 50) * 1000,
            percentile($latencies, 99) * 1000,
            max($latencies ?: [NAN]) * 1000,
            percentile($answered, 50) * 1000,
            ($answered === [] ? NAN : max($answered)) * 1000,
        );
        $server->stop();
    }
}
