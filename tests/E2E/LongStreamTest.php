<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\LaravelFixture;
use Spindle\Tests\E2E\Support\RawClient;
use Spindle\Tests\E2E\Support\ServerProcess;

/**
 * A long streamed response (server-sent events, a slow download) does not hold one of the
 * worker's app instances for its whole life: past LeasedBody::DETACH_AFTER it keeps the instance
 * its callback runs in, but the pool boots another for the requests behind it. With one instance
 * allowed (SPINDLE_INSTANCES=1), a request made while a stream goes on is answered before the
 * stream ends; and the request timeout, which covers producing the response, does not cut the
 * stream.
 */
final class LongStreamTest extends E2ETestCase
{
    /** @var array<string, string|false> */
    private array $savedEnv = [];

    protected function setUp(): void
    {
        LaravelFixture::useTestDatabase();
        foreach (['SPINDLE_INSTANCES' => '1', 'SPINDLE_WARM_INSTANCES' => '1'] as $name => $value) {
            $this->savedEnv[$name] = \getenv($name);
            \putenv($name . '=' . $value);
        }
    }

    protected function tearDown(): void
    {
        foreach ($this->savedEnv as $name => $value) {
            \putenv($value === false ? $name : $name . '=' . $value);
        }
    }

    public function testALongStreamLetsTheRequestsBehindItHaveAnInstance(): void
    {
        $server = ServerProcess::start(LaravelFixture::path(LaravelFixture::LARAVEL_8), ['--workers=1', '--request-timeout=3']);
        self::assertSame('Hello from Laravel', self::fetch($server->port(), '/hello'));

        $stream = new RawClient($server->port(), 15.0);
        $stream->send("GET /stream/long?seconds=5 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
        self::assertTrue($stream->waitFor("tick\n", 5.0), 'the stream began');
        $began = \microtime(true);

        // Within the stream's first seconds its instance is detached; a request then gets an
        // instance of its own well before the stream's end (5 s), which it would wait for
        // otherwise.
        $answered = null;
        $deadline = $began + 4.0;
        while (\microtime(true) < $deadline) {
            $client = new RawClient($server->port(), 1.0);
            $client->send("GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
            try {
                $response = $client->readResponse(timeout: 0.75);
                if ($response->body === 'Hello from Laravel') {
                    $answered = \microtime(true) - $began;
                    break;
                }
            } catch (\Throwable) {
                // Still waiting for the instance the stream holds.
            }
            $client->close();
        }
        self::assertNotNull($answered, 'a request was answered while the stream went on: ' . $server->stderr());
        self::assertFalse($stream->isClosedByServer(), 'the stream goes on');

        // The stream ends whole, past the request timeout (3 s), with its last piece.
        self::assertTrue($stream->waitFor("done\n", 8.0), 'the stream ended with its last piece: ' . $server->stderr());
        self::assertTrue($stream->waitFor("0\r\n\r\n", 2.0), 'and its terminating chunk');
        self::reportFigures('long stream', \sprintf('a request behind a 5 s stream (one instance allowed) answered %.2f s after the stream began', $answered));
        self::assertSame('Hello from Laravel', self::fetch($server->port(), '/hello'), 'the worker serves on');
        $server->stop();
        self::assertStringNotContainsString('timed out', $server->stderr());
    }

    private static function fetch(int $port, string $path): string
    {
        $client = new RawClient($port);
        $client->send("GET $path HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");

        return $client->readResponse()->body;
    }
}
