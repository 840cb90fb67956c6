<?php

declare(strict_types=1);

namespace Spindle\Database\Pdo;

/** PDO::ATTR_ERRMODE values. */
enum ErrorMode: int
{
    case Silent = 0;
    case Warning = 1;
    case Exception = 2;
}
