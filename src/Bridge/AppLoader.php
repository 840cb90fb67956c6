<?php

declare(strict_types=1);

namespace Spindle\Bridge;

use Psr\Http\Server\RequestHandlerInterface;
use Spindle\Bridge\Psr15\Psr7Bridge;
use Spindle\Http\Request;
use Spindle\Http\RequestHandler;
use Spindle\Server\ServerError;

/**
 * Loads an application file and turns what it returns into Spindle's request handler.
 *
 * The file returns a PSR-15 RequestHandlerInterface or a closure. A closure receives a PSR-7
 * ServerRequestInterface, or Spindle's lean Request when its first parameter is declared with
 * that type, and nothing when it declares no parameter. It may return a PSR-7 response, a Spindle Response, or a string (200 text/plain).
 */
final class AppLoader
{
    public function __construct(private readonly Psr7Bridge $bridge)
    {
    }

    public function load(string $file): RequestHandler
    {
        if (!\is_file($file)) {
            throw new ServerError(\sprintf('Application file %s does not exist', $file));
        }
        $app = (static fn (string $file): mixed => require $file)($file);

        return $this->adapt($app, $file);
    }

    public function adapt(mixed $app, string $origin): RequestHandler
    {
        if ($app instanceof RequestHandler) {
            // Spindle's own contract, as is (one that streams request bodies among them).
            return $app;
        }
        if ($app instanceof RequestHandlerInterface) {
            return new Psr15App($app, $this->bridge);
        }
        if (!$app instanceof \Closure) {
            throw new ServerError(\sprintf(
                '%s must return a Psr\Http\Server\RequestHandlerInterface, a Spindle\Http\RequestHandler or a Closure, it returned %s',
                $origin,
                \get_debug_type($app),
            ));
        }
        $parameter = (new \ReflectionFunction($app))->getParameters()[0] ?? null;
        $type = $parameter?->getType();
        $input = match (true) {
            $parameter === null => ClosureInput::Nothing,
            $type instanceof \ReflectionNamedType && $type->getName() === Request::class => ClosureInput::Request,
            default => ClosureInput::Psr7,
        };

        return new ClosureApp($app, $input, $this->bridge);
    }
}
