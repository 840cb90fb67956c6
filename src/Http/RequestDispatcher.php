<?php

declare(strict_types=1);

namespace Spindle\Http;

/**
 * Where a connection hands each complete request: the server's side of the request path. HTTP
 * parses, applies the connection's limits and timeouts and writes responses; what runs a request,
 * and how, is the dispatcher's (Server\RequestRunner runs each in a fiber of its own).
 */
interface RequestDispatcher
{
    /**
     * Takes one request, answered through $exchange now or later. A connection dispatches its
     * requests one at a time, in the order they arrived, the next once $exchange->finish() was called.
     */
    public function dispatch(Exchange $exchange): void;

    /**
     * Enforces the dispatcher's own deadlines (a request's time limit) that passed by $now. The
     * server calls it from the one timer that also expires the connections' timeouts
     * (TimeoutWheel), with the same clock.
     */
    public function expire(float $now): void;
}
