<?php

declare(strict_types=1);

namespace Spindle\Http\WebSocket;

/** A server's answer to the opening handshake is not a valid 101 for the request sent. */
final class HandshakeException extends WebSocketException
{
}
