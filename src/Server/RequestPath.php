<?php

declare(strict_types=1);

namespace Spindle\Server;

use Spindle\Http\ErrorResponses;
use Spindle\Http\Middleware;
use Spindle\Http\MiddlewareStack;
use Spindle\Http\RequestHandler;
use Spindle\Server\AccessLog\RequestIds;

/**
 * The middleware a worker puts in front of its app, in one place: read top to bottom, each step
 * sees the request before the ones below it and the response after them. A step that is not
 * turned on is null and left out, so a worker with none of them calls its app directly.
 *
 * Around all of it, Http\RequestRunner gives the request its --concurrency slot and its
 * --request-timeout, in the task its connection started; below it, the app returns its response,
 * which goes back up the stack to the connection, which writes it.
 */
final class RequestPath
{
    private function __construct()
    {
    }

    public static function build(
        RequestHandler $app,
        ?RequestIds $requestIds,
        ErrorResponses $errors,
        ?HealthEndpoints $health,
        ?Instrumentation $instrumentation,
        ?StaticFiles $staticFiles,
    ): RequestHandler {
        $steps = [
            // 1. --access-log: X-Request-Id given to the request (the client's when usable) and
            //    returned with the response, error responses included.
            $requestIds,
            // 2. A handler that throws: its HttpException's status, or a 500 and an error log line.
            //    Only needed below a step that must see the error response (request ids): without
            //    one, Http\RequestRunner answers the same way.
            $requestIds !== null ? $errors : null,
            // 3. --health-path, --ready-path: answered here, so probes are neither logged nor counted.
            $health,
            // 4. --access-log and --metrics: one line and the request metrics per request, the
            //    client's address taken through --trusted-proxies.
            $instrumentation,
            // 5. --static-dir: a file under the root answers before the app.
            $staticFiles,
        ];

        return MiddlewareStack::of($app, ...\array_values(\array_filter($steps, static fn (?Middleware $step): bool => $step !== null)));
    }
}
