<?php

declare(strict_types=1);

namespace Spindle\Database\Mysql\Protocol;

/** The command byte that starts every client request (COM_*). */
enum Command: int
{
    case Quit = 0x01;
    case InitDb = 0x02;
    case Query = 0x03;
    case Ping = 0x0E;
    case StmtPrepare = 0x16;
    case StmtExecute = 0x17;
    case StmtSendLongData = 0x18;
    case StmtClose = 0x19;
    case StmtReset = 0x1A;
    case ResetConnection = 0x1F;
}
