<?php

declare(strict_types=1);

/*
 * What a fiber per request costs: a new Fiber for every task against Spindle's TaskRunner,
 * which hands a finished fiber the next task. Run: php benchmarks/fibers.php [tasks]
 */

require __DIR__ . '/../vendor/autoload.php';

use Spindle\Loop\Context;
use Spindle\Loop\Loop;
use Spindle\Loop\TaskRunner;

$tasks = (int) ($argv[1] ?? 100000);
$work = static function (): void {
};

$start = hrtime(true);
for ($i = 0; $i < $tasks; ++$i) {
    $fiber = new Fiber($work);
    $fiber->start();
}
$fresh = (hrtime(true) - $start) / $tasks;

$runner = new TaskRunner(Loop::driver());
$start = hrtime(true);
for ($i = 0; $i < $tasks; ++$i) {
    $runner->run(new Context('GET /'), $work);
}
$pooled = (hrtime(true) - $start) / $tasks;

printf("new Fiber per task:      %8.2f µs\n", $fresh / 1000);
printf("TaskRunner (reused):     %8.2f µs  (context and bookkeeping included)\n", $pooled / 1000);
printf("ratio:                   %8.1fx\n", $fresh / $pooled);
