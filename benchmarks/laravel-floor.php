<?php

declare(strict_types=1);

/*
 * The floor of what any server can do with a Laravel app: one booted app, and per request only
 * `Request::create()`, the HTTP kernel's handle() and terminate(). No server, no socket, no reset
 * between requests but the queued cookies' (see $serve). Prints the time per request and its
 * three parts; under callgrind (twice, then the difference per request) it gives the
 * instructions Laravel's own work takes, to set beside benchmarks/http-path.php with the same
 * app (docs/benchmarks.md, 2026-11-26):
 *
 *   php -d opcache.enable_cli=1 -d opcache.jit=tracing -d opcache.jit_buffer_size=64M \
 *       benchmarks/laravel-floor.php [app=examples/blog] [requests=10000]
 *
 * Run it with the app's environment (benchmarks/compare-commits.sh shows one). URL_PATH (default
 * /hello) is the path asked for. FIBER=new runs each request in a fiber of its own, FIBER=reused
 * in one fiber that waits for the next; WARMUP (default 2000) is the requests served before
 * measuring (fewer under callgrind); POLLUTE=data reads 1 MB of an array between two
 * requests, POLLUTE=code calls 1,500 small compiled functions: how much the same handle() slows
 * down when other work has run between two requests (the CPU caches).
 */

$app = $argv[1] ?? __DIR__ . '/../examples/blog';
$requests = (int) ($argv[2] ?? 10000);
$path = getenv('URL_PATH') ?: '/hello';
$fiberMode = getenv('FIBER') ?: 'none';
$pollute = getenv('POLLUTE') ?: '';

require $app . '/vendor/autoload.php';
$laravel = require $app . '/bootstrap/app.php';
$kernel = $laravel->make(Illuminate\Contracts\Http\Kernel::class);
$kernel->bootstrap();

$cookies = $laravel->bound('cookie') ? $laravel->make('cookie') : null;
$parts = [0, 0, 0];
$serve = static function () use ($kernel, $path, $cookies, &$parts): void {
    $start = hrtime(true);
    $request = Illuminate\Http\Request::create('http://127.0.0.1:8080' . $path, 'GET', [], [], [], ['REMOTE_ADDR' => '127.0.0.1', 'SERVER_PROTOCOL' => 'HTTP/1.1']);
    $created = hrtime(true);
    $response = $kernel->handle($request);
    $response->getContent();
    $handled = hrtime(true);
    $kernel->terminate($request, $response);
    // The one reset a bare loop cannot do without: the cookie session driver queues a cookie
    // named after each new session, and every response would carry all the earlier ones
    // (a /posts took 12 ms after 200 requests, 34 ms after 1,000).
    $cookies?->flushQueuedCookies();
    $parts[0] += $created - $start;
    $parts[1] += $handled - $created;
    $parts[2] += hrtime(true) - $handled;
};

$noise = static fn () => null;
if ($pollute === 'data') {
    $array = range(1, 1_000_000);
    $noise = static function () use ($array): void {
        $sum = 0;
        for ($i = 0; $i < 1_000_000; $i += 8) {
            $sum += $array[$i];
        }
    };
} elseif ($pollute === 'code') {
    $file = sys_get_temp_dir() . '/spindle-laravel-floor-' . getmypid() . '.php';
    $code = "<?php\n";
    for ($i = 0; $i < 1500; ++$i) {
        $code .= "function spindle_floor_$i(array \$a, int \$x): int { \$s = \$x; foreach (\$a as \$k => \$v) { \$s += (\$v * $i) ^ \$k; if (\$s > 1000000) { \$s -= $i; } } return \$s + strlen((string) \$x); }\n";
    }
    $code .= "function spindle_floor_all(): void { \$a = [1, 2, 3, 4];\n";
    for ($i = 0; $i < 1500; ++$i) {
        $code .= "spindle_floor_$i(\$a, $i);\n";
    }
    file_put_contents($file, $code . "}\n");
    require $file;
    unlink($file);
    $noise = 'spindle_floor_all'(...);
}

$fiber = new Fiber(static function () use ($serve): void {
    while (true) {
        $serve();
        Fiber::suspend();
    }
});
$once = match ($fiberMode) {
    'new' => static function () use ($serve): void {
        (new Fiber($serve))->start();
    },
    'reused' => static function () use ($fiber): void {
        $fiber->isStarted() ? $fiber->resume() : $fiber->start();
    },
    default => $serve,
};

$warmup = getenv('WARMUP') === false ? 2000 : (int) getenv('WARMUP');
for ($i = 0; $i < $warmup; ++$i) {
    $noise();
    $once();
}
$parts = [0, 0, 0];
$polluting = 0;
$start = hrtime(true);
for ($i = 0; $i < $requests; ++$i) {
    $before = hrtime(true);
    $noise();
    $polluting += hrtime(true) - $before;
    $once();
}
$total = hrtime(true) - $start - $polluting;
printf(
    "%d requests of %s (fiber: %s, pollution: %s): %.1f µs per request; Request::create %.1f, handle %.1f, terminate %.1f\n",
    $requests,
    $path,
    $fiberMode,
    $pollute === '' ? 'none' : $pollute,
    $total / 1000 / $requests,
    $parts[0] / 1000 / $requests,
    $parts[1] / 1000 / $requests,
    $parts[2] / 1000 / $requests,
);
