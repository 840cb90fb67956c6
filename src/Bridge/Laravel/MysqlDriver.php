<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel;

use Spindle\Bridge\WorkerEnvironment;

/**
 * Whether Laravel's `mysql` connections use Spindle's driver: in a worker of `spindle serve`,
 * unless the environment says `SPINDLE_MYSQL_DRIVER=native` (one connection opts out with
 * `'spindle' => false`). Anywhere else (artisan commands, PHP-FPM, another server) the app keeps
 * the native driver: without Spindle's event loop nothing runs while a query waits, so Spindle's
 * client would only cost CPU, and the same app often runs both ways.
 */
final class MysqlDriver
{
    private function __construct()
    {
    }

    public static function enabled(): bool
    {
        return WorkerEnvironment::useSpindle('SPINDLE_MYSQL_DRIVER');
    }
}
