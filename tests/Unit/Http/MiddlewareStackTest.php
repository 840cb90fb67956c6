<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Http;

use PHPUnit\Framework\TestCase;
use Spindle\Http\Middleware;
use Spindle\Http\MiddlewareStack;
use Spindle\Http\Request;
use Spindle\Http\RequestHandler;
use Spindle\Http\Response;

final class MiddlewareStackTest extends TestCase
{
    public function testTheFirstMiddlewareSeesTheRequestFirstAndTheResponseLast(): void
    {
        $log = [];
        $app = new class ($log) implements RequestHandler {
            /** @param list<string> $log */
            public function __construct(private array &$log)
            {
            }

            public function handle(Request $request): Response
            {
                $this->log[] = 'app sees ' . ($request->header('x-steps') ?? '');

                return new Response(200, [], 'app');
            }
        };
        $stack = MiddlewareStack::of($app, self::step('a', $log), self::step('b', $log));
        $response = $stack->handle(self::request());

        self::assertSame(['a in', 'b in', 'app sees a,b', 'b out', 'a out'], $log);
        self::assertSame('app+b+a', $response->body);
    }

    public function testAStepCanAnswerWithoutWhatIsBelowIt(): void
    {
        $called = false;
        $app = new class ($called) implements RequestHandler {
            public function __construct(private bool &$called)
            {
            }

            public function handle(Request $request): Response
            {
                $this->called = true;

                return new Response(200, [], 'app');
            }
        };
        $answering = new class () implements Middleware {
            public function process(Request $request, RequestHandler $next): Response
            {
                return new Response(204, [], '');
            }
        };

        self::assertSame(204, MiddlewareStack::of($app, $answering)->handle(self::request())->status);
        self::assertFalse($called);
    }

    public function testNoMiddlewareIsTheHandlerItself(): void
    {
        $app = new class () implements RequestHandler {
            public function handle(Request $request): Response
            {
                return new Response(200, [], '');
            }
        };

        self::assertSame($app, MiddlewareStack::of($app));
    }

    /** @param list<string> $log */
    private static function step(string $name, array &$log): Middleware
    {
        return new class ($name, $log) implements Middleware {
            /** @param list<string> $log */
            public function __construct(private readonly string $name, private array &$log)
            {
            }

            public function process(Request $request, RequestHandler $next): Response
            {
                $this->log[] = $this->name . ' in';
                $steps = $request->header('x-steps');
                $response = $next->handle($request->withHeader('x-steps', $steps === null ? $this->name : $steps . ',' . $this->name));
                $this->log[] = $this->name . ' out';

                return new Response($response->status, $response->headers, $response->body . '+' . $this->name);
            }
        };
    }

    private static function request(): Request
    {
        return new Request('GET', '/', '/', '', '1.1', ['host' => ['x']]);
    }
}
