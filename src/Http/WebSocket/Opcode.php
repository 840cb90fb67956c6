<?php

declare(strict_types=1);

namespace Spindle\Http\WebSocket;

/** The frame opcodes RFC 6455 defines (§5.2); the others (3–7, 11–15) are reserved. */
enum Opcode: int
{
    case Continuation = 0x0;
    case Text = 0x1;
    case Binary = 0x2;
    case Close = 0x8;
    case Ping = 0x9;
    case Pong = 0xA;
}
