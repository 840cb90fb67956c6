<?php

declare(strict_types=1);

namespace Spindle\Server;

use Spindle\Http\RequestHandler;

/**
 * The application a worker serves, booted once (see ApplicationFactory) and called for every
 * request, each in its own fiber: handle() may wait (on MySQL, Redis, HTTP, a timer) while other
 * requests run. It returns its response; the worker's middleware (RequestPath) stands in front.
 */
interface Application extends RequestHandler
{
}
