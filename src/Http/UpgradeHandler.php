<?php

declare(strict_types=1);

namespace Spindle\Http;

/**
 * Takes over a connection whose request was answered "101 Switching Protocols" (Response::upgrade()):
 * once the 101 is written and the request has ended (its app instance given back), the HTTP/1.1
 * connection reads nothing more as HTTP and hands its socket here; the driver returned serves
 * it from then on (a WebSocket connection, say) and the server holds it in the connection's place.
 */
interface UpgradeHandler
{
    public function takeOver(UpgradedSocket $socket): ConnectionDriver;
}
