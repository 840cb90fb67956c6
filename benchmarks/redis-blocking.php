<?php

declare(strict_types=1);

/*
 * How late a 1 s BLPOP on an empty list answers: Spindle's client against phpredis (persistent
 * connection), one at a time interleaved, then ten at once (ten fibers in one process against ten
 * phpredis processes). Starts its own redis-server on a free port (stopped on exit).
 *
 *   php benchmarks/redis-blocking.php [rounds=16]
 *
 * Redis notices a blocked client's timeout only when its event loop wakes (hz 10: every 100 ms when
 * idle), so any client's 1 s BLPOP answers after 1.00–1.10 s; Spindle's client wakes the server
 * with a PING on its shared connection 2 ms after the timeout (RedisClient::wakeServer()).
 */

require __DIR__ . '/../vendor/autoload.php';

use Revolt\EventLoop;
use Spindle\Redis\RedisClient;
use Spindle\Redis\RedisConfig;

$rounds = (int) ($argv[1] ?? 16);
if (!class_exists(Redis::class)) {
    fwrite(STDERR, "phpredis (php8.2-redis) is needed for the comparison\n");
    exit(1);
}
$probe = stream_socket_server('tcp://127.0.0.1:0');
$port = (int) substr((string) stream_socket_get_name($probe, false), strrpos((string) stream_socket_get_name($probe, false), ':') + 1);
fclose($probe);
$dir = sys_get_temp_dir() . '/spindle-redis-blocking-' . getmypid();
@mkdir($dir);
$server = proc_open(['redis-server', '--port', (string) $port, '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', $dir], [1 => ['file', '/dev/null', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes);
register_shutdown_function(static function () use ($server, $dir): void {
    proc_terminate($server);
    proc_close($server);
    @rmdir($dir);
});
for ($i = 0; $i < 100; ++$i) {
    $socket = @stream_socket_client("tcp://127.0.0.1:$port", $errno, $errstr, 0.1);
    if ($socket !== false) {
        fclose($socket);
        break;
    }
    usleep(50000);
}

$summary = static fn (array $t): string => sprintf('mean %.4f s, median %.4f s, max %.4f s', array_sum($t) / count($t), (static function (array $t): float {
    sort($t);

    return $t[intdiv(count($t), 2)];
})($t), max($t));

// One at a time, interleaved.
$client = new RedisClient(RedisConfig::fromUrl("redis://127.0.0.1:$port"));
$native = new Redis();
$native->pconnect('127.0.0.1', $port);
$spindle = $phpredis = [];
EventLoop::queue(static function () use ($client, $native, $rounds, &$spindle, &$phpredis): void {
    for ($i = 0; $i < $rounds; ++$i) {
        $t = hrtime(true);
        $client->request(['BLPOP', 'empty', '1']);
        $spindle[] = (hrtime(true) - $t) / 1e9;
        $t = hrtime(true);
        $native->blPop(['empty'], 1);
        $phpredis[] = (hrtime(true) - $t) / 1e9;
    }
});
EventLoop::run();
printf("one at a time, %d each, interleaved:\n  Spindle  %s\n  phpredis %s\n", $rounds, $summary($spindle), $summary($phpredis));

// Ten at once, five each.
$spindle = [];
for ($f = 0; $f < 10; ++$f) {
    EventLoop::queue(static function () use ($client, $f, &$spindle): void {
        for ($i = 0; $i < 5; ++$i) {
            $t = hrtime(true);
            $client->request(['BLPOP', "empty$f", '1']);
            $spindle[] = (hrtime(true) - $t) / 1e9;
        }
    });
}
EventLoop::run();
$pids = [];
for ($f = 0; $f < 10; ++$f) {
    $pid = pcntl_fork();
    if ($pid === 0) {
        $r = new Redis();
        $r->pconnect('127.0.0.1', $port);
        $times = [];
        for ($i = 0; $i < 5; ++$i) {
            $t = hrtime(true);
            $r->blPop(["empty$f"], 1);
            $times[] = (hrtime(true) - $t) / 1e9;
        }
        file_put_contents("$dir/times.$f", implode(' ', $times));
        exit(0);
    }
    $pids[] = $pid;
}
foreach ($pids as $pid) {
    pcntl_waitpid($pid, $status);
}
$phpredis = [];
for ($f = 0; $f < 10; ++$f) {
    foreach (explode(' ', (string) file_get_contents("$dir/times.$f")) as $t) {
        $phpredis[] = (float) $t;
    }
    unlink("$dir/times.$f");
}
printf("ten at once, 5 each (ten fibers; ten phpredis processes):\n  Spindle  %s\n  phpredis %s\n", $summary($spindle), $summary($phpredis));
