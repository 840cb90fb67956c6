<?php

declare(strict_types=1);

namespace Spindle\Http\WebSocket;

/** Where a WebSocketSession is in its life (RFC 6455 §4 and §7). */
enum SessionState
{
    /** Messages flow both ways. */
    case Open;
    /** This side sent a close frame and waits for the peer's. */
    case Closing;
    /** The closing handshake is done, or the connection failed or was lost: only output is left to flush. */
    case Closed;
}
