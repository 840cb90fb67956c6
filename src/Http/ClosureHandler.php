<?php

declare(strict_types=1);

namespace Spindle\Http;

/** A RequestHandler made of a closure: for handlers built at run time, and for tests. */
final class ClosureHandler implements RequestHandler
{
    /** @param \Closure(Request): Response $handler */
    public function __construct(private readonly \Closure $handler)
    {
    }

    public function handle(Request $request): Response
    {
        return ($this->handler)($request);
    }
}
