<?php

declare(strict_types=1);

namespace Spindle\Server;

use Spindle\Http\ConnectionDriver;
use Spindle\Http\ConnectionEvents;
use Spindle\Http\ConnectionServices;
use Spindle\Http\Http1\Http1Connection;
use Spindle\Http\Peer;

/**
 * Chooses the connection driver for each socket the server accepts: the one place a protocol is
 * picked (docs/architecture.md, "Connection drivers"). Today every connection starts as HTTP/1.1;
 * a driver that switches protocols later (a WebSocket after a 101) is chosen by the response
 * that switches (Response::upgrade()), not here.
 */
final class Protocols
{
    public function __construct(private readonly ConnectionServices $services)
    {
    }

    /** @param resource $socket accepted, non-blocking */
    public function open(mixed $socket, Peer $peer, ConnectionEvents $events): ConnectionDriver
    {
        return new Http1Connection($socket, $this->services, $events, $peer);
    }
}
