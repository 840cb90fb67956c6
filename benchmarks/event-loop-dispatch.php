<?php

declare(strict_types=1);

// The event loop alone, select() against epoll, in one process (no HTTP, no wrk):
//
//   php benchmarks/event-loop-dispatch.php [SECONDS=1] [ROUNDS=3]
//
// 64 socket pairs whose readable callbacks each read a byte and send the next one, so all 64 are
// ready on every tick, with 0 or 400 more pairs that are watched and never ready (400 pairs are
// 800 descriptors: select() cannot go much further). Reports callbacks per second, the best of
// ROUNDS, the drivers taking turns.
require __DIR__ . '/../vendor/autoload.php';

use Revolt\EventLoop\Driver;
use Revolt\EventLoop\Driver\StreamSelectDriver;
use Spindle\Loop\Driver\EpollDriver;

$seconds = (float) ($argv[1] ?? 1);
$rounds = (int) ($argv[2] ?? 3);

/** @return list<resource> */
function pairs(int $count): array
{
    $streams = [];
    for ($i = 0; $i < $count; ++$i) {
        $pair = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP) ?: exit("socket pair\n");
        foreach ($pair as $stream) {
            stream_set_blocking($stream, false);
            stream_set_read_buffer($stream, 0);
        }
        array_push($streams, ...$pair);
    }

    return $streams;
}

function measure(Driver $driver, int $idle, float $seconds): float
{
    $busy = pairs(64);
    $quiet = pairs($idle);
    $calls = 0;
    for ($i = 0; $i < 64; ++$i) {
        [$a, $b] = [$busy[2 * $i], $busy[2 * $i + 1]];
        fwrite($b, 'x');
        $driver->onReadable($a, static function (string $id, $stream) use ($b, &$calls): void {
            fread($stream, 1);
            fwrite($b, 'x');
            ++$calls;
        });
    }
    for ($i = 0; $i < $idle; ++$i) {
        $driver->onReadable($quiet[2 * $i], static fn () => null);
    }
    $driver->delay($seconds, static fn () => $driver->stop());
    $start = hrtime(true);
    $driver->run();
    $rate = $calls / ((hrtime(true) - $start) / 1e9);
    foreach ($driver->getIdentifiers() as $id) {
        $driver->cancel($id);
    }
    array_map('fclose', [...$busy, ...$quiet]);

    return $rate;
}

$best = [];
for ($round = 1; $round <= $rounds; ++$round) {
    foreach ([0, 400] as $idle) {
        foreach (['select' => static fn () => new StreamSelectDriver(), 'epoll' => static fn () => new EpollDriver()] as $name => $make) {
            $rate = measure($make(), $idle, $seconds);
            $best["$name/$idle"] = max($best["$name/$idle"] ?? 0, $rate);
            printf("round %d %-6s %3d idle pairs: %9.0f callbacks/s\n", $round, $name, $idle, $rate);
        }
    }
}
echo "\n| driver | idle pairs watched | callbacks/s (64 ready, best of $rounds) | vs select | µs per callback |\n| --- | ---: | ---: | ---: | ---: |\n";
foreach ([0, 400] as $idle) {
    foreach (['select', 'epoll'] as $name) {
        $rate = $best["$name/$idle"];
        printf("| %s | %d | %s | %.2fx | %.2f |\n", $name, $idle, number_format($rate), $rate / $best["select/$idle"], 1e6 / $rate);
    }
}
