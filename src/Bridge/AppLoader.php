<?php

declare(strict_types=1);

namespace Spindle\Bridge;

use Psr\Http\Message\ResponseInterface;
use Psr\Http\Server\RequestHandlerInterface;
use Spindle\Bridge\Psr15\Psr7Bridge;
use Spindle\Http\Request;
use Spindle\Http\Response;
use Spindle\Server\Application;
use Spindle\Server\ClosureApplication;
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
    private const TEXT = ['Content-Type' => 'text/plain; charset=utf-8'];

    public function __construct(private readonly Psr7Bridge $bridge)
    {
    }

    public function load(string $file): Application
    {
        if (!\is_file($file)) {
            throw new ServerError(\sprintf('Application file %s does not exist', $file));
        }
        $app = (static fn (string $file): mixed => require $file)($file);

        return $this->adapt($app, $file);
    }

    public function adapt(mixed $app, string $origin): Application
    {
        return new ClosureApplication($this->handler($app, $origin));
    }

    /** @return \Closure(Request): Response */
    private function handler(mixed $app, string $origin): \Closure
    {
        $bridge = $this->bridge;
        if ($app instanceof RequestHandlerInterface) {
            return static fn (Request $request): Response => $bridge->fromPsr($app->handle($bridge->toPsr($request)));
        }
        if (!$app instanceof \Closure) {
            throw new ServerError(\sprintf(
                '%s must return a Psr\Http\Server\RequestHandlerInterface or a Closure, it returned %s',
                $origin,
                \get_debug_type($app),
            ));
        }
        $convert = static function (mixed $result) use ($bridge): Response {
            if ($result instanceof Response) {
                return $result;
            }
            if ($result instanceof ResponseInterface) {
                return $bridge->fromPsr($result);
            }
            if (\is_string($result)) {
                return new Response(200, self::TEXT, $result);
            }
            throw new \UnexpectedValueException(\sprintf('The handler returned %s; expected a response or a string', \get_debug_type($result)));
        };
        // The closures below answer their most likely result themselves and call $convert for the
        // rest: one closure call less on every request (the hot path of examples/hello.php).
        $parameter = (new \ReflectionFunction($app))->getParameters()[0] ?? null;
        if ($parameter === null) {
            // A closure that takes no request gets none: nothing to convert.
            return static function (Request $request) use ($app, $convert): Response {
                $result = $app();

                return \is_string($result) ? new Response(200, self::TEXT, $result) : $convert($result);
            };
        }
        $type = $parameter->getType();
        if ($type instanceof \ReflectionNamedType && $type->getName() === Request::class) {
            return static function (Request $request) use ($app, $convert): Response {
                $result = $app($request);

                return $result instanceof Response ? $result : $convert($result);
            };
        }

        return static fn (Request $request): Response => $convert($app($bridge->toPsr($request)));
    }
}
