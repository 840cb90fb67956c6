<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\ServerProcess;

/** A FileBody whose file cannot be opened is a 500 with its own head, and the worker serves on. */
final class FileBodyTest extends E2ETestCase
{
    public function testAFileThatCannotBeOpenedIsA500(): void
    {
        $server = self::sharedServer(ServerProcess::fixture('missing-file.php'), ['--workers=1']);
        foreach (['GET', 'HEAD'] as $method) {
            $response = self::rawRequest($server, "{$method} /missing HTTP/1.1\r\nHost: a\r\n\r\n", $method === 'HEAD');
            self::assertSame(500, $response->status, $method);
            self::assertStringNotContainsString('no-such-file', $response->body, 'no detail outside --debug');
        }
        self::assertSame('ok', self::assertServerAnswers($server, '/ok')->body);
        self::assertTrue($server->waitForLog('Cannot open'));
    }
}
