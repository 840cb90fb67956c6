<?php

declare(strict_types=1);

namespace Spindle\Database\Pdo;

/**
 * @internal The error state of one statement (errorCode(), errorInfo()), shared by the statement,
 * its cursor and its fetch modes, and set by Handle::raise().
 */
final class StatementStatus
{
    /** '' until the first call that resets it (errorCode() is then null) */
    public string $errorCode = '';

    public ?DriverError $driverError = null;
}
