<?php

declare(strict_types=1);

namespace Spindle\Database\Mysql\Protocol;

use Spindle\Database\Mysql\MysqlException;

/** Client-side error codes and the exceptions Spindle raises for them (numbered as libmysqlclient does). */
final class Errors
{
    public const CONNECTION_ERROR = 2002;
    public const CONN_HOST_ERROR = 2003;
    public const CANT_READ_CHARSET = 2019;
    public const SERVER_GONE = 2006;
    public const SERVER_LOST = 2013;
    public const MALFORMED_PACKET = 2027;
    public const PARAMS_NOT_BOUND = 2031;
    public const UNSUPPORTED_PARAM_TYPE = 2036;
    public const AUTH_PLUGIN_CANNOT_LOAD = 2059;
    public const SSL_CONNECTION_ERROR = 2026;
    public const LOAD_DATA_LOCAL_INFILE_REJECTED = 2068;
    /** a LOCAL INFILE that could not be read (mysqlnd's number; libmysqlclient has none) */
    public const LOCAL_INFILE_NOT_FOUND = 7890;
    public const COMMANDS_OUT_OF_SYNC = 2014;
    public const VERSION_ERROR = 2007;
    public const SERVER_HANDSHAKE_ERR = 2012;

    private function __construct()
    {
    }

    public static function malformed(string $detail): MysqlException
    {
        return new MysqlException('Malformed packet: ' . $detail, self::MALFORMED_PACKET);
    }
}
