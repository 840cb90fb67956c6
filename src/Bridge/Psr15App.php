<?php

declare(strict_types=1);

namespace Spindle\Bridge;

use Psr\Http\Server\RequestHandlerInterface;
use Spindle\Bridge\Psr15\Psr7Bridge;
use Spindle\Http\Request;
use Spindle\Http\Response;
use Spindle\Http\RequestHandler;

/** A PSR-15 request handler as the worker's RequestHandler, through the PSR-7 bridge both ways. */
final class Psr15App implements RequestHandler
{
    public function __construct(
        private readonly RequestHandlerInterface $handler,
        private readonly Psr7Bridge $bridge,
    ) {
    }

    public function handle(Request $request): Response
    {
        return $this->bridge->fromPsr($this->handler->handle($this->bridge->toPsr($request)));
    }
}
