<?php

declare(strict_types=1);

/*
 * The shared cache's get and put as a worker sees them: this process prepares the store as the
 * master does before it forks, forks a child that adopts it as a worker does, and the child
 * times N gets and N puts on 100 keys, inside the event loop's task (a fiber with its context, as
 * a request runs), of two values: a small one (a 40-byte string) and a page's data (20 rows of
 * short strings and numbers, 2.8 KB serialized: there the time is mostly PHP's unserialize()).
 *
 *   php benchmarks/shared-cache.php [n=100000]                          # shmop backend
 *   php -d apc.enable_cli=1 benchmarks/shared-cache.php [n]             # APCu backend
 *   SPINDLE_CACHE_BACKEND=memory php benchmarks/shared-cache.php [n]    # one process only
 */

require __DIR__ . '/../vendor/autoload.php';

use Spindle\Loop\Context;
use Spindle\Loop\Loop;
use Spindle\Loop\TaskRunner;
use Spindle\Server\SharedCache\SharedCache;

$n = (int) ($argv[1] ?? 100000);
$shared = SharedCache::prepare();
$pid = pcntl_fork();
if ($pid === 0) {
    $shared?->adopt(Spindle\Server\WorkerServices::current());
    $value = [];
    for ($i = 0; $i < 20; ++$i) {
        $value[] = ['id' => 10000 - $i, 'title' => "Post number $i with a title", 'author' => "user-$i", 'links' => [1, 2, 3]];
    }
    $runner = new TaskRunner(Loop::driver());
    $runner->run(new Context('benchmark'), static function () use ($n, $value): void {
        foreach (['small' => str_repeat('s', 40), 'page data' => $value] as $label => $v) {
            measure(SharedCache::store(), $label, $v, $n);
        }
    });
    exit(0);
}
pcntl_waitpid($pid, $status);
exit(pcntl_wexitstatus($status));

function measure(Spindle\Server\SharedCache\Store $store, string $label, mixed $value, int $n): void
{
    for ($i = 0; $i < 100; ++$i) {
        $store->set('key' . $i, $value);
    }
    $t = hrtime(true);
    for ($i = 0; $i < $n; ++$i) {
        $store->set('key' . ($i % 100), $value);
    }
    $put = (hrtime(true) - $t) / $n / 1000;
    $t = hrtime(true);
    for ($i = 0; $i < $n; ++$i) {
        $store->fetch('key' . ($i % 100));
    }
    $get = (hrtime(true) - $t) / $n / 1000;
    $t = hrtime(true);
    for ($i = 0; $i < $n; ++$i) {
        $store->fetch('absent' . ($i % 100));
    }
    $miss = (hrtime(true) - $t) / $n / 1000;
    printf("backend %s, %s (%d bytes serialized): get %.2f µs, put %.2f µs, miss %.2f µs (%d each)\n", $store->backend(), $label, strlen(serialize($value)), $get, $put, $miss, $n);
}
