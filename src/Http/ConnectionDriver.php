<?php

declare(strict_types=1);

namespace Spindle\Http;

/**
 * One accepted connection, as the server that accepted it sees it, whatever protocol it speaks
 * (HTTP/1.1, HTTP/2, a WebSocket after an upgrade): the server only counts, drains and closes
 * its connections, and at its connection cap closes the one that has waited longest for a
 * request. The driver reads and writes its socket itself, from the event loop.
 *
 * A driver is made by the server's Protocols for each accepted socket, and a driver may hand its
 * socket on to another (an HTTP/1.1 connection after a 101, see Upgrade): it then tells the
 * server through ConnectionEvents::replaced().
 */
interface ConnectionDriver
{
    /** Stop taking requests (or messages): close once what is in progress is done. */
    public function drain(): void;

    /** Close now, whatever is in progress. */
    public function close(): void;

    public function isClosed(): bool;

    /**
     * Since when the connection has waited without a request in progress, by the worker's clock
     * (null: something is in progress, or the connection must not be closed to make room for
     * another: an upgraded connection the app holds open, say).
     */
    public function waitingSince(): ?float;
}
