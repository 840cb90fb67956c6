<?php

declare(strict_types=1);

// How a Pusher fan-out message travels between two workers, three ways side by side (the
// choice behind Supervisor\RelayHub; docs/protocols.md "Several workers"):
//
//   relay    worker A -> the master (the real RelayHub in a select() loop, as Master runs it)
//            -> worker B, Unix stream socket pairs, RelayCodec frames;
//   direct   A -> B on one socket pair (the floor: no hop through the master);
//   shm      a shared-memory slot (shmop) that the other side polls every POLL_US µs: PHP has
//            no futex or eventfd to wake a process, so shared memory means polling.
//
// For each: round trips A -> B -> A of a 200-byte message (p50, p99), one-way throughput of
// 200-byte messages (relay and direct), and the CPU the waiting side spends in a second with
// nothing to carry. Rounds interleave the three. Usage: php benchmarks/pusher-fanout.php
// [ROUNDS=3] [PINGS=2000] [MESSAGES=200000] [POLL_US=1000]

require __DIR__ . '/../vendor/autoload.php';

use Psr\Log\NullLogger;
use Spindle\Server\Peers\RelayCodec;
use Spindle\Server\Peers\RelayKind;
use Spindle\Supervisor\RelayHub;

$rounds = (int) (getenv('ROUNDS') ?: 3);
$pings = (int) (getenv('PINGS') ?: 2000);
$messages = (int) (getenv('MESSAGES') ?: 200_000);
$pollUs = (int) (getenv('POLL_US') ?: 1000);
$payload = str_repeat('x', 200);

/** @return array{resource, resource} */
function pair(): array
{
    $pair = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
    assert(is_array($pair));

    return $pair;
}

/** CPU seconds (user + system) processes $pids used so far, from /proc (100 ticks a second). @param list<int> $pids */
function cpuOf(array $pids): float
{
    $ticks = 0;
    foreach ($pids as $pid) {
        $stat = (string) @file_get_contents("/proc/{$pid}/stat");
        $fields = explode(' ', substr($stat, (int) strrpos($stat, ')') + 2));
        $ticks += (int) ($fields[11] ?? 0) + (int) ($fields[12] ?? 0);
    }

    return $ticks / 100;
}

/** Reads whole frames from a blocking stream. */
function readFrame($stream, RelayCodec $codec): string
{
    while (($frame = $codec->next()) === null) {
        $bytes = fread($stream, 262144);
        if ($bytes === false || $bytes === '') {
            exit(1);
        }
        $codec->push($bytes);
    }

    return $frame->payload;
}

/**
 * Forks a hub: RelayHub between the given master ends, until the workers close theirs.
 *
 * @param array<int, resource> $ends
 * @param list<resource> $workerEnds closed in the hub (they are the workers')
 */
function hub(array $ends, array $workerEnds): int
{
    $pid = pcntl_fork();
    if ($pid !== 0) {
        return $pid;
    }
    foreach ($workerEnds as $end) {
        fclose($end);
    }
    $hub = new RelayHub(new NullLogger());
    foreach ($ends as $id => $end) {
        $hub->add($id, $end);
    }
    while ($hub->readStreams() !== []) {
        $read = $hub->readStreams();
        $write = $hub->writeStreams() ?: null;
        $except = null;
        if (@stream_select($read, $write, $except, 1) > 0) {
            $hub->poll($read, $write ?? []);
        }
    }
    exit(0);
}

/** B: answers every message (ping) or only the last (throughput), over $stream framed as the relay does; $other is A's end, closed in B. */
function echoer($stream, $other, string $mode): int
{
    $pid = pcntl_fork();
    if ($pid !== 0) {
        return $pid;
    }
    fclose($other);
    $codec = new RelayCodec();
    fwrite($stream, RelayCodec::encode(RelayKind::Hello, 'b'));
    while (true) {
        $message = readFrame($stream, $codec);
        [, $body] = RelayCodec::splitMessage($message);
        if ($body === 'quit') {
            exit(0);
        }
        if ($mode === 'ping' || $body === 'last') {
            fwrite($stream, RelayCodec::message('b', 'pong'));
        }
    }
}

/** @return array{float, float, float, float} p50 µs, p99 µs, messages/s, idle CPU s */
function sockets(bool $relay, int $pings, int $messages, string $payload): array
{
    $results = [];
    foreach (['ping', 'flood'] as $mode) {
        [$a, $aMaster] = pair();
        [$b, $bMaster] = pair();
        $children = [];
        if ($relay) {
            $children[] = hub([1 => $aMaster, 2 => $bMaster], [$a, $b]);
            fclose($aMaster);
            fclose($bMaster);
            fwrite($a, RelayCodec::encode(RelayKind::Hello, 'a'));
            $toB = $a;
        } else {
            // Direct: A's end talks to B's end; the hub's ends are not used.
            fclose($aMaster);
            fclose($bMaster);
            [$a, $b] = pair();
            $toB = $a;
        }
        $children[] = echoer($b, $a, $mode);
        fclose($b);
        $codec = new RelayCodec();
        if (!$relay) {
            readFrame($a, $codec); // B's hello
        }
        if ($mode === 'ping') {
            $times = [];
            for ($i = 0; $i < $pings; ++$i) {
                $t = hrtime(true);
                fwrite($toB, RelayCodec::message('a', $payload));
                readFrame($a, $codec);
                $times[] = (hrtime(true) - $t) / 1e3;
            }
            sort($times);
            $results[] = $times[(int) (0.5 * count($times))];
            $results[] = $times[(int) (0.99 * count($times))];
            // Idle: a second with nothing to carry.
            $cpuIdle = cpuOf($children);
            $read = [$a];
            $write = $except = null;
            stream_select($read, $write, $except, 1);
            $idle = cpuOf($children) - $cpuIdle;
        } else {
            $frame = RelayCodec::message('a', $payload);
            $batch = str_repeat($frame, 100);
            $t = hrtime(true);
            for ($i = 0; $i < $messages; $i += 100) {
                fwrite($toB, $batch);
            }
            fwrite($toB, RelayCodec::message('a', 'last'));
            readFrame($a, $codec);
            $results[] = $messages / ((hrtime(true) - $t) / 1e9);
        }
        fwrite($toB, RelayCodec::message('a', 'quit'));
        fclose($a);
        foreach ($children as $pid) {
            pcntl_waitpid($pid, $status);
        }
        if ($mode === 'ping') {
            $results[] = $idle;
        }
    }

    return [$results[0], $results[1], $results[3], $results[2]];
}

/** @return array{float, float, float, float} p50 µs, p99 µs, messages/s (not measured: NAN), idle CPU s */
function sharedMemory(int $pings, string $payload, int $pollUs): array
{
    $key = random_int(1, PHP_INT_MAX >> 1) & 0x7fffffff;
    $shm = shmop_open($key, 'c', 0600, 2 * 512);
    assert($shm !== false);
    // Slot 0: A to B, slot 1: B to A; each a 4-byte sequence number then the message.
    shmop_write($shm, str_repeat("\0", 1024), 0);
    $pid = pcntl_fork();
    if ($pid === 0) {
        $shm = shmop_open($key, 'w', 0, 0);
        $seen = 0;
        while (true) {
            $seq = unpack('N', shmop_read($shm, 0, 4))[1];
            if ($seq !== $seen) {
                $seen = $seq;
                $message = shmop_read($shm, 4, 200);
                if ($seq === 0xffffffff) {
                    exit(0);
                }
                shmop_write($shm, pack('N', $seq) . $message, 512);
            } else {
                usleep($pollUs);
            }
        }
    }
    $times = [];
    for ($i = 1; $i <= $pings; ++$i) {
        $t = hrtime(true);
        shmop_write($shm, pack('N', $i) . $payload, 0);
        while (unpack('N', shmop_read($shm, 512, 4))[1] !== $i) {
            usleep($pollUs);
        }
        $times[] = (hrtime(true) - $t) / 1e3;
    }
    sort($times);
    // Idle: the poller's CPU over a second with nothing to carry.
    $before = cpuOf([$pid]);
    usleep(1_000_000);
    $idle = cpuOf([$pid]) - $before;
    shmop_write($shm, pack('N', 0xffffffff), 0);
    pcntl_waitpid($pid, $status);
    shmop_delete($shm);

    return [$times[(int) (0.5 * count($times))], $times[(int) (0.99 * count($times))], NAN, $idle];
}

$rows = [];
for ($round = 1; $round <= $rounds; ++$round) {
    $rows['relay'][] = sockets(true, $pings, $messages, $payload);
    $rows['direct'][] = sockets(false, $pings, $messages, $payload);
    $rows['shm'][] = sharedMemory($pings, $payload, $pollUs);
}
printf("%d rounds, %d round trips, %d messages of 200 bytes, shm polled every %d µs\n\n", $rounds, $pings, $messages, $pollUs);
printf("| transport | round trip p50 µs | p99 µs | one-way messages/s | idle CPU s in 1 s (the other processes) |\n|---|---|---|---|---|\n");
foreach ($rows as $name => $runs) {
    $median = static function (int $i) use ($runs): float {
        $values = array_column($runs, $i);
        sort($values);

        return $values[intdiv(count($values), 2)];
    };
    printf("| %s | %.0f | %.0f | %s | %.3f |\n", $name, $median(0), $median(1), is_nan($median(2)) ? '—' : number_format($median(2), 0, '.', ','), $median(3));
}
