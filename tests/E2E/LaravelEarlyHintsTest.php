<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\LaravelFixture;
use Spindle\Tests\E2E\Support\ServerProcess;

/**
 * SPINDLE_EARLY_HINTS: a Laravel route's preload links (what AddLinkHeadersForPreloadedAssets
 * puts on Vite's pages) go out as a 103 before the next response to the same route, over HTTP/2
 * and, with --early-hints-http1, HTTP/1.1; without the option nothing changes.
 */
final class LaravelEarlyHintsTest extends E2ETestCase
{
    public function testTheLastResponsesPreloadLinksAreSentAhead(): void
    {
        LaravelFixture::useTestDatabase();
        \putenv('SPINDLE_EARLY_HINTS=1');
        try {
            $server = ServerProcess::start(LaravelFixture::path(LaravelFixture::LARAVEL_8), ['--workers=1', '--early-hints-http1']);
        } finally {
            \putenv('SPINDLE_EARLY_HINTS');
        }
        try {
            $first = self::curl(['-s', '-i', '--http1.1', $server->url('/preloading')])['out'];
            self::assertStringStartsWith('HTTP/1.1 200', $first, 'nothing known of the route yet');
            foreach (['--http1.1' => 'HTTP/1.1 103 Early Hints', '--http2-prior-knowledge' => 'HTTP/2 103'] as $flag => $line) {
                $output = self::curl(['-s', '-i', $flag, $server->url('/preloading')])['out'];
                self::assertStringStartsWith($line, $output, $flag);
                $interim = \substr($output, 0, (int) \strpos($output, "\r\n\r\n"));
                self::assertMatchesRegularExpression('~^link: </build/app\.css>; rel=preload; as=style\r?$~mi', $interim);
                self::assertMatchesRegularExpression('~^link: </build/app\.js>; rel=modulepreload\r?$~mi', $interim);
                self::assertStringNotContainsString('alternate', $interim, 'only preload links are hinted');
                $final = self::parseCurlResponse($output);
                self::assertSame(200, $final['status']);
                self::assertSame('page with assets', $final['body']);
            }
            $other = self::curl(['-s', '-i', '--http1.1', $server->url('/hello')])['out'];
            self::assertStringStartsWith('HTTP/1.1 200', $other, 'another route gets no hints');
        } finally {
            $server->stop();
        }
        $plain = ServerProcess::start(LaravelFixture::path(LaravelFixture::LARAVEL_8), ['--workers=1', '--early-hints-http1']);
        try {
            self::curl(['-s', $plain->url('/preloading')]);
            self::assertStringStartsWith('HTTP/2 200', self::curl(['-s', '-i', '--http2-prior-knowledge', $plain->url('/preloading')])['out'], 'off unless asked for');
        } finally {
            $plain->stop();
        }
    }
}
