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

    /**
     * Installs the context-aware driver around a driver of $kind: Select (or Auto) is Loop::driver(),
     * the loop's own driver; Epoll an EpollDriver. Called before anything uses the loop: a driver
     * with callbacks already registered is not replaced.
     *
     * @throws Epoll\EpollException where epoll cannot run here
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
