<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Bridge;

use Nyholm\Psr7\Response as PsrResponse;
use PHPUnit\Framework\TestCase;
use Psr\Http\Message\ResponseInterface;
use Psr\Http\Message\ServerRequestInterface;
use Psr\Http\Server\RequestHandlerInterface;
use Spindle\Bridge\Psr15\IteratorStream;
use Spindle\Bridge\Psr15\Psr7Bridge;
use Spindle\Http\Request;
use Spindle\Http\Response;
use Spindle\Http\UploadedFile;
use Spindle\Bridge\AppLoader;
use Spindle\Server\ServerError;

final class AppLoaderTest extends TestCase
{
    private AppLoader $loader;

    protected function setUp(): void
    {
        $this->loader = new AppLoader(Psr7Bridge::withNyholm());
    }

    private static function request(string $method = 'GET', string $target = '/a/b?x=1&y[]=2', string $body = ''): Request
    {
        $q = \strpos($target, '?');

        return new Request(
            $method,
            $target,
            $q === false ? $target : \substr($target, 0, $q),
            $q === false ? '' : \substr($target, $q + 1),
            '1.1',
            ['host' => ['example.test:8080'], 'cookie' => ['a=1; b=two%20words'], 'x-many' => ['1', '2']],
            $body,
            [],
            [],
            '10.0.0.7',
            40000,
            '127.0.0.1',
            8080,
        );
    }

    public function testAStringBecomesPlainText(): void
    {
        $response = $this->loader->adapt(static fn (): string => 'hi', 'test')->handle(self::request());
        self::assertSame(200, $response->status);
        self::assertSame('hi', $response->body);
        self::assertStringStartsWith('text/plain', (string) ($response->headers['Content-Type'] ?? ''));
    }

    public function testAPsr7ClosureSeesTheWholeRequest(): void
    {
        $seen = null;
        $handler = $this->loader->adapt(static function (ServerRequestInterface $request) use (&$seen): ResponseInterface {
            $seen = $request;

            return new PsrResponse(201, ['Set-Cookie' => ['a=1', 'b=2']], 'made');
        }, 'test');
        $response = $handler->handle(self::request());

        self::assertInstanceOf(ServerRequestInterface::class, $seen);
        self::assertSame('GET', $seen->getMethod());
        self::assertSame('example.test', $seen->getUri()->getHost());
        self::assertSame(8080, $seen->getUri()->getPort());
        self::assertSame('/a/b', $seen->getUri()->getPath());
        self::assertSame('x=1&y%5B%5D=2', $seen->getUri()->getQuery());
        self::assertSame(['x' => '1', 'y' => ['2']], $seen->getQueryParams());
        self::assertSame(['a' => '1', 'b' => 'two words'], $seen->getCookieParams());
        self::assertSame(['1', '2'], $seen->getHeader('X-Many'));
        self::assertSame('10.0.0.7', $seen->getServerParams()['REMOTE_ADDR']);
        self::assertSame('/a/b?x=1&y[]=2', $seen->getServerParams()['REQUEST_URI']);
        self::assertSame(201, $response->status);
        self::assertSame(['a=1', 'b=2'], $response->headers['Set-Cookie']);
        self::assertSame('made', $response->body);
    }

    public function testALeanClosureGetsSpindlesRequest(): void
    {
        $handler = $this->loader->adapt(static fn (Request $request): Response => new Response(200, [], $request->method . ' ' . $request->path), 'test');
        self::assertSame('POST /a/b', $handler->handle(self::request('POST'))->body);
    }

    public function testAPsr15HandlerIsServed(): void
    {
        $app = new class () implements RequestHandlerInterface {
            public function handle(ServerRequestInterface $request): ResponseInterface
            {
                return new PsrResponse(200, [], (string) $request->getBody());
            }
        };
        self::assertSame('payload', $this->loader->adapt($app, 'test')->handle(self::request('POST', '/', 'payload'))->body);
    }

    public function testIteratorStreamsStayStreams(): void
    {
        $handler = $this->loader->adapt(static fn (): ResponseInterface => new PsrResponse(200, [], new IteratorStream((static function () {
            yield 'a';
            yield 'b';
        })())), 'test');
        $body = $handler->handle(self::request())->body;
        self::assertIsIterable($body);
        self::assertSame(['a', 'b'], \iterator_to_array($body, false));
    }

    public function testUploadedFilesReachPsr7(): void
    {
        $tmp = (string) \tempnam(\sys_get_temp_dir(), 'spindle-test');
        \file_put_contents($tmp, 'file body');
        try {
            $request = new Request('POST', '/', '/', '', '1.1', ['host' => ['h']], '', ['title' => 'x'], [
                'doc' => new UploadedFile($tmp, 9, \UPLOAD_ERR_OK, 'a.txt', 'text/plain'),
                'more' => [new UploadedFile($tmp, 9, \UPLOAD_ERR_OK, 'b.txt', null)],
            ]);
            $seen = null;
            $this->loader->adapt(static function (ServerRequestInterface $r) use (&$seen): string {
                $seen = $r;

                return '';
            }, 'test')->handle($request);
            self::assertInstanceOf(ServerRequestInterface::class, $seen);
            $files = $seen->getUploadedFiles();
            self::assertSame('a.txt', $files['doc']->getClientFilename());
            self::assertSame('file body', (string) $files['doc']->getStream());
            self::assertSame('b.txt', $files['more'][0]->getClientFilename());
            self::assertSame(['title' => 'x'], $seen->getParsedBody());
        } finally {
            @\unlink($tmp);
        }
    }

    public function testWrongReturnValuesAreClearErrors(): void
    {
        try {
            $this->loader->adapt(42, 'app.php');
            self::fail('an int is not an app');
        } catch (ServerError $e) {
            self::assertStringContainsString('app.php must return', $e->getMessage());
        }
        $this->expectException(\UnexpectedValueException::class);
        $this->loader->adapt(static fn (): int => 5, 'test')->handle(self::request());
    }

    public function testMissingFile(): void
    {
        $this->expectException(ServerError::class);
        $this->loader->load('/nonexistent/app.php');
    }

    public function testAnInvalidHostIsABadRequestNotAServerError(): void
    {
        $request = new Request('GET', '/', '/', '', '1.1', ['host' => ['a:99999']]);
        try {
            $this->loader->adapt(static fn (ServerRequestInterface $r): string => 'unreachable', 'test')->handle($request);
            self::fail('an invalid Host must be refused');
        } catch (\Spindle\Http\HttpException $e) {
            self::assertSame(400, $e->status);
        }
    }

    public function testAsteriskFormKeepsItsRequestTarget(): void
    {
        $seen = null;
        $this->loader->adapt(static function (ServerRequestInterface $r) use (&$seen): string {
            $seen = $r->getRequestTarget();

            return '';
        }, 'test')->handle(new Request('OPTIONS', '*', '*', '', '1.1', ['host' => ['h'], '123' => ['numeric name']]));
        self::assertSame('*', $seen);
    }
}
