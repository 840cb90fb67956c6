<?php

declare(strict_types=1);

namespace Spindle\Database\Mysql;

/** A statement parameter to send as binary data (MYSQL_TYPE_LONG_BLOB) rather than a string in the connection charset. */
final class Blob
{
    public function __construct(public readonly string $bytes)
    {
    }
}
