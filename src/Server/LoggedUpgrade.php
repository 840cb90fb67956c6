<?php

declare(strict_types=1);

namespace Spindle\Server;

use Spindle\Http\ConnectionDriver;
use Spindle\Http\ConnectionEvents;
use Spindle\Http\Request;
use Spindle\Http\UpgradedSocket;
use Spindle\Http\UpgradeHandler;
use Spindle\Http\WebSocket\WebSocketDriver;

/**
 * An upgrade (a 101) with the access log on: the connection's line is written when it closes, as
 * nginx does for a WebSocket: status 101, the bytes sent after the handshake, the time from the
 * handshake to the close, and the close code (see Instrumentation and docs/protocols.md). It
 * stands between the driver and the server to hear of the close; it keeps the request only until
 * the driver took over (a WebSocket keeps its own).
 */
final class LoggedUpgrade implements UpgradeHandler, ConnectionEvents
{
    private ?ConnectionEvents $server = null;

    public function __construct(
        private readonly UpgradeHandler $inner,
        private readonly Instrumentation $log,
        private ?Request $request,
        private readonly float $start,
        private readonly string $id,
    ) {
    }

    public function takeOver(UpgradedSocket $socket): ConnectionDriver
    {
        $this->server = $socket->events;

        return $this->inner->takeOver(new UpgradedSocket($socket->socket, $socket->readAhead, $socket->unwritten, $socket->peer, $socket->services, $this, $socket->request));
    }

    public function closed(ConnectionDriver $connection): void
    {
        $this->server?->closed($connection);
        if ($connection instanceof WebSocketDriver) {
            $this->log->logClosed($connection->socket->request, $connection->bytesSent(), $this->start, $this->id, $connection->closeCode());
        } elseif ($this->request !== null) {
            $this->log->logClosed($this->request, 0, $this->start, $this->id, null);
        }
        $this->request = null;
    }

    public function replaced(ConnectionDriver $old, ConnectionDriver $new): void
    {
        $this->server?->replaced($old, $new);
    }
}
