<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel;

use Revolt\EventLoop;
use Spindle\Loop\Context;
use Spindle\Loop\Loop;

/**
 * Ends a request's lease once its response has been handed to the connection, as PHP-FPM does
 * (Laravel's front controller sends the response, which calls fastcgi_finish_request(), and
 * only then terminates the kernel): terminable middleware, `app()->terminating()` callbacks and
 * Laravel 11's `defer()` callbacks run after the client has the response, not before.
 *
 * The instance stays borrowed until they are done, so deferred work never runs inside another
 * request; it runs in a task of its own whose resumes make the instance's statics current, as
 * the request's did.
 */
final class AfterResponse
{
    private function __construct()
    {
    }

    public static function end(Lease $lease): void
    {
        $request = Loop::context();
        if ($request === null) {
            // Not inside a server task (a test calling the handler): nothing to wait for.
            $lease->end();

            return;
        }
        EventLoop::defer(static function () use ($lease, $request): void {
            $driver = Loop::driver();
            $fiber = new \Fiber(static function () use ($lease, $driver): void {
                try {
                    $lease->end();
                } finally {
                    $fiber = \Fiber::getCurrent();
                    \assert($fiber !== null);
                    $driver->detach($fiber);
                }
            });
            $task = new Context($request->label . ' (terminate)');
            $task->onResume($lease->resumed(...));
            $driver->attach($fiber, $task);
            $fiber->start();
        });
    }
}
