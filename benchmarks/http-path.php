<?php

declare(strict_types=1);

/*
 * A worker's request path without the network: K connections on socket pairs, each request
 * written by the client, read by Spindle's Connection, parsed, run in its fiber through the
 * RequestRunner and the app, serialized and written back. Prints the time per request, and
 * the garbage per request that only PHP's cycle collector frees (it should be none); for counts
 * that the machine's noise does not move, run it under callgrind twice and take the difference
 * per request:
 *
 *   php -d opcache.enable_cli=1 -d opcache.jit=tracing -d opcache.jit_buffer_size=64M \
 *       benchmarks/http-path.php [connections=32] [rounds=1000]
 *   valgrind --tool=callgrind --smc-check=all php -d ... benchmarks/http-path.php 32 200   # then 32 600
 *
 * APP=path/to/app.php serves another app (default examples/hello.php), or an app directory
 * (APP=examples/blog, the blog's environment as benchmarks/compare-commits.sh sets it); URL_PATH=/hello
 * asks for another path than /; FLOOR=1 replaces Spindle
 * with a bare Revolt read callback that writes a fixed response (the floor of the loop and I/O).
 * ACCESS_LOG=FILE (with ACCESS_LOG_FORMAT=combined|json) and METRICS=1 turn on the access log and
 * the request metrics as --access-log and --metrics do (benchmarks/production.sh).
 */

// An app directory with its own Composer autoloader (a Laravel or Symfony app) is loaded first,
// as bin/spindle does: the app gets the versions of shared packages it was installed with, and
// Spindle's autoloader answers only for what the app's does not have.
$appDirectory = getenv('APP');
if (is_string($appDirectory) && is_file($appDirectory . '/vendor/autoload.php')) {
    require $appDirectory . '/vendor/autoload.php';
    $spindleLoader = require __DIR__ . '/../vendor/autoload.php';
    $spindleLoader->unregister();
    $spindleLoader->register(false);
} else {
    require __DIR__ . '/../vendor/autoload.php';
}

use Revolt\EventLoop;
use Spindle\Http\Clock;
use Spindle\Http\ConcurrencyLimit;
use Spindle\Http\ConnectionDriver;
use Spindle\Http\ConnectionEvents;
use Spindle\Http\Http1\Http1Connection;
use Spindle\Http\Peer;
use Spindle\Http\ConnectionServices;
use Spindle\Http\Request;
use Spindle\Http\RequestRunner;
use Spindle\Http\Response;
use Spindle\Http\ResponseSerializer;
use Spindle\Loop\Loop;
use Spindle\Loop\TaskRunner;
use Spindle\Server\AccessLog\AccessLogFormat;
use Spindle\Http\ClosureHandler;
use Spindle\Server\ServerOptions;
use Spindle\Server\Worker;

$connections = (int) ($argv[1] ?? 32);
$rounds = (int) ($argv[2] ?? 1000);
$options = new ServerOptions(
    getenv('APP') ?: __DIR__ . '/../examples/hello.php',
    accessLog: getenv('ACCESS_LOG') ?: null,
    accessLogFormat: AccessLogFormat::from(getenv('ACCESS_LOG_FORMAT') ?: 'combined'),
    metrics: getenv('METRICS') ? '127.0.0.1:0' : null,
);
$logger = new Psr\Log\NullLogger();
$app = (new Worker($options, $logger, applications: new Spindle\Bridge\AppFactory()))->boot();
$done = 0;
/** @var \Closure(): void $nextRound reads the round's answers, then sends the next round or stops the loop */
$nextRound = static fn () => null;
// Once every connection of the round has its answer, the next round begins: the loop runs
// throughout, as it does in a worker.
$counting = new ClosureHandler(static function (Request $request) use ($app, &$done, $connections, &$nextRound): Response {
    $response = $app->handle($request);
    if (++$done === $connections) {
        EventLoop::defer($nextRound);
    }

    return $response;
});
$clock = new Clock();
$runner = new RequestRunner(
    $counting,
    new TaskRunner(Loop::driver()),
    $logger,
    $clock,
    new ConcurrencyLimit($options->concurrency),
    requestTimeout: $options->requestTimeout,
);
$set = new ConnectionServices($runner, $options->limits, $logger, $clock, new ResponseSerializer(), sys_get_temp_dir(), false);
$clients = [];
$servers = [];
// What a server would be told: nothing to do here (the connections live as long as the run).
$events = new class () implements ConnectionEvents {
    public function closed(ConnectionDriver $connection): void
    {
    }

    public function replaced(ConnectionDriver $old, ConnectionDriver $new): void
    {
    }
};
for ($i = 0; $i < $connections; ++$i) {
    [$client, $server] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0);
    foreach ([$client, $server] as $socket) {
        stream_set_blocking($socket, false);
        stream_set_read_buffer($socket, 0);
        stream_set_write_buffer($socket, 0);
    }
    $clients[] = $client;
    if (getenv('FLOOR')) {
        EventLoop::onReadable($server, static function (string $id, $socket) use (&$done, $connections, &$nextRound): void {
            fread($socket, 65536);
            fwrite($socket, "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nDate: Mon, 23 Nov 2026 10:47:31 GMT\r\nContent-Length: 11\r\n\r\nHello World");
            if (++$done === $connections) {
                EventLoop::defer($nextRound);
            }
        });
    } else {
        $servers[] = new Http1Connection($server, $set, $events, new Peer('127.0.0.1', 40000 + $i, '127.0.0.1', 8080));
    }
}
$request = 'GET ' . (getenv('URL_PATH') ?: '/') . " HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n";
$bytes = 0;
$round = 0;
$send = static function () use ($clients, $request, &$done): void {
    $done = 0;
    foreach ($clients as $client) {
        fwrite($client, $request);
    }
};
$nextRound = static function () use ($clients, $rounds, $send, &$round, &$bytes): void {
    foreach ($clients as $client) {
        $bytes += strlen((string) fread($client, 65536));
    }
    if (++$round < $rounds) {
        $send();
    } else {
        EventLoop::getDriver()->stop();
    }
};
// As in a worker: the one 50 ms timer for every timeout (HttpServer's; RequestRunner had its own
// before) is on while it serves.
$timer = EventLoop::unreference(EventLoop::repeat(0.05, static fn () => null));
$gcBefore = gc_status();
$start = hrtime(true);
$send();
EventLoop::run();
$requests = $connections * $rounds;
printf("%d requests, %.3f µs per request (both sides, system calls included), %d bytes per response\n", $requests, (hrtime(true) - $start) / 1000 / $requests, intdiv($bytes, $requests));
// Garbage only the cycle collector frees (a finished request that something still links to):
// it piles up between collections, and the heap grows by it. None is the aim.
$gcAfter = gc_status();
printf("cycle collector: %d runs, %.1f nodes freed per request; heap %.0f KB\n", $gcAfter['runs'] - $gcBefore['runs'], ($gcAfter['collected'] - $gcBefore['collected'] + gc_collect_cycles()) / $requests, memory_get_usage() / 1024);
