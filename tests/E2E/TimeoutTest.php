<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\RawClient;
use Spindle\Tests\E2E\Support\ServerProcess;

/**
 * Slow and idle clients are cut off: --header-timeout, --body-timeout, --keepalive-timeout.
 * These tests measure timeouts, so they wait for them; every wait is bounded.
 */
final class TimeoutTest extends E2ETestCase
{
    private static function server(): ServerProcess
    {
        return self::sharedServer(ServerProcess::fixture('delay.php'), [
            '--header-timeout=1',
            '--body-timeout=1',
            '--keepalive-timeout=2',
        ]);
    }

    public function testSlowlorisHeaderIsCutOff(): void
    {
        $client = new RawClient(self::server()->port());
        $client->send("GET /slow HTTP/1.1\r\nHost: a\r\nX-Pad: ");
        $started = \microtime(true);
        self::assertTrue($client->waitForClose(3.5), 'a partial header must not hold the connection');
        $elapsed = \microtime(true) - $started;
        self::assertLessThan(3.0, $elapsed);
        self::assertGreaterThan(0.4, $elapsed, 'closed before the header timeout');
        $rest = $client->buffered();
        self::assertTrue($rest === '' || \str_starts_with($rest, 'HTTP/1.1 408 '), $rest);
    }

    public function testTricklingHeaderIsCutOff(): void
    {
        // A byte every 0.2 s keeps the connection busy but never completes the head.
        $client = new RawClient(self::server()->port());
        $started = \microtime(true);
        $closed = false;
        foreach (\str_split("GET /trickle HTTP/1.1\r\nHost: a\r\nX-Long: abcdefghijklmnopqrstuvwxyz\r\n") as $byte) {
            try {
                $client->send($byte);
            } catch (\RuntimeException) {
                $closed = true;
                break;
            }
            if ($client->waitForClose(0.2)) {
                $closed = true;
                break;
            }
        }
        self::assertTrue($closed || $client->waitForClose(1.0));
        self::assertLessThan(3.0, \microtime(true) - $started);
    }

    public function testStalledBodyIsCutOff(): void
    {
        $client = new RawClient(self::server()->port());
        $client->send("POST /body HTTP/1.1\r\nHost: a\r\nContent-Length: 100\r\n\r\nonly a little");
        $started = \microtime(true);
        self::assertTrue($client->waitForClose(3.5));
        self::assertLessThan(3.0, \microtime(true) - $started);
        $rest = $client->buffered();
        self::assertTrue($rest === '' || \str_starts_with($rest, 'HTTP/1.1 408 '), $rest);
    }

    public function testIdleKeepAliveConnectionIsClosed(): void
    {
        $server = self::server();
        $idle = new RawClient($server->port());
        $silent = new RawClient($server->port());
        $idle->send(self::get('/once'));
        self::assertSame(200, $idle->readResponse()->status);
        $started = \microtime(true);

        self::assertTrue($idle->waitForClose(4.0), 'idle keep-alive connection left open');
        $elapsed = \microtime(true) - $started;
        self::assertGreaterThan(1.0, $elapsed);
        self::assertLessThan(3.5, $elapsed);
        self::assertSame('', $idle->buffered());

        // A connection that never sent anything is closed as well.
        self::assertTrue($silent->waitForClose(1.5), 'silent connection left open');
    }

    public function testKeepAliveTimeoutCountsFromTheEndOfTheResponse(): void
    {
        // The request takes longer than the keep-alive timeout; the connection must not be
        // considered idle while it runs, nor right after its response.
        $client = new RawClient(self::server()->port());
        $client->send(self::get('/long?s=2.2'));
        self::assertSame(200, $client->readResponse(timeout: 5.0)->status);
        \usleep(750000);
        self::assertFalse($client->isClosedByServer());
        $client->send(self::get('/next'));
        $response = $client->readResponse();
        self::assertSame('/next', $response->json()['path']);
    }
}
