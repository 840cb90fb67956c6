<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Server;

use PHPUnit\Framework\TestCase;
use Spindle\Http\ErrorResponses;
use Spindle\Http\Request;
use Spindle\Http\Response;
use Spindle\Http\StaticFiles\StaticFileHandler;
use Spindle\Server\AccessLog\AccessLogFormat;
use Spindle\Server\AccessLog\AccessLogWriter;
use Spindle\Server\AccessLog\LineFormatter;
use Spindle\Server\AccessLog\RequestIds;
use Spindle\Http\ClosureHandler;
use Spindle\Server\HealthEndpoints;
use Spindle\Server\Instrumentation;
use Spindle\Server\RequestPath;
use Spindle\Server\StaticFiles;

/** The worker's middleware with every step on, in the order RequestPath gives them. */
final class RequestPathTest extends TestCase
{
    private string $log = '';
    private string $root = '';

    protected function setUp(): void
    {
        $this->log = (string) \tempnam(\sys_get_temp_dir(), 'spindle-path-log-');
        $this->root = \sys_get_temp_dir() . '/spindle-path-root-' . \bin2hex(\random_bytes(4));
        \mkdir($this->root);
        \file_put_contents($this->root . '/style.css', 'body{}');
    }

    protected function tearDown(): void
    {
        @\unlink($this->log);
        @\unlink($this->root . '/style.css');
        @\rmdir($this->root);
    }

    public function testEachStepInItsPlace(): void
    {
        $logger = new MemoryLogger();
        $writer = new AccessLogWriter($this->log);
        $seen = [];
        $app = new ClosureHandler(static function (Request $request) use (&$seen): Response {
            $seen[] = $request->path . ' ' . ($request->header('x-request-id') ?? '-');

            return $request->path === '/boom' ? throw new \LogicException('the app failed') : new Response(200, [], 'app');
        });
        $path = RequestPath::build(
            $app,
            new RequestIds(),
            new ErrorResponses($logger),
            HealthEndpoints::of('/healthz', null, static fn (): bool => false),
            Instrumentation::of($writer, new LineFormatter(AccessLogFormat::Json), null),
            new StaticFiles(new StaticFileHandler($this->root)),
        );

        $health = $path->handle(self::request('/healthz'));
        $static = $path->handle(self::request('/style.css'));
        $failed = $path->handle(self::request('/boom', ['x-request-id' => ['given-1']]));
        $served = $path->handle(self::request('/page'));
        $writer->flush();
        $lines = \array_map(static fn (string $line): mixed => \json_decode($line, true), \file($this->log, \FILE_IGNORE_NEW_LINES) ?: []);

        self::assertSame([200, "ok\n"], [$health->status, $health->body], 'health probes are answered first');
        self::assertSame(200, $static->status);
        self::assertSame(500, $failed->status);
        self::assertSame('given-1', $failed->headers['X-Request-Id'] ?? null, 'the 500 that stands for a failing app carries the id');
        self::assertCount(1, $logger->messages('error'));
        self::assertMatchesRegularExpression('/^[0-9a-f]{12}-\d+$/', (string) ($served->headers['X-Request-Id'] ?? ''));
        self::assertSame(['/boom given-1', '/page ' . $served->headers['X-Request-Id']], $seen, 'static files answer before the app, which sees the id');
        self::assertSame([
            ['/style.css', 200],
            ['/boom', 500],
            ['/page', 200],
        ], \array_map(static fn (mixed $line): array => \is_array($line) ? [$line['path'] ?? null, $line['status'] ?? null] : [], $lines), 'probes are not logged; static files and failures are');
        self::assertSame('given-1', \is_array($lines[1]) ? $lines[1]['request_id'] ?? null : null);
    }

    /** @param array<string, list<string>> $headers */
    private static function request(string $path, array $headers = []): Request
    {
        return new Request('GET', $path, $path, '', '1.1', $headers + ['host' => ['x']], '', [], [], '127.0.0.1', 40000, '127.0.0.1', 8080);
    }
}
