<?php

declare(strict_types=1);

namespace Spindle\Http;

use Spindle\Loop\Context;

/**
 * @internal One request of a connection, from the moment it was read whole: queued behind the
 * requests before it, then run (its task and its Context), answered and finished by its
 * Connection. RequestRunner keeps it among the requests under way while it runs.
 */
final class RunningRequest
{
    /** Its task's context (its label is "METHOD /path", for log lines). */
    public readonly Context $context;
    /** When it began to run (RequestRunner::start(); the request timeout counts from here). */
    public float $startedAt = 0.0;
    /** The request timeout answered (or cut) it and cancelled it: what it returns is dropped. */
    public bool $timedOut = false;
    /** The handler returned (or failed): its concurrency slot is given back, its response handed over. */
    public bool $handled = false;

    /**
     * @param list<string> $tempFiles the temporary files of its uploads and body, removed once it is done
     * @param bool $keepAlive whether the client asked to keep the connection (from the version and
     *                        the Connection header)
     */
    public function __construct(
        public readonly Request $request,
        public readonly Connection $connection,
        public readonly array $tempFiles,
        public readonly bool $keepAlive,
    ) {
        $this->context = new Context($request->method . ' ' . $request->path);
    }
}
