<?php

declare(strict_types=1);

namespace Spindle\Database\Pdo;

/** The error state of the statement a failed PDO::query() created; PDO::errorInfo() reports it. */
final class QueryError
{
    public function __construct(
        public readonly string $sqlState,
        public readonly ?DriverError $driverError,
    ) {
    }
}
