<?php

declare(strict_types=1);

// Runs the translated Autobahn|Testsuite cases (sections 1–10) against a WebSocketSession with an
// echo app, in memory, and prints the verdicts per section; with -v, every case that did not get a
// strict OK; --scale=N divides section 9's sizes by N. --socket=HOST:PORT[/PATH] runs them over TCP
// against a running echo server instead (a connection per case); --wsproto against an echo server
// built on Debian's python3-wsproto (wsproto-echo-server.py), --session-server against
// session-echo-server.php (WebSocketSession behind a minimal TCP loop), each started here on a free port.
// Usage: php -d memory_limit=2G tests/Support/WebSocket/autobahn-report.php [-v] [--scale=N]
//        [--socket=HOST:PORT[/PATH] | --wsproto | --session-server] [section ...]

use Spindle\Http\WebSocket\WebSocketLimits;
use Spindle\Tests\Support\WebSocket\AutobahnCases;
use Spindle\Tests\Support\WebSocket\AutobahnRunner;
use Spindle\Tests\Support\WebSocket\InMemoryEchoTransport;
use Spindle\Tests\Support\WebSocket\SocketTransport;

require __DIR__ . '/../../../vendor/autoload.php';

$args = \array_slice($argv, 1);
$verbose = \in_array('-v', $args, true);
$scale = 1;
$socket = null;
$server = null;
foreach ($args as $arg) {
    if (\str_starts_with($arg, '--scale=')) {
        $scale = \max(1, (int) \substr($arg, 8));
    } elseif (\str_starts_with($arg, '--socket=')) {
        $socket = \substr($arg, 9);
    } elseif ($arg === '--wsproto' || $arg === '--session-server') {
        $command = $arg === '--wsproto'
            ? ['/usr/bin/python3', __DIR__ . '/wsproto-echo-server.py']
            : [\PHP_BINARY, '-d', 'memory_limit=2G', __DIR__ . '/session-echo-server.php'];
        $server = \proc_open($command, [0 => ['pipe', 'r'], 1 => ['pipe', 'w']], $serverPipes);
        $ready = $server === false ? false : \fgets($serverPipes[1]);
        if ($ready === false || \preg_match('~^listening on (\S+)~', $ready, $m) !== 1) {
            \fwrite(\STDERR, "The echo server did not start\n");
            exit(1);
        }
        $socket = $m[1];
    }
}
$connect = null;
if ($socket !== null) {
    \preg_match('~^([^:/]+):(\d+)(/.*)?$~', $socket, $m) === 1 || exit("--socket=HOST:PORT[/PATH]\n");
    [$host, $port, $path] = [$m[1], (int) $m[2], $m[3] ?? '/'];
    $connect = static fn (): SocketTransport => SocketTransport::connect($host, $port, $path);
    echo "over TCP to {$socket}\n";
}
$sections = \array_map('intval', \array_values(\array_filter($args, static fn (string $a): bool => $a[0] !== '-')));
$sections = $sections === [] ? [1, 2, 3, 4, 5, 6, 7, 9, 10] : $sections;
$runner = new AutobahnRunner();
$limits = new WebSocketLimits(16 << 20, 16 << 20, 65536);
$total = ['cases' => 0, 'passed' => 0];
foreach ($sections as $section) {
    $counts = [];
    $passed = 0;
    $cases = 0;
    $started = \microtime(true);
    foreach (AutobahnCases::section($section, $scale) as $case) {
        $result = $runner->run($case, $connect !== null ? $connect() : new InMemoryEchoTransport($limits));
        ++$cases;
        $passed += $result->passed() ? 1 : 0;
        $key = $result->behavior . '/' . $result->behaviorClose;
        $counts[$key] = ($counts[$key] ?? 0) + 1;
        if ($verbose && ($result->behavior !== 'OK' || $result->behaviorClose !== 'OK')) {
            echo '  ', $result->summary(), "\n";
        }
    }
    \ksort($counts);
    $total['cases'] += $cases;
    $total['passed'] += $passed;
    \printf("section %-2d %3d cases, %3d passed (%s) in %.2f s\n", $section, $cases, $passed, \implode(', ', \array_map(static fn (string $k, int $n): string => "{$k}: {$n}", \array_keys($counts), $counts)), \microtime(true) - $started);
}
\printf("all        %3d cases, %3d passed\n", $total['cases'], $total['passed']);
