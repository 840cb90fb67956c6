<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\HttpClient;

use PHPUnit\Framework\TestCase;
use Revolt\EventLoop;
use Spindle\HttpClient\Stream\HttpStreamWrapper;
use Spindle\HttpClient\Stream\StreamWrappers;

/**
 * file_get_contents(), fopen()/fread() and copy() on URLs with Spindle's wrapper and with PHP's:
 * same results and headers (PHP's $http_response_header against the wrapper's
 * $responseHeaders), a failure where PHP fails. The known differences are asserted as such.
 */
final class StreamWrapperDifferentialTest extends TestCase
{
    private static ?FakeServer $server = null;

    public static function setUpBeforeClass(): void
    {
        self::$server = FakeServer::start();
    }

    public static function tearDownAfterClass(): void
    {
        StreamWrappers::uninstall();
        self::$server?->stop();
        self::$server = null;
    }

    protected function tearDown(): void
    {
        StreamWrappers::uninstall();
    }

    private static function url(string $path): string
    {
        return self::$server?->url($path) ?? '';
    }

    /** @return iterable<string, array{string, array<string, mixed>}> */
    public static function requests(): iterable
    {
        yield 'GET' => ['/hello', []];
        yield 'chunked' => ['/chunked', []];
        yield 'until close' => ['/close', []];
        yield 'redirects' => ['/redirect?n=3', []];
        yield 'redirects off' => ['/redirect', ['follow_location' => 0]];
        yield 'redirect limit' => ['/redirect?n=5', ['max_redirects' => 3]];
        yield '404' => ['/status?code=404', []];
        yield '404 ignore_errors' => ['/status?code=404', ['ignore_errors' => true]];
        yield 'POST' => ['/echo', ['method' => 'POST', 'header' => "Content-Type: text/plain\r\nX-A: b", 'content' => 'payload']];
        yield 'HTTP/1.0' => ['/echo', ['protocol_version' => '1.0']];
        yield 'gzip stays encoded' => ['/gzip', []];
        yield 'stall' => ['/stall', ['timeout' => 0.5]];
        yield 'garbage' => ['/garbage', []];
        yield 'refused' => ['http://127.0.0.1:1/', []];
    }

    /**
     * @dataProvider requests
     *
     * @param array<string, mixed> $http
     */
    public function testSameAsPhpsWrapper(string $path, array $http): void
    {
        $url = \str_starts_with($path, 'http') ? $path : self::url($path);
        $native = $this->fetch($url, $http, false);
        StreamWrappers::install();
        $spindle = $this->fetch($url, $http, true);
        self::assertSame($native, $spindle);
    }

    /**
     * @param array<string, mixed> $http
     *
     * @return array<string, mixed>
     */
    private function fetch(string $url, array $http, bool $spindle): array
    {
        $context = \stream_context_create(['http' => $http]);
        $warnings = [];
        \set_error_handler(static function (int $type, string $message) use (&$warnings): bool {
            if (!\str_contains($message, 'Content-type not specified') && !\str_contains($message, 'call failed')) {
                $warnings[] = \preg_replace('/Failed to open stream: .*/', 'Failed to open stream', $message);
            }

            return true;
        });
        try {
            $handle = \fopen($url, 'r', false, $context);
            $body = false;
            $headers = null;
            if ($handle !== false) {
                $body = \stream_get_contents($handle);
                $meta = \stream_get_meta_data($handle);
                $headers = $spindle ? ($meta['wrapper_data'] instanceof HttpStreamWrapper ? $meta['wrapper_data']->responseHeaders : null) : $meta['wrapper_data'];
                \fclose($handle);
            }
        } finally {
            \restore_error_handler();
        }
        $echo = \is_string($body) ? \json_decode($body, true) : null;
        if (\is_array($headers)) {
            // PHP sends Connection: close, Spindle keeps the connection: the echo's length differs by that.
            $headers = \array_values(\array_filter($headers, static fn (string $line): bool => !\str_starts_with($line, 'X-Connection')
                && !(\is_array($echo) && \str_starts_with($line, 'Content-Length'))));
        }
        if (\is_array($echo)) {
            unset($echo['headers']['connection']);
            \ksort($echo['headers']);
            $body = $echo;
        }

        return ['body' => $body, 'headers' => $headers, 'warnings' => $warnings];
    }

    public function testCopyAndConcurrentOpensOfTheSameUrl(): void
    {
        StreamWrappers::install();
        $file = \tempnam(\sys_get_temp_dir(), 'spindle-copy');
        self::assertIsString($file);
        self::assertTrue(\copy(self::url('/chunked'), $file));
        self::assertSame('hello, world', \file_get_contents($file));
        \unlink($file);

        $bodies = [];
        $started = \microtime(true);
        for ($i = 0; $i < 10; ++$i) {
            EventLoop::queue(static function () use (&$bodies): void {
                $bodies[] = \file_get_contents(self::url('/delay?ms=500'));
            });
        }
        EventLoop::run();
        self::assertSame(\array_fill(0, 10, 'done'), $bodies);
        self::assertLessThan(3.0, \microtime(true) - $started, 'ten opens of the same URL waited together');
    }

    public function testGetHeadersIsNotSupportedByAUserWrapper(): void
    {
        self::assertIsArray(@\get_headers(self::url('/hello')));
        StreamWrappers::install();
        // PHP's get_headers() only accepts its own wrapper's data (documented in docs/http-client.md).
        self::assertFalse(@\get_headers(self::url('/hello')));
    }
}
