<?php

declare(strict_types=1);

namespace Spindle\Server;

use Spindle\Http\HttpException;
use Spindle\Http\Request;
use Spindle\Http\Response;

/**
 * The application a worker serves, booted once (see ApplicationFactory) and called for every
 * request, each in its own fiber: handle() may wait (on MySQL, Redis, HTTP, a timer) while other
 * requests run.
 */
interface Application
{
    /**
     * @throws HttpException to refuse a request as malformed: its status, no error log
     * @throws \Throwable anything else becomes a 500 and an error log line
     */
    public function handle(Request $request): Response;
}
