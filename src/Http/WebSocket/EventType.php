<?php

declare(strict_types=1);

namespace Spindle\Http\WebSocket;

/** What a parsed Event is: a complete message, or a control frame. */
enum EventType
{
    /** A complete text message (valid UTF-8), however it was fragmented. */
    case Text;
    /** A complete binary message. */
    case Binary;
    case Ping;
    case Pong;
    /** A close frame: Event::$closeCode (1005 when the frame had no code) and the reason as payload. */
    case Close;
}
