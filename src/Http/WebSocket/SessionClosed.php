<?php

declare(strict_types=1);

namespace Spindle\Http\WebSocket;

/** A message or ping was to be sent on a session that already sent its close frame. */
final class SessionClosed extends WebSocketException
{
}
