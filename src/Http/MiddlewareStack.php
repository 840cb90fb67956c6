<?php

declare(strict_types=1);

namespace Spindle\Http;

/**
 * Middleware chained in front of a handler, in the order given: the first sees the request first
 * and the response last. With no middleware, the handler itself is returned, so a path with
 * nothing in front of the app costs nothing.
 */
final class MiddlewareStack implements RequestHandler
{
    private function __construct(
        private readonly Middleware $middleware,
        private readonly RequestHandler $next,
    ) {
    }

    /** $handler behind $middleware, the first of them outermost. */
    public static function of(RequestHandler $handler, Middleware ...$middleware): RequestHandler
    {
        for ($i = \count($middleware) - 1; $i >= 0; --$i) {
            $handler = new self($middleware[$i], $handler);
        }

        return $handler;
    }

    public function handle(Request $request): Response
    {
        return $this->middleware->process($request, $this->next);
    }
}
