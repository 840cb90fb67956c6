<?php

declare(strict_types=1);

namespace Spindle\Http;

/**
 * What RequestRunner needs of the connection (or HTTP/2 stream) a request came on: to write its
 * response and let it go (the request's task is RequestRunner's, the same for every protocol), to
 * answer it when it outlives the request timeout, to answer it when its task is gone (it ended the
 * process), and to send interim (1xx) responses ahead of its final one (Exchange).
 */
interface RequestOwner
{
    /**
     * @internal RequestRunner's task: writes $run's response (the handler's, or the one that
     * stands for its error), unless the request timeout answered it or the connection closed.
     */
    public function respond(RunningRequest $run, Response $response): void;

    /** What the owner's server shares between its connections (the WebSocket tally, say). */
    public function services(): ConnectionServices;

    /**
     * @internal RequestRunner's task, last: $run has ended (its response written or dropped, its
     * after-response work done): what it held goes (temporary files, body memory), and its
     * connection goes on (the next request, a hand-over, closing).
     */
    public function finish(RunningRequest $run): void;

    /**
     * $run outlived the request timeout: answer 504 if its response has not begun (returns
     * false), otherwise cut it off (returns true). Its task is cancelled next.
     */
    public function timeOut(RunningRequest $run): bool;

    /**
     * $run's task is gone (it ended the process): write $response unless its response had begun
     * or the timeout answered it, and end it. Returns whether $response was written.
     */
    public function abandon(RunningRequest $run, Response $response): bool;

    /**
     * Sends an interim response (1xx but 101) for $run ahead of its final one. Returns false when
     * the protocol or the client cannot take one (an HTTP/1.0 client, a response begun already).
     *
     * @param array<string, string|list<string>> $headers
     */
    public function sendInformational(RunningRequest $run, int $status, array $headers): bool;
}
