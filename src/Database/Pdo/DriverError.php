<?php

declare(strict_types=1);

namespace Spindle\Database\Pdo;

/**
 * The last error the MySQL side reported for a handle or a statement: the error number and its
 * text (what errorInfo() shows as elements 1 and 2). pdo_mysql keeps it until the next driver
 * error, even across later successful calls, and so do we.
 */
final class DriverError
{
    public function __construct(
        /** null: an error the driver raised itself, without a server error number (pdo_pgsql's errcode 0) */
        public readonly ?int $code,
        public readonly string $message,
    ) {
    }
}
