<?php

declare(strict_types=1);

namespace Spindle\Http;

/**
 * A step in front of a request handler: it may answer the request itself (a health probe, a
 * static file), pass it on to $next as it is or changed (a request id added), and change or
 * record what comes back (an access log line). MiddlewareStack chains them.
 */
interface Middleware
{
    /**
     * @throws HttpException to refuse a request as malformed: its status, no error log
     * @throws \Throwable anything else becomes a 500 and an error log line
     */
    public function process(Request $request, RequestHandler $next): Response;
}
