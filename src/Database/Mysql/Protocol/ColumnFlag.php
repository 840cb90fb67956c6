<?php

declare(strict_types=1);

namespace Spindle\Database\Mysql\Protocol;

/** Column definition flags (*_FLAG). */
final class ColumnFlag
{
    public const NOT_NULL = 1;
    public const PRI_KEY = 2;
    public const UNIQUE_KEY = 4;
    public const MULTIPLE_KEY = 8;
    public const BLOB = 16;
    public const UNSIGNED = 32;
    public const ZEROFILL = 64;
    public const BINARY = 128;
    public const ENUM = 256;
    public const AUTO_INCREMENT = 512;
    public const TIMESTAMP = 1024;
    public const SET = 2048;

    private function __construct()
    {
    }
}
