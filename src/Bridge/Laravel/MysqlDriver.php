<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel;

use Spindle\Bridge\WorkerEnvironment;

/**
 * Whether Laravel's `mysql` connections use Spindle's driver: in the command-line PHP that runs
 * `spindle serve` and artisan, unless the environment says `SPINDLE_MYSQL_DRIVER=native` (one
 * connection opts out with `'spindle' => false`). Under PHP-FPM, Apache's module or any other web
 * SAPI the app keeps the native driver: there is no event loop to serve other requests while a
 * query waits, so Spindle's client would only cost CPU (the same app often runs both ways, on
 * PHP-FPM before and beside Spindle).
 */
final class MysqlDriver
{
    private function __construct()
    {
    }

    public static function enabled(string $sapi = \PHP_SAPI): bool
    {
        return $sapi === 'cli' && !WorkerEnvironment::native('SPINDLE_MYSQL_DRIVER');
    }
}
