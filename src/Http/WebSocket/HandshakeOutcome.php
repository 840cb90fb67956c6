<?php

declare(strict_types=1);

namespace Spindle\Http\WebSocket;

enum HandshakeOutcome
{
    /** The request asks for no WebSocket (no `Upgrade: websocket`): serve it as plain HTTP. */
    case NotWebSocket;
    /** A WebSocket request that cannot be accepted: answer HandshakeResult::$status with its headers. */
    case Rejected;
    /** Answer 101 with HandshakeResult::$headers and hand the connection to a WebSocketSession. */
    case Accepted;
}
