<?php

declare(strict_types=1);

namespace Spindle\Http\Http1;

/**
 * Where a Connection is in its life, one phase at a time. Reading may pause (backpressure) and a
 * worker may drain in any open phase: those stay flags of their own.
 *
 *   Waiting ──run──► Running ──write response──► Responding ──request ends──► Waiting
 *                       │                         LastResponse ──request ends──► Closing ──flushed──► Closed
 *                       └──request timeout (504)──► Closing
 *   any phase ──close (client gone, timeout mid-response, write error)──► Closed
 */
enum ConnectionPhase
{
    /** No request running: reading one, or idle between requests (queued ones wait their turn). */
    case Waiting;
    /** A request runs (its task calls the handler) and its response has not begun. */
    case Running;
    /** The request's response has begun (its head went out, or began to); the connection is kept after it. */
    case Responding;
    /** The request's response has begun, and the connection closes once it is written. */
    case LastResponse;
    /** The last bytes are being written; the connection closes once they are. */
    case Closing;
    case Closed;
}
