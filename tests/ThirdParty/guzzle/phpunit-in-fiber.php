<?php

declare(strict_types=1);

/*
 * PHPUnit run inside a fiber of the event loop, as a request's code runs under `spindle serve`:
 * there a synchronous request suspends the fiber and the loop resumes it, where outside a fiber
 * it runs the loop itself until the answer is in. Takes PHPUnit's options (run.php --in-fiber).
 */

require dirname(__DIR__, 3) . '/vendor/autoload.php';

$status = 1;
Revolt\EventLoop::queue(static function () use (&$status): void {
    if (Fiber::getCurrent() === null) {
        throw new LogicException('the event loop ran the callback outside a fiber');
    }
    $status = (new PHPUnit\TextUI\Command())->run($_SERVER['argv'], false);
});
Revolt\EventLoop::run();
exit($status);
