<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\ServerProcess;
use Spindle\Tests\E2E\Support\SymfonyFixtureTestCase;

/**
 * `--check-state` on the Symfony 7.4 fixture app, turned on by SPINDLE_CHECK_STATE as an app's
 * .env would: the kernel.controller listener that keeps the last controller in a property is
 * named once, with the request that changed it and the ResetInterface fix; the services that
 * implement ResetInterface (VisitLog, TokenHolder) and what Spindle resets are not reported.
 *
 * @group frameworks
 */
final class Symfony74StateCheckTest extends SymfonyFixtureTestCase
{
    protected static function app(): string
    {
        return \dirname(__DIR__) . '/fixtures/symfony74-app';
    }

    public function testTheListenerThatKeepsTheLastControllerIsNamedOnce(): void
    {
        \putenv('SPINDLE_CHECK_STATE=1');
        try {
            $server = ServerProcess::start(static::app(), ['--workers=1']);
        } finally {
            \putenv('SPINDLE_CHECK_STATE');
        }
        // The listener is made by the first request (listeners are lazy): the second, to another
        // controller, changes what it holds.
        foreach (['/hello', '/visits', '/users/1', '/visits', '/hello', '/session/set?value=a', '/session/get'] as $path) {
            $result = self::curl(['-s', '-o', '/dev/null', '-w', '%{http_code}', $server->url($path)]);
            self::assertSame('200', $result['out'], $path . ': ' . $server->stderr());
        }
        self::assertSame(0, $server->stop(30.0), $server->stderr());
        $log = $server->stderr();

        $warnings = \array_values(\array_filter(\explode("\n", $log), static fn (string $line): bool => \str_contains($line, 'State kept across requests:')));
        self::assertCount(1, $warnings, $log);
        self::assertStringContainsString('App\EventListener\LastController::$controller (a service kept between requests) changed during GET /visits (route visits)', $warnings[0]);
        self::assertStringContainsString("from 'App\\Controller\\AppController::hello' to 'App\\Controller\\AppController::visits'", $warnings[0]);
        self::assertStringContainsString('Symfony\Contracts\Service\ResetInterface on App\EventListener\LastController', $warnings[0]);
    }
}
