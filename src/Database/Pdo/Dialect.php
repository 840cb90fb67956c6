<?php

declare(strict_types=1);

namespace Spindle\Database\Pdo;

/** Which server a Spindle\Database\Pdo talks to, for the few rules that differ (quoting, attributes, placeholders). */
enum Dialect: string
{
    case Mysql = 'mysql';
    case Pgsql = 'pgsql';
}
