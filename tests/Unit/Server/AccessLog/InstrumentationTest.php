<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Server\AccessLog;

use PHPUnit\Framework\TestCase;
use Psr\Log\NullLogger;
use Spindle\Http\ErrorResponses;
use Spindle\Http\HttpException;
use Spindle\Http\Middleware;
use Spindle\Http\MiddlewareStack;
use Spindle\Http\Request;
use Spindle\Http\RequestHandler;
use Spindle\Http\Response;
use Spindle\Metrics\Registry;
use Spindle\Server\AccessLog\AccessLogFormat;
use Spindle\Server\AccessLog\AccessLogWriter;
use Spindle\Server\AccessLog\LineFormatter;
use Spindle\Server\AccessLog\RequestIds;
use Spindle\Http\ClosureHandler;
use Spindle\Server\HealthEndpoints;
use Spindle\Server\LoggedUpgrade;
use Spindle\Http\UpgradeHandler;
use Spindle\Http\UpgradedSocket;
use Spindle\Http\ConnectionDriver;
use Spindle\Server\Instrumentation;
use Spindle\Server\RequestPath;
use Spindle\Server\TrustedProxies;

final class InstrumentationTest extends TestCase
{
    private string $file = '';

    protected function setUp(): void
    {
        $this->file = (string) \tempnam(\sys_get_temp_dir(), 'spindle-access-');
    }

    protected function tearDown(): void
    {
        @\unlink($this->file);
        @\unlink($this->file . '.1');
    }

    /** @param array<string, list<string>> $headers */
    private static function request(string $method = 'GET', string $target = '/a?b=1', array $headers = [], string $peer = '127.0.0.1'): Request
    {
        [$path, $query] = \explode('?', $target, 2) + [1 => ''];

        return new Request($method, $target, $path, $query, '1.1', $headers + ['host' => ['x']], '', [], [], $peer, 40000, '127.0.0.1', 8080);
    }

    /** @return list<array<string, mixed>> */
    private function jsonLines(AccessLogWriter $writer): array
    {
        $writer->flush();
        $lines = [];
        foreach (\file($this->file, \FILE_IGNORE_NEW_LINES) ?: [] as $line) {
            $decoded = \json_decode($line, true, 8, \JSON_THROW_ON_ERROR);
            self::assertIsArray($decoded);
            $lines[] = $decoded;
        }

        return $lines;
    }

    public function testNothingIsPutAroundTheHandlerWhenNothingIsOn(): void
    {
        $handler = new ClosureHandler(static fn (Request $r): Response => new Response(200, [], 'x'));
        self::assertNull(Instrumentation::of(null, null, null));
        self::assertNull(HealthEndpoints::of(null, null, static fn (): bool => false));
        self::assertSame($handler, RequestPath::build($handler, null, new ErrorResponses(new NullLogger()), null, null, null), 'a worker with nothing turned on calls its app directly');
    }

    public function testAJsonLinePerRequestWithTheRequestIdPassedOnAndReturned(): void
    {
        $writer = new AccessLogWriter($this->file);
        $seen = [];
        $handler = self::behind(new Instrumentation($writer, new LineFormatter(AccessLogFormat::Json, 4242), null), new ClosureHandler(
            static function (Request $r) use (&$seen): Response {
                $seen[] = $r->header('x-request-id');

                return new Response(201, ['Content-Type' => 'text/plain'], 'hello');
            },
        ));
        // RequestIds stands before the access log in a worker (RequestPath).
        $handler = MiddlewareStack::of($handler, new RequestIds());
        $returned = [];
        $returned[] = $handler->handle(self::request(headers: ['user-agent' => ['curl/8 "q"'], 'x-request-id' => ['given-id-1']]))->headers['X-Request-Id'] ?? null;
        $returned[] = $handler->handle(self::request('POST', '/p', []))->headers['X-Request-Id'] ?? null;
        $returned[] = $handler->handle(self::request('POST', '/p', ['x-request-id' => ["bad id\x01"]]))->headers['X-Request-Id'] ?? null;
        self::assertCount(3, $seen);
        self::assertSame($seen, $returned, 'each response carries the id its request had');
        [$first, $second, $third] = $seen;
        self::assertSame('given-id-1', $first, 'the app sees the id');
        self::assertIsString($second);
        self::assertMatchesRegularExpression('/^[0-9a-f]{12}-\d+$/', $second);
        self::assertIsString($third);
        self::assertMatchesRegularExpression('/^[0-9a-f]{12}-\d+$/', $third, 'an unusable id is replaced');
        self::assertNotSame($second, $third);

        $lines = $this->jsonLines($writer);
        self::assertCount(3, $lines);
        foreach (['time', 'method', 'path', 'status', 'bytes', 'duration_us', 'pid', 'remote_addr', 'user_agent', 'request_id'] as $key) {
            self::assertArrayHasKey($key, $lines[0]);
        }
        self::assertSame(['GET', '/a', 'b=1', 201, 5, 4242, '127.0.0.1', 'curl/8 "q"', 'given-id-1'], [
            $lines[0]['method'], $lines[0]['path'], $lines[0]['query'], $lines[0]['status'], $lines[0]['bytes'],
            $lines[0]['pid'], $lines[0]['remote_addr'], $lines[0]['user_agent'], $lines[0]['request_id'],
        ]);
        self::assertIsInt($lines[0]['duration_us']);
        self::assertMatchesRegularExpression('/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/', (string) $lines[0]['time']);
        self::assertSame($second, $lines[1]['request_id']);
    }

    public function testAnUpgradeAndTrailersGoThroughTheRequestIdAndTheAccessLog(): void
    {
        $writer = new AccessLogWriter($this->file);
        $upgrade = new class implements UpgradeHandler {
            public function takeOver(UpgradedSocket $socket): ConnectionDriver
            {
                throw new \LogicException('not in this test');
            }
        };
        $responses = [
            '/ws' => Response::upgrade(['Upgrade' => 'websocket', 'Connection' => 'Upgrade'], $upgrade),
            '/stream' => new Response(200, [], (static fn () => yield 'a')(), '', null, ['Checksum' => 'abc']),
        ];
        $handler = MiddlewareStack::of(self::behind(new Instrumentation($writer, new LineFormatter(AccessLogFormat::Json, 1), new Registry()), new ClosureHandler(
            static fn (Request $r): Response => $responses[$r->path],
        )), new RequestIds());

        $switched = $handler->handle(self::request(target: '/ws'));
        self::assertSame(101, $switched->status);
        self::assertInstanceOf(LoggedUpgrade::class, $switched->upgrade, 'the upgrade survives, its log line waits for the close');
        self::assertSame(['Upgrade' => 'websocket', 'Connection' => 'Upgrade'], \array_diff_key($switched->headers, ['X-Request-Id' => 0]));
        $streamed = $handler->handle(self::request(target: '/stream'));
        self::assertSame(['Checksum' => 'abc'], $streamed->trailers);
        self::assertSame(['a'], \iterator_to_array($streamed->body instanceof \Traversable ? $streamed->body : [], false));
        self::assertSame(['/stream'], \array_column($this->jsonLines($writer), 'path'), 'the upgrade has no line yet');
    }

    public function testCombinedFormatLikeNginxWithTheExtras(): void
    {
        $writer = new AccessLogWriter($this->file);
        $handler = self::behind(new Instrumentation($writer, new LineFormatter(AccessLogFormat::Combined, 7), null, TrustedProxies::fromList('127.0.0.1')), new ClosureHandler(
            static fn (Request $r): Response => new Response(404, [], 'nope'),
        ));
        $handler->handle(self::request(target: "/x\"y?z=1", headers: ['user-agent' => ["bad\x01agent"], 'referer' => ['http://r/'], 'x-forwarded-for' => ['203.0.113.9'], 'x-request-id' => ['rid']]));
        $writer->flush();
        $line = (string) \file_get_contents($this->file);
        self::assertMatchesRegularExpression(
            '#^203\.0\.113\.9 - - \[\d\d/\w{3}/\d{4}:\d\d:\d\d:\d\d \+0000\] "GET /x\\\\x22y\?z=1 HTTP/1\.1" 404 4 "http://r/" "bad\\\\x01agent" "rid" \d+ 7\n$#',
            $line,
        );
    }

    public function testStreamedBodiesAreLoggedWhenTheyEndAndFailuresWithTheirStatus(): void
    {
        $writer = new AccessLogWriter($this->file);
        $metrics = new Registry();
        $handler = self::behind(new Instrumentation($writer, new LineFormatter(AccessLogFormat::Json), $metrics), new ClosureHandler(
            static function (Request $r): Response {
                return match ($r->path) {
                    '/stream' => new Response(200, [], (static function () {
                        yield 'ab';
                        yield 'cde';
                    })()),
                    '/refused' => throw new HttpException(422, 'no'),
                    '/head' => new Response(200, [], 'body'),
                    default => throw new \RuntimeException('boom'),
                };
            },
        ));
        $response = $handler->handle(self::request(target: '/stream'));
        self::assertSame([], $this->jsonLines($writer), 'not before the stream ran');
        self::assertIsIterable($response->body);
        self::assertSame('abcde', \implode('', \iterator_to_array($response->body, false)));
        foreach (['/refused', '/boom'] as $path) {
            try {
                $handler->handle(self::request(target: $path));
                self::fail('the exception goes on to the connection');
            } catch (\Throwable) {
            }
        }
        $handler->handle(self::request('HEAD', '/head'));
        $lines = $this->jsonLines($writer);
        self::assertSame([['/stream', 200, 5], ['/refused', 422, 0], ['/boom', 500, 0], ['/head', 200, 0]], \array_map(
            static fn (array $l): array => [$l['path'], $l['status'], $l['bytes']],
            $lines,
        ));
        $families = [];
        foreach ($metrics->collect() as $family) {
            $families[$family->name] = $family->samples;
        }
        self::assertSame(["GET\x1f2xx" => 1.0, "GET\x1f4xx" => 1.0, "GET\x1f5xx" => 1.0, "HEAD\x1f2xx" => 1.0], $families['spindle_http_requests_total']);
        $durations = $families['spindle_http_request_duration_seconds'][''];
        self::assertIsArray($durations);
        self::assertSame(4.0, $durations[2]);
    }

    public function testMetricsAloneCountEveryWayARequestEnds(): void
    {
        $metrics = new Registry();
        $handler = self::behind(new Instrumentation(null, null, $metrics), new ClosureHandler(
            static function (Request $r): Response {
                return match ($r->path) {
                    '/stream' => new Response(200, [], (static function () {
                        yield 'ab';
                    })()),
                    '/refused' => throw new HttpException(404, 'no'),
                    default => new Response(302, [], ''),
                };
            },
        ));
        $stream = $handler->handle(self::request(target: '/stream'))->body;
        self::assertIsIterable($stream);
        self::assertSame(['ab'], \iterator_to_array($stream, false));
        try {
            $handler->handle(self::request('DELETE', '/refused'));
        } catch (HttpException) {
        }
        $handler->handle(self::request('BREW', '/x'));
        $families = [];
        foreach ($metrics->collect() as $family) {
            $families[$family->name] = $family->samples;
        }
        self::assertSame(["GET\x1f2xx" => 1.0, "DELETE\x1f4xx" => 1.0, "other\x1f3xx" => 1.0], $families['spindle_http_requests_total']);
    }

    public function testReopenWritesToTheNewFileAfterARotation(): void
    {
        $writer = new AccessLogWriter($this->file);
        $handler = self::behind(new Instrumentation($writer, new LineFormatter(AccessLogFormat::Json), null), new ClosureHandler(static fn (Request $r): Response => new Response(200, [], 'x')));
        $handler->handle(self::request(target: '/before'));
        \rename($this->file, $this->file . '.1');
        $writer->reopen();
        $handler->handle(self::request(target: '/after'));
        $writer->close();
        self::assertStringContainsString('"/before"', (string) \file_get_contents($this->file . '.1'));
        self::assertStringNotContainsString('"/after"', (string) \file_get_contents($this->file . '.1'));
        self::assertStringContainsString('"/after"', (string) \file_get_contents($this->file));
    }

    public function testHealthPathsAreAnsweredWithoutTheApp(): void
    {
        $draining = false;
        $handler = self::behind(new HealthEndpoints('/healthz', '/readyz', static function () use (&$draining): bool {
            return $draining;
        }), new ClosureHandler(static fn (Request $r): Response => new Response(299, [], 'app')));
        self::assertSame(200, $handler->handle(self::request(target: '/healthz'))->status);
        self::assertSame(200, $handler->handle(self::request(target: '/readyz'))->status);
        self::assertSame(299, $handler->handle(self::request(target: '/readyz/x'))->status);
        $draining = true;
        self::assertSame(503, $handler->handle(self::request(target: '/readyz'))->status);
        self::assertSame(200, $handler->handle(self::request(target: '/healthz'))->status);
    }

    private static function behind(Middleware $middleware, RequestHandler $handler): RequestHandler
    {
        return MiddlewareStack::of($handler, $middleware);
    }
}
