<?php

declare(strict_types=1);

namespace Spindle\Server;

use Spindle\Http\Request;
use Spindle\Http\Response;

/** An Application made of a closure: for handlers built at run time, and for tests. */
final class ClosureApplication implements Application
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
