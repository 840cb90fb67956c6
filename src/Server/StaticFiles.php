<?php

declare(strict_types=1);

namespace Spindle\Server;

use Spindle\Http\Middleware;
use Spindle\Http\Request;
use Spindle\Http\RequestHandler;
use Spindle\Http\Response;
use Spindle\Http\StaticFiles\StaticFileHandler;

/** `--static-dir`: a GET or HEAD for a file under the root is answered with it; anything else goes on to the app. */
final class StaticFiles implements Middleware
{
    public function __construct(private readonly StaticFileHandler $files)
    {
    }

    public function process(Request $request, RequestHandler $next): Response
    {
        return $this->files->handle($request) ?? $next->handle($request);
    }
}
