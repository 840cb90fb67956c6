<?php

declare(strict_types=1);

/*
 * What one wait for a socket costs a fiber, against a blocking read: a child process answers
 * every byte it reads with one byte (a stand-in for a database server on the same machine), and
 * the parent sends a byte and waits for the answer, ITERATIONS times, in these ways:
 *
 *   blocking        fwrite() then a blocking fread(): the floor (write, read)
 *   waiter          fwrite(), SocketWaiter::wait() in a fiber, fread(): what Spindle's MySQL,
 *                   PostgreSQL, Redis and HTTP clients do (with a deadline, as they set one)
 *   waiter, no deadline   the same without the deadline's timer
 *
 * on the event loop's select() driver and on the epoll driver (--event-loop=epoll). With
 * CONTEXT=1 the waits run in a Spindle task (Loop::driver(), TaskRunner), as a request's do: each
 * wait then also sets aside and restores the task's process state (Loop\Isolation). Reports this
 * process's CPU per round trip (getrusage, user and system), the best of ROUNDS interleaved rounds.
 *
 *   php -d opcache.enable_cli=1 -d opcache.jit=tracing -d opcache.jit_buffer_size=64M benchmarks/socket-wait.php
 *   CONTEXT=1 php ... benchmarks/socket-wait.php
 *   ITERATIONS=50000 ROUNDS=5 ONLY="blocking|waiter, select" php ... benchmarks/socket-wait.php
 */

require __DIR__ . '/../vendor/autoload.php';

use Revolt\EventLoop;
use Spindle\Loop\Context;
use Spindle\Loop\Driver\EpollDriver;
use Spindle\Loop\Loop;
use Spindle\Loop\SocketWaiter;
use Spindle\Loop\TaskRunner;

$iterations = (int) (getenv('ITERATIONS') ?: 20000);
$inTask = getenv('CONTEXT') === '1';
$rounds = max(1, (int) (getenv('ROUNDS') ?: 3));

[$parent, $child] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP) ?: exit("socket pair\n");
$pid = pcntl_fork();
if ($pid === 0) {
    fclose($parent);
    while (($byte = fread($child, 1)) !== false && $byte !== '') {
        fwrite($child, $byte);
    }
    exit(0);
}
fclose($child);
stream_set_read_buffer($parent, 0);

/** @return array{float, float} user and system µs of this process so far */
function cpu(): array
{
    $usage = getrusage() ?: [];

    return [($usage['ru_utime.tv_sec'] ?? 0) * 1e6 + ($usage['ru_utime.tv_usec'] ?? 0), ($usage['ru_stime.tv_sec'] ?? 0) * 1e6 + ($usage['ru_stime.tv_usec'] ?? 0)];
}

/** @param resource $socket */
function blocking($socket, int $n): void
{
    stream_set_blocking($socket, true);
    for ($i = 0; $i < $n; ++$i) {
        fwrite($socket, 'x');
        fread($socket, 8192);
    }
}

/** @param resource $socket */
function waiting($socket, int $n, bool $deadline, bool $inTask): void
{
    stream_set_blocking($socket, false);
    $waiter = new SocketWaiter($socket, true);
    $work = static function () use ($socket, $n, $deadline, $waiter): void {
        for ($i = 0; $i < $n; ++$i) {
            fwrite($socket, 'x');
            $waiter->wait(false, $deadline ? hrtime(true) / 1e9 + 30.0 : null);
            fread($socket, 8192);
        }
    };
    if ($inTask) {
        (new TaskRunner(Loop::driver()))->run(new Context('GET /'), $work);
    } else {
        EventLoop::queue($work);
    }
    EventLoop::run();
    $waiter->cancel();
}

$ways = [
    'blocking' => static fn (int $n) => blocking($parent, $n),
    'waiter, select' => static fn (int $n) => waiting($parent, $n, true, $inTask),
    'waiter, select, no deadline' => static fn (int $n) => waiting($parent, $n, false, $inTask),
];
if (!$inTask) {
    $ways['waiter, epoll'] = static function (int $n) use ($parent): void {
        $before = EventLoop::getDriver();
        EventLoop::setDriver(new EpollDriver());
        waiting($parent, $n, true, false);
        EventLoop::setDriver($before);
    };
}
if (getenv('ONLY')) {
    $ways = array_intersect_key($ways, array_flip(explode('|', (string) getenv('ONLY'))));
}

$best = [];
for ($round = 0; $round < $rounds; ++$round) {
    foreach ($ways as $name => $way) {
        $way(intdiv($iterations, 10));
        [$user, $system] = cpu();
        $started = hrtime(true);
        $way($iterations);
        $wall = (hrtime(true) - $started) / 1000 / $iterations;
        [$user2, $system2] = cpu();
        $total = ($user2 - $user + $system2 - $system) / $iterations;
        if (!isset($best[$name]) || $total < $best[$name][0]) {
            $best[$name] = [$total, ($user2 - $user) / $iterations, ($system2 - $system) / $iterations, $wall];
        }
    }
}
fclose($parent);
pcntl_waitpid($pid, $status);

printf("PHP %s, JIT %s; %d round trips, best of %d rounds; %s; µs per round trip (this process only)\n\n", PHP_VERSION,
    (function_exists('opcache_get_status') && (opcache_get_status(false)['jit']['on'] ?? false)) ? 'on' : 'off', $iterations, $rounds,
    $inTask ? 'the waits in a Spindle task (CONTEXT=1)' : 'the waits in a bare fiber');
echo "| way | CPU | user | system | wall |\n| --- | ---: | ---: | ---: | ---: |\n";
foreach ($best as $name => [$total, $user, $system, $wall]) {
    printf("| %s | %.2f | %.2f | %.2f | %.2f |\n", $name, $total, $user, $system, $wall);
}
