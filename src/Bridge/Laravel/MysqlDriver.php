<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel;

/**
 * Whether Laravel's `mysql` connections use Spindle's driver: yes unless the environment says
 * `SPINDLE_MYSQL_DRIVER=native` (one connection opts out with `'spindle' => false`).
 */
final class MysqlDriver
{
    public static function enabled(): bool
    {
        $value = $_SERVER['SPINDLE_MYSQL_DRIVER'] ?? $_ENV['SPINDLE_MYSQL_DRIVER'] ?? \getenv('SPINDLE_MYSQL_DRIVER');

        return !\is_string($value) || \strtolower($value) !== 'native';
    }
}
