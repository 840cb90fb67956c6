<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel;

/**
 * Whether Laravel's `pgsql` connections use Spindle's driver: yes unless the environment says
 * `SPINDLE_PGSQL_DRIVER=native` (one connection opts out with `'spindle' => false`).
 */
final class PgsqlDriver
{
    public static function enabled(): bool
    {
        $value = $_SERVER['SPINDLE_PGSQL_DRIVER'] ?? $_ENV['SPINDLE_PGSQL_DRIVER'] ?? \getenv('SPINDLE_PGSQL_DRIVER');

        return !\is_string($value) || \strtolower($value) !== 'native';
    }
}
