<?php

declare(strict_types=1);

namespace Spindle\Database\Mysql\Protocol;

/** Server status flags carried by OK and EOF packets (SERVER_*). */
final class ServerStatus
{
    public const IN_TRANS = 0x0001;
    public const AUTOCOMMIT = 0x0002;
    public const MORE_RESULTS_EXISTS = 0x0008;
    public const NO_GOOD_INDEX_USED = 0x0010;
    public const NO_INDEX_USED = 0x0020;
    public const CURSOR_EXISTS = 0x0040;
    public const LAST_ROW_SENT = 0x0080;
    public const DB_DROPPED = 0x0100;
    public const NO_BACKSLASH_ESCAPES = 0x0200;
    public const METADATA_CHANGED = 0x0400;
    public const QUERY_WAS_SLOW = 0x0800;
    public const PS_OUT_PARAMS = 0x1000;
    public const IN_TRANS_READONLY = 0x2000;
    public const SESSION_STATE_CHANGED = 0x4000;

    private function __construct()
    {
    }
}
