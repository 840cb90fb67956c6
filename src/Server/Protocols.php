<?php

declare(strict_types=1);

namespace Spindle\Server;

use Spindle\Http\ConnectionDriver;
use Spindle\Http\ConnectionEvents;
use Spindle\Http\ConnectionServices;
use Spindle\Http\Http1\Http1Connection;
use Spindle\Http\Http2\Http2Connection;
use Spindle\Http\Peer;
use Spindle\Http\Tls\TlsHandshake;
use Spindle\Http\Tls\TlsSettings;

/**
 * Chooses the connection driver for each socket the server accepts: the one place a protocol is
 * picked at accept time (docs/architecture.md, "Connection drivers"):
 *
 * - on a plain listener, HTTP/1.1, whose driver hands a connection that opens with HTTP/2's
 *   preface (h2c by prior knowledge) to Http2Connection;
 * - on an HTTPS listener (--tls-cert), the TLS handshake first, then HTTP/2 when ALPN agreed on
 *   h2, HTTP/1.1 otherwise.
 *
 * A driver that switches protocols after a request (a WebSocket after a 101) is chosen by the
 * response that switches (Response::upgrade()), not here.
 */
final class Protocols
{
    public function __construct(
        private readonly ConnectionServices $services,
        private readonly ?TlsSettings $tls = null,
    ) {
    }

    /** @param resource $socket accepted, non-blocking */
    public function open(mixed $socket, Peer $peer, ConnectionEvents $events): ConnectionDriver
    {
        if ($this->tls !== null) {
            return new TlsHandshake($socket, $this->services, $events, $peer, $this->tls, fn (mixed $socket, Peer $peer, string $protocol): ConnectionDriver => $this->afterHandshake($socket, $peer, $protocol, $events));
        }

        return new Http1Connection($socket, $this->services, $events, $peer);
    }

    /**
     * @param resource $socket
     */
    private function afterHandshake(mixed $socket, Peer $peer, string $protocol, ConnectionEvents $events): ConnectionDriver
    {
        return $protocol === 'h2'
            ? new Http2Connection($socket, $this->services, $events, $peer)
            : new Http1Connection($socket, $this->services, $events, $peer);
    }
}
