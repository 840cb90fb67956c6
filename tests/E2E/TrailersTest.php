<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\RawClient;
use Spindle\Tests\E2E\Support\ServerProcess;

/**
 * Response trailers (Response::$trailers): after a streamed body over HTTP/1.1 (in the last
 * chunk) and after any body over HTTP/2 (a HEADERS frame that ends the stream, read by nghttp).
 */
final class TrailersTest extends E2ETestCase
{
    public function testTrailersFollowTheBody(): void
    {
        $server = ServerProcess::start(__DIR__ . '/../fixtures/apps/trailers.php', ['--workers=1']);
        try {
            $client = new RawClient($server->port());
            $client->send("GET /stream HTTP/1.1\r\nHost: a\r\nTE: trailers\r\nConnection: close\r\n\r\n");
            $raw = $client->readUntilClosed();
            self::assertStringContainsString("Transfer-Encoding: chunked\r\n", $raw);
            self::assertStringEndsWith("\r\n0\r\nX-Checksum: " . \sha1('one two three') . "\r\n\r\n", $raw, 'computed once the body was done');

            foreach (['/stream' => \sha1('one two three'), '/fixed' => \sha1("fixed body\n")] as $path => $checksum) {
                $output = (string) \shell_exec('timeout 10 nghttp -v ' . \escapeshellarg($server->url($path)) . ' 2>&1');
                self::assertMatchesRegularExpression('/recv HEADERS frame <length=\d+, flags=0x05, stream_id=\d+>/', $output, 'a HEADERS frame that ends the stream: ' . $output);
                self::assertStringContainsString('x-checksum: ' . $checksum, $output, $path);
            }
        } finally {
            $server->stop();
        }
    }
}
