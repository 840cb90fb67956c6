<?php

declare(strict_types=1);

namespace Spindle\Loop;

use Revolt\EventLoop;

/**
 * The one accessor for Spindle's loop state. It lives inside the event loop's driver,
 * so Spindle keeps no static state of its own.
 */
final class Loop
{
    private function __construct()
    {
    }

    /** Installs the context-aware driver around the current driver (once per process). */
    public static function driver(): ContextDriver
    {
        $driver = EventLoop::getDriver();
        if ($driver instanceof ContextDriver) {
            return $driver;
        }
        $wrapped = new ContextDriver($driver);
        EventLoop::setDriver($wrapped);

        return $wrapped;
    }

    /** The context of the task running in the current fiber, or null outside a task. */
    public static function context(): ?Context
    {
        $driver = EventLoop::getDriver();

        return $driver instanceof ContextDriver ? $driver->currentContext() : null;
    }
}
