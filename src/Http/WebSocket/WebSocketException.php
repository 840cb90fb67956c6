<?php

declare(strict_types=1);

namespace Spindle\Http\WebSocket;

/** The root of the WebSocket codec's runtime failures. */
class WebSocketException extends \RuntimeException
{
}
