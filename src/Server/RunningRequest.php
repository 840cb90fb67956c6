<?php

declare(strict_types=1);

namespace Spindle\Server;

use Spindle\Http\Exchange;
use Spindle\Http\Request;
use Spindle\Loop\Context;
use Spindle\Server\AccessLog\RequestIds;

/** @internal One request RequestRunner runs: its exchange, its task, when it began. */
final class RunningRequest
{
    /** The request timeout answered (or cut) it and cancelled it: what it returns is dropped. */
    public bool $timedOut = false;
    /** The application returned (or failed): its concurrency slot is given back, its response handed over. */
    public bool $handled = false;

    public function __construct(
        public readonly Exchange $exchange,
        public readonly Context $context,
        public readonly float $startedAt,
    ) {
    }

    /** Its request with the X-Request-Id RequestIds gave it, if any (for the access log of a request that ended the process). */
    public function request(): Request
    {
        $request = $this->exchange->request;
        $id = $this->context->get(RequestIds::CONTEXT_KEY);

        return \is_string($id) && ($request->headers['x-request-id'][0] ?? null) !== $id ? $request->withHeader('x-request-id', $id) : $request;
    }
}
