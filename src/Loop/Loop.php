<?php

declare(strict_types=1);

namespace Spindle\Loop;

use Revolt\EventLoop;
use Spindle\Loop\Driver\EpollDriver;

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

    /**
     * Installs the context-aware driver around a driver of $kind: Select (or Auto) is Loop::driver(),
     * the loop's own driver; Epoll an EpollDriver. Called before anything uses the loop: a driver
     * with callbacks already registered is not replaced.
     *
     * @throws Driver\Epoll\EpollException where epoll cannot run here
     */
    public static function install(EventLoopKind $kind): ContextDriver
    {
        if ($kind !== EventLoopKind::Epoll) {
            return self::driver();
        }
        $driver = EventLoop::getDriver();
        if ($driver instanceof ContextDriver && $driver->inner() instanceof EpollDriver) {
            return $driver;
        }
        if ($driver instanceof ContextDriver || $driver->getIdentifiers() !== []) {
            throw new \LogicException(\sprintf('The event loop is in use (%d callbacks): choose its driver before anything uses it', \count($driver->getIdentifiers())));
        }
        $wrapped = new ContextDriver(new EpollDriver());
        EventLoop::setDriver($wrapped);

        return $wrapped;
    }

    /**
     * With the epoll driver installed, raises the process's soft limit on open descriptors toward
     * its hard limit so that it can hold $wanted, and returns the limit now in force; null on
     * select(), which cannot watch a descriptor numbered 1024 or above whatever the limit.
     */
    public static function raiseDescriptorLimit(int $wanted): ?int
    {
        $driver = EventLoop::getDriver();
        $inner = $driver instanceof ContextDriver ? $driver->inner() : $driver;

        return $inner instanceof EpollDriver ? $inner->raiseDescriptorLimit($wanted) : null;
    }

    /**
     * Starts $body now as a child of the running task, in a fiber of its own with the context
     * $child (made with Context::child() or its own), and returns when $body finishes or first
     * waits. The child starts with the process-wide state its parent has at this moment (time
     * zone, locale, settings, handlers, superglobals: ProcessState::inherit()) and keeps what it
     * changes to itself; it can be cancelled with cancel(). $body must not throw: its errors are
     * its own to report. Without Spindle's driver (a bare loop) $body still runs in a fiber, with
     * no context.
     *
     * @param \Closure(): void $body
     */
    public static function startChild(Context $child, \Closure $body): void
    {
        $driver = EventLoop::getDriver();
        if (!$driver instanceof ContextDriver) {
            (new \Fiber($body))->start();

            return;
        }
        $driver->children()->runChild($child, $body);
    }

    /**
     * Cancels $task: $reason is thrown into its fiber where it waits now, or at its next wait
     * (see ContextDriver::cancelTask()); returns whether it was thrown in now. False without
     * Spindle's driver.
     */
    public static function cancel(Context $task, TaskCancelled $reason): bool
    {
        $driver = EventLoop::getDriver();

        return $driver instanceof ContextDriver && $driver->cancelTask($task, $reason);
    }

    /** The context of the task running in the current fiber, or null outside a task. */
    public static function context(): ?Context
    {
        $driver = EventLoop::getDriver();

        return $driver instanceof ContextDriver ? $driver->currentContext() : null;
    }

    /**
     * ob_start() with a handler that stays the buffer's handler across the task's waits (see
     * Isolation\OutputBuffers: PHP cannot name a closure's handler again); returns the level.
     *
     * @param callable(string, int): string $handler
     */
    public static function startOutputBuffer(callable $handler, int $chunkSize = 0): int
    {
        $driver = EventLoop::getDriver();
        if ($driver instanceof ContextDriver) {
            return $driver->isolation->buffers->start($handler, $chunkSize);
        }
        \ob_start($handler, $chunkSize);

        return \ob_get_level();
    }
}
