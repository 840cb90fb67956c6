<?php

declare(strict_types=1);

// Runs the translated Autobahn|Testsuite cases (sections 1–10) against a WebSocketSession with an
// echo app, in memory, and prints the verdicts per section; with -v, every case that did not get a
// strict OK; --scale=N divides section 9's sizes by N.
// Usage: php -d memory_limit=2G tests/Support/WebSocket/autobahn-report.php [-v] [--scale=N] [section ...]

use Spindle\Http\WebSocket\WebSocketLimits;
use Spindle\Tests\Support\WebSocket\AutobahnCases;
use Spindle\Tests\Support\WebSocket\AutobahnRunner;
use Spindle\Tests\Support\WebSocket\InMemoryEchoTransport;

require __DIR__ . '/../../../vendor/autoload.php';

$args = \array_slice($argv, 1);
$verbose = \in_array('-v', $args, true);
$scale = 1;
foreach ($args as $arg) {
    if (\str_starts_with($arg, '--scale=')) {
        $scale = \max(1, (int) \substr($arg, 8));
    }
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
        $result = $runner->run($case, new InMemoryEchoTransport($limits));
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
