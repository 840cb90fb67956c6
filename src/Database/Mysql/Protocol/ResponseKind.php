<?php

declare(strict_types=1);

namespace Spindle\Database\Mysql\Protocol;

/** Which response the client waits for. */
enum ResponseKind
{
    /** COM_QUERY: OK, ERR, LOCAL INFILE or text result sets. */
    case Text;
    /** COM_STMT_EXECUTE: OK, ERR, LOCAL INFILE or binary result sets. */
    case Binary;
    /** COM_STMT_PREPARE: COM_STMT_PREPARE_OK with parameter and column definitions. */
    case Prepare;
    /** COM_PING and COM_RESET_CONNECTION: OK or ERR. */
    case Ping;
}
