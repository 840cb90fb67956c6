<?php

declare(strict_types=1);

/*
 * PHPUnit run inside a fiber of the event loop, as a request's code runs under `spindle serve`:
 * there Spindle's PDO suspends the fiber on each wait for the server and the loop resumes it,
 * where outside a fiber it runs the loop itself until the answer is in. Takes PHPUnit's options.
 */

require __DIR__ . '/vendor/autoload.php';

$status = 1;
Revolt\EventLoop::queue(static function () use (&$status): void {
    if (Fiber::getCurrent() === null) {
        throw new LogicException('the event loop ran the callback outside a fiber');
    }
    $status = (new PHPUnit\TextUI\Application())->run($_SERVER['argv']);
});
Revolt\EventLoop::run();
exit($status);
