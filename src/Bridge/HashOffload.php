<?php

declare(strict_types=1);

namespace Spindle\Bridge;

use Spindle\Server\WorkerServices;
use Spindle\Server\Tasks\TaskClient;

/**
 * When a framework's password hashing goes to the task workers: in a fiber of a worker whose
 * server has task workers (--task-workers, SPINDLE_TASK_WORKERS), unless SPINDLE_HASH_OFFLOAD=0.
 * Laravel's hashers (Laravel\Hashing\TaskHasher) and Symfony's (Symfony\PasswordHasher) ask here.
 */
final class HashOffload
{
    public const VARIABLE = 'SPINDLE_HASH_OFFLOAD';

    private function __construct()
    {
    }

    /** Whether SPINDLE_HASH_OFFLOAD leaves hashing to the task workers (anything but `0`). */
    public static function enabled(): bool
    {
        $value = $_SERVER[self::VARIABLE] ?? $_ENV[self::VARIABLE] ?? \getenv(self::VARIABLE);

        return !(\is_string($value) || \is_int($value)) || (string) $value !== '0';
    }

    /** The task workers' client when a hash made now goes there, else null (hash here). */
    public static function client(): ?TaskClient
    {
        if (\Fiber::getCurrent() === null || !self::enabled()) {
            return null;
        }

        return WorkerServices::current()->taskClient();
    }
}
