<?php

declare(strict_types=1);

namespace Spindle\Database\Mysql\Protocol;

/** The authentication plugins Spindle speaks. */
enum AuthPlugin: string
{
    case NativePassword = 'mysql_native_password';
    case CachingSha2Password = 'caching_sha2_password';
    case ClearPassword = 'mysql_clear_password';
}
