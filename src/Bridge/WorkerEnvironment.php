<?php

declare(strict_types=1);

namespace Spindle\Bridge;

use Revolt\EventLoop;
use Spindle\Loop\ContextDriver;

/**
 * What decides, when a framework service is made, whether it gets one of Spindle's clients: this
 * process is a worker of `spindle serve` (its event loop is Spindle's), and the client's
 * environment variable (SPINDLE_MYSQL_DRIVER, SPINDLE_PGSQL_DRIVER, SPINDLE_REDIS_DRIVER,
 * SPINDLE_HTTP_DRIVER) does not say `native`.
 */
final class WorkerEnvironment
{
    private function __construct()
    {
    }

    public static function inWorker(): bool
    {
        return EventLoop::getDriver() instanceof ContextDriver;
    }

    /** The environment variable $name as the app sees it (its .env included), or null when unset or empty. */
    public static function value(string $name): ?string
    {
        $value = $_SERVER[$name] ?? $_ENV[$name] ?? \getenv($name);

        return \is_string($value) && $value !== '' ? $value : null;
    }

    /** Whether the environment variable $name says `native`. */
    public static function native(string $name): bool
    {
        return \strtolower(self::value($name) ?? '') === 'native';
    }

    /** In a worker, and $variable does not say `native`. */
    public static function useSpindle(string $variable): bool
    {
        return !self::native($variable) && self::inWorker();
    }
}
