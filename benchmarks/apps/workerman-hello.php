<?php

declare(strict_types=1);

/*
 * The pure-PHP peer benchmarks/http.sh runs side by side with Spindle: Workerman's HTTP server
 * answering "Hello World", with as many processes as Spindle has workers. Workerman is not a
 * dependency of Spindle: WORKERMAN_DIR points at an unpacked copy of its public source (4.x, the
 * directory that holds Autoloader.php).
 *
 *   WORKERMAN_DIR=/path/to/workerman PORT=8080 WORKERS=2 RUN_DIR=/tmp/x php workerman-hello.php start
 */

$dir = getenv('WORKERMAN_DIR') ?: exit("WORKERMAN_DIR is not set\n");
require $dir . '/Autoloader.php';

use Workerman\Protocols\Http\Response;
use Workerman\Worker;

$run = getenv('RUN_DIR') ?: sys_get_temp_dir();
Worker::$pidFile = $run . '/workerman.pid';
Worker::$logFile = $run . '/workerman.log';
Worker::$stdoutFile = $run . '/workerman.stdout';

$worker = new Worker('http://127.0.0.1:' . (getenv('PORT') ?: '8080'));
$worker->count = (int) (getenv('WORKERS') ?: 2);
$worker->reusePort = false;
// The same answer as examples/hello.php: 200, text/plain, "Hello World".
$worker->onMessage = static function ($connection): void {
    $connection->send(new Response(200, ['Content-Type' => 'text/plain; charset=utf-8'], 'Hello World'));
};

Worker::runAll();
