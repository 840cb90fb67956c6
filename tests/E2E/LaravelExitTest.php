<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\LaravelFixture;
use Spindle\Tests\E2E\Support\RawClient;
use Spindle\Tests\E2E\Support\ServerProcess;

/**
 * A Laravel controller that prints and calls exit(), as legacy code does after a redirect or a
 * dump: that request gets what it printed, the others in flight on the worker finish, and the
 * next request is served by the replacement.
 */
final class LaravelExitTest extends E2ETestCase
{
    private const SLOW = 5;

    public function testAControllerThatCallsExitCostsOneRequest(): void
    {
        LaravelFixture::useTestDatabase();
        $server = ServerProcess::start(LaravelFixture::path(), ['--workers=1']);
        try {
            $slow = [];
            for ($id = 1; $id <= self::SLOW; ++$id) {
                $slow[$id] = new RawClient($server->port(), 20.0);
                $slow[$id]->send(self::get('/exit/slow/' . $id, "Connection: close\r\n"));
            }
            self::assertTrue(self::eventually(static function () use ($server): bool {
                for ($id = 1; $id <= self::SLOW; ++$id) {
                    if (!\str_contains($server->stderr(), "laravel-exit started {$id}\n")) {
                        return false;
                    }
                }

                return true;
            }, 20.0), 'the slow requests did not all start: ' . $server->stderr());

            $ended = self::rawRequest($server, self::get('/exit/now'));
            self::assertSame(200, $ended->status, $ended->raw);
            self::assertMatchesRegularExpression('/^printed by a legacy controller in (\d+)$/', $ended->body);
            $pid = (int) \substr($ended->body, \strlen('printed by a legacy controller in '));

            foreach ($slow as $id => $client) {
                $response = $client->readResponse(timeout: 20.0);
                self::assertSame(200, $response->status, $response->raw);
                self::assertSame(['id' => (string) $id, 'pid' => $pid], $response->json());
            }

            $next = new RawClient($server->port(), 20.0);
            $next->send(self::get('/hello', "Connection: close\r\n"));
            $response = $next->readResponse(timeout: 20.0);
            self::assertSame(200, $response->status, $response->raw);
            self::assertSame('Hello from Laravel', $response->body);
            self::assertTrue($server->waitForLog("Worker {$pid} finished its other requests and exited", 10.0), $server->stderr());
        } finally {
            $server->stop();
        }
    }
}
