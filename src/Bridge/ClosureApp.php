<?php

declare(strict_types=1);

namespace Spindle\Bridge;

use Psr\Http\Message\ResponseInterface;
use Spindle\Bridge\Psr15\Psr7Bridge;
use Spindle\Http\Request;
use Spindle\Http\Response;
use Spindle\Http\RequestHandler;

/**
 * An app file's closure as the worker's RequestHandler: called with what it takes (ClosureInput),
 * and what it returns made a Response: a Spindle Response as it is, a PSR-7 response through the
 * bridge, a string as 200 text/plain.
 */
final class ClosureApp implements RequestHandler
{
    private const TEXT = ['Content-Type' => 'text/plain; charset=utf-8'];

    public function __construct(
        private readonly \Closure $app,
        private readonly ClosureInput $input,
        private readonly Psr7Bridge $bridge,
    ) {
    }

    public function handle(Request $request): Response
    {
        $result = match ($this->input) {
            ClosureInput::Nothing => ($this->app)(),
            ClosureInput::Request => ($this->app)($request),
            ClosureInput::Psr7 => ($this->app)($this->bridge->toPsr($request)),
        };
        if (\is_string($result)) {
            return new Response(200, self::TEXT, $result);
        }
        if ($result instanceof Response) {
            return $result;
        }
        if ($result instanceof ResponseInterface) {
            return $this->bridge->fromPsr($result);
        }

        throw new \UnexpectedValueException(\sprintf('The handler returned %s; expected a response or a string', \get_debug_type($result)));
    }
}
