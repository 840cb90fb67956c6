<?php

declare(strict_types=1);

namespace Spindle\Tests\Reported;

use Spindle\Tests\E2E\E2ETestCase;
use Spindle\Tests\E2E\RawClient;
use Spindle\Tests\E2E\ServerProcess;

/**
 * Known bugs in src/Http, src/Server and src/Bridge, each pinned by a test that fails until it is fixed.
 *
 * This directory belongs to no test suite, so the default run stays green; run it with
 * `vendor/bin/phpunit tests/Reported`. Move a test into tests/E2E once it passes.
 */
final class ReportedBugsTest extends E2ETestCase
{
    /**
     * A FileBody whose file cannot be opened is found out only after "200 OK" and its
     * Content-Length went out: the client gets a 200 head and a cut connection instead of a 500
     * (the log says "response could not be sent: Cannot open …").
     */
    public function testAFileBodyThatCannotBeOpenedIsA500(): void
    {
        $server = self::sharedServer(__DIR__ . '/missing-file-app.php', ['--workers=1']);
        $client = new RawClient($server->port());
        $client->send("GET /missing HTTP/1.1\r\nHost: a\r\n\r\n");
        self::assertTrue($client->waitForClose(5.0) || $client->waitFor("\r\n\r\n", 5.0));
        self::assertStringStartsWith('HTTP/1.1 500', $client->buffered());
        self::assertServerAnswers($server, '/ok');
    }
}
