<?php

declare(strict_types=1);

namespace Spindle\Tests\Reported;

use Spindle\Tests\E2E\E2ETestCase;
use Spindle\Tests\E2E\RawClient;
use Spindle\Tests\E2E\ServerProcess;

/**
 * Known bugs, each pinned by a test that fails until it is fixed.
 *
 * This directory belongs to no test suite, so the default run stays green; run it with
 * `vendor/bin/phpunit tests/Reported`. Move a test into its suite once it passes.
 */
final class ReportedBugsTest extends E2ETestCase
{
    /**
     * At --max-connections an idle keep-alive connection is closed to make room, but a connection
     * that has not sent its first request is never idle: a client that opens the cap's worth of
     * connections and sends nothing keeps every new client waiting until --keepalive-timeout
     * (30 s by default) closes them. Waiting for a first request could be bounded by
     * --header-timeout, or such connections closed at the cap once they are a moment old.
     */
    public function testSilentConnectionsDoNotHoldTheCapForTheKeepAliveTimeout(): void
    {
        $server = self::sharedServer(ServerProcess::fixture('delay.php'), ['--workers=1', '--max-connections=4', '--keepalive-timeout=30', '--header-timeout=2']);
        $silent = [];
        for ($i = 0; $i < 3; ++$i) {
            $silent[] = new RawClient($server->port());
        }
        // A fourth connection, busy for 20 s: once the worker runs its request, it has taken the
        // three silent ones before it, and it is at the cap.
        $busy = new RawClient($server->port());
        $busy->send("GET /busy?s=20&announce=1 HTTP/1.1\r\nHost: a\r\n\r\n");
        self::assertTrue($server->waitForLog('delay-app started /busy', 5.0), $server->stderr());
        $new = new RawClient($server->port(), 15.0);
        $new->send("GET /new HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
        self::assertSame(200, $new->readResponse()->status, 'answered long before the keep-alive timeout');
    }
}
