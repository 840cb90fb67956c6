<?php

declare(strict_types=1);

namespace Spindle\Tests\Reported;

use Spindle\Tests\E2E\E2ETestCase;
use Spindle\Tests\E2E\LaravelFixture;
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
    private static function echoServer(): ServerProcess
    {
        return self::sharedServer(ServerProcess::fixture('echo.php'), ['--workers=1']);
    }

    /**
     * "a!b" is a valid uri-host (a reg-name may hold sub-delims), so the parser lets it through;
     * HttpFoundation's stricter host check then refuses it. The Laravel bridge answers 400, as it
     * should, but the converter's HttpException goes through the app's exception handler's
     * report(): each such request writes a production.ERROR with a whole stack trace to the log.
     * Under PHP-FPM Laravel does not report it (Symfony's SuspiciousOperationException is in the
     * handler's internal don't-report list).
     */
    public function testAHostHttpFoundationRefusesIsNotReportedAsALaravelError(): void
    {
        LaravelFixture::useTestDatabase();
        $server = self::sharedServer(LaravelFixture::path(), ['--workers=1']);
        $response = self::rawRequest($server, "GET /hello HTTP/1.1\r\nHost: a!b\r\nConnection: close\r\n\r\n");
        self::assertSame(400, $response->status, $response->raw);
        self::assertServerAnswers($server, '/hello');
        self::assertStringNotContainsString('Invalid Host header', $server->stderr());
    }
}
