<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\RawClient;
use Spindle\Tests\E2E\Support\ServerProcess;

/** Streamed response bodies: sent as they are produced, and produced only as fast as read. */
final class StreamingTest extends E2ETestCase
{
    private const MIB = 1048576;

    public function testGeneratorPiecesArriveIncrementally(): void
    {
        $server = self::sharedServer(ServerProcess::fixture('stream.php'));
        $client = new RawClient($server->port());
        $started = \microtime(true);
        $client->send(self::get('/events'));

        // The generator yields, waits one second, yields again: the first event must arrive
        // long before the second is produced.
        self::assertTrue($client->waitFor('data: first', 0.9), 'first event did not arrive early');
        $first = \microtime(true) - $started;
        self::assertLessThan(0.5, $first);
        self::assertStringNotContainsString('data: second', $client->buffered());
        self::assertStringContainsString("Transfer-Encoding: chunked\r\n", $client->buffered());
        self::assertStringContainsString("Content-Type: text/event-stream\r\n", $client->buffered());

        $response = $client->readResponse(timeout: 3.0);
        self::assertGreaterThan(0.9, \microtime(true) - $started);
        self::assertSame(200, $response->status);
        self::assertSame("data: first\n\ndata: second\n\n", $response->body);

        // The connection stays usable after a chunked stream.
        $client->send(self::get('/missing'));
        self::assertSame(404, $client->readResponse()->status);
    }

    public function testStreamedBodyOverHttp10IsDelimitedByClose(): void
    {
        $server = self::sharedServer(ServerProcess::fixture('stream.php'));
        $client = new RawClient($server->port());
        $client->send("GET /events HTTP/1.0\r\n\r\n");
        self::assertTrue($client->waitFor('data: first', 0.9));
        $raw = $client->readUntilClosed(3.0);
        self::assertStringStartsWith('HTTP/1.0 200 ', $raw);
        self::assertStringNotContainsString('Transfer-Encoding', $raw);
        self::assertStringEndsWith("\r\n\r\ndata: first\n\ndata: second\n\n", $raw);
    }

    public function testHeadOfAStreamedResponseHasNoBody(): void
    {
        $server = self::sharedServer(ServerProcess::fixture('stream.php'));
        $client = new RawClient($server->port());
        $client->send("HEAD /events HTTP/1.1\r\nHost: a\r\n\r\n");
        $head = $client->readResponse(forHead: true);
        self::assertSame(200, $head->status);
        self::assertSame('text/event-stream', $head->header('content-type'));
        self::assertNull($head->header('transfer-encoding'));
        $client->send(self::get('/missing', "Connection: close\r\n"));
        self::assertSame(404, $client->readResponse()->status);
        self::assertSame('', $client->readUntilClosed(2.0));
    }

    public function testClientThatStopsReadingIsCutOffAfterTheBodyTimeout(): void
    {
        $server = self::sharedServer(ServerProcess::fixture('big.php'), ['--body-timeout=1']);
        $client = new RawClient($server->port(), 10.0);
        $client->send(self::get('/big?mib=64'));
        // The client reads nothing for longer than the timeout, then finds a cut-off body.
        \usleep(2500000);
        $received = 0;
        try {
            $client->readResponse(timeout: 5.0, sink: static function (string $piece) use (&$received): void {
                $received += \strlen($piece);
            });
            self::fail('the whole body was sent to a client that stalled');
        } catch (\RuntimeException $e) {
            self::assertStringContainsString('closed the connection before a full response', $e->getMessage());
        }
        self::assertLessThan(32 * self::MIB, $received);

        // The abandoned generator is gone and the worker is fine.
        $progress = self::rawRequest($server, self::get('/progress', "Connection: close\r\n"))->json();
        self::assertLessThan(32 * self::MIB, $progress['produced']);
        self::assertLessThan(8 * self::MIB, $progress['memory']);
        self::assertStringNotContainsString('ERROR', $server->stderr());
    }

    public function testSlowReaderDoesNotMakeTheWorkerBufferTheWholeBody(): void
    {
        $server = self::sharedServer(ServerProcess::fixture('big.php'));
        $progress = static fn (): array => self::rawRequest($server, self::get('/progress', "Connection: close\r\n"))->json();

        $before = $progress();
        $pid = $before['pid'];
        self::assertSame([$pid], $server->workerPids());
        $rssBefore = ServerProcess::rss($pid);
        self::assertNotNull($rssBefore);

        // Ask for 64 MiB and read nothing.
        $client = new RawClient($server->port(), 30.0);
        $client->send(self::get('/big?mib=64'));

        // Wait until the generator stops producing: the worker is waiting for the client.
        $last = -1;
        $stableSince = \microtime(true);
        $deadline = \microtime(true) + 10.0;
        while (\microtime(true) < $deadline) {
            $produced = $progress()['produced'] - $before['produced'];
            if ($produced !== $last) {
                $last = $produced;
                $stableSince = \microtime(true);
            } elseif ($produced > 0 && \microtime(true) - $stableSince > 0.4) {
                break;
            }
            \usleep(50000);
        }
        $now = $progress();
        $produced = $now['produced'] - $before['produced'];
        $rssGrowth = (int) ServerProcess::rss($pid) - $rssBefore;
        self::assertGreaterThan(0, $produced);
        self::assertLessThan(32 * self::MIB, $produced, 'the generator ran ahead of the client');
        self::assertLessThan(32 * self::MIB, $rssGrowth, 'worker memory grew with the unread body');
        self::assertLessThan(16 * self::MIB, $now['memory'] - $before['memory']);

        // Now the client reads everything.
        // (hashed piece by piece: 64 MiB strings are slow to allocate)
        $received = 0;
        $hash = \hash_init('sha1');
        $response = $client->readResponse(timeout: 30.0, sink: static function (string $piece) use (&$received, $hash): void {
            $received += \strlen($piece);
            \hash_update($hash, $piece);
        });
        self::assertSame(200, $response->status);
        self::assertSame('chunked', $response->header('transfer-encoding'));
        self::assertSame(64 * self::MIB, $received);
        $expected = \hash_init('sha1');
        $piece = \str_repeat('0123456789abcdef', 4096);
        for ($i = 0; $i < 1024; ++$i) {
            \hash_update($expected, $piece);
        }
        self::assertSame(\hash_final($expected), \hash_final($hash));
        self::assertSame(64 * self::MIB, $progress()['produced'] - $before['produced']);
    }
}
