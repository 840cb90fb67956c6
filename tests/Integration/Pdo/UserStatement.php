<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\Pdo;

/** A statement class that extends PDOStatement only (not Spindle\Database\Pdo\Statement). */
final class UserStatement extends \PDOStatement
{
    private function __construct()
    {
    }
}
