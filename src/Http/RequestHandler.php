<?php

declare(strict_types=1);

namespace Spindle\Http;

/**
 * What answers a request: it returns the response, and whoever called it (the connection, through
 * the server's request runner) writes it. An app, a framework bridge and every step of the
 * middleware stack in front of them are request handlers.
 *
 * handle() runs in the request's own fiber and may wait (on MySQL, Redis, HTTP, a timer) while
 * other requests run.
 */
interface RequestHandler
{
    /**
     * @throws HttpException to refuse a request as malformed: its status, no error log
     * @throws \Throwable anything else becomes a 500 and an error log line
     */
    public function handle(Request $request): Response;
}
