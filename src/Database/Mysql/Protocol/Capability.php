<?php

declare(strict_types=1);

namespace Spindle\Database\Mysql\Protocol;

/** Capability flags of the handshake (CLIENT_*). */
final class Capability
{
    public const LONG_PASSWORD = 0x00000001;
    public const FOUND_ROWS = 0x00000002;
    public const LONG_FLAG = 0x00000004;
    public const CONNECT_WITH_DB = 0x00000008;
    public const NO_SCHEMA = 0x00000010;
    public const COMPRESS = 0x00000020;
    public const ODBC = 0x00000040;
    public const LOCAL_FILES = 0x00000080;
    public const IGNORE_SPACE = 0x00000100;
    public const PROTOCOL_41 = 0x00000200;
    public const INTERACTIVE = 0x00000400;
    public const SSL = 0x00000800;
    public const IGNORE_SIGPIPE = 0x00001000;
    public const TRANSACTIONS = 0x00002000;
    public const RESERVED = 0x00004000;
    public const SECURE_CONNECTION = 0x00008000;
    public const MULTI_STATEMENTS = 0x00010000;
    public const MULTI_RESULTS = 0x00020000;
    public const PS_MULTI_RESULTS = 0x00040000;
    public const PLUGIN_AUTH = 0x00080000;
    public const CONNECT_ATTRS = 0x00100000;
    public const PLUGIN_AUTH_LENENC_CLIENT_DATA = 0x00200000;
    public const CAN_HANDLE_EXPIRED_PASSWORDS = 0x00400000;
    public const SESSION_TRACK = 0x00800000;
    public const DEPRECATE_EOF = 0x01000000;

    private function __construct()
    {
    }
}
