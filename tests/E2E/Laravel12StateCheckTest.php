<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\LaravelFixture;
use Spindle\Tests\E2E\Support\ServerProcess;

/**
 * `spindle serve --check-state` on the Laravel 12 fixture app (FIXTURE_APP_STATE=1, one worker):
 * the LastRoute singleton, which keeps the last route matched and that no resetter clears, is
 * named once with the request that changed it and how to reset it; what Spindle resets (once(),
 * the request, the session…), the Tally singleton that the app's own resetter empties and the
 * static `spindle.statics` gives each instance are not reported; the same property is reported
 * once however many requests change it again.
 *
 * @group frameworks
 */
final class Laravel12StateCheckTest extends E2ETestCase
{
    private const WARNING = 'State kept across requests:';

    /**
     * Serves the requests one after the other, stops the server (a graceful stop lets every
     * after-response check finish) and returns its log.
     *
     * @param list<string> $paths
     * @param list<string> $options
     */
    private static function logOf(array $paths, array $options, string $fixtureAppState = '1'): string
    {
        LaravelFixture::useTestDatabase();
        \putenv('FIXTURE_APP_STATE=' . $fixtureAppState);
        try {
            $server = ServerProcess::start(LaravelFixture::path(LaravelFixture::LARAVEL_12), ['--workers=1', ...$options]);
        } finally {
            \putenv('FIXTURE_APP_STATE');
        }
        foreach ($paths as $path) {
            $result = self::curl(['-s', '-o', '/dev/null', '-w', '%{http_code}', $server->url($path)]);
            self::assertSame('200', $result['out'], $path . ': ' . $server->stderr());
        }
        self::assertSame(0, $server->stop(30.0), $server->stderr());

        return $server->stderr();
    }

    /** @return list<string> the warnings of --check-state in $log */
    private static function warnings(string $log): array
    {
        return \array_values(\array_filter(\explode("\n", $log), static fn (string $line): bool => \str_contains($line, self::WARNING)));
    }

    public function testTheSingletonThatKeepsTheLastRouteIsNamedOnceWithItsRouteAndTheFix(): void
    {
        $log = self::logOf(['/state/hello', '/tally/add/a', '/tally/add/b', '/tally', '/per-instance/x?wait=0', '/once', '/state/hello', '/tally'], ['--check-state']);

        self::assertStringContainsString('Checking for state the app keeps across requests', $log);
        $warnings = self::warnings($log);
        self::assertCount(1, $warnings, $log);
        self::assertStringContainsString('App\LastRoute::$route (a service kept between requests) changed during GET /state/hello (route state.hello)', $warnings[0]);
        self::assertStringContainsString("from NULL to 'state.hello'", $warnings[0]);
        self::assertStringContainsString("config('spindle.resetters')", $warnings[0]);
    }

    public function testTheSameRequestsWithoutTheOptionLogNoWarning(): void
    {
        $log = self::logOf(['/state/hello', '/tally/add/a', '/tally'], []);

        self::assertSame([], self::warnings($log), $log);
        self::assertStringNotContainsString('Checking for state', $log);
    }

    public function testTheEnvironmentVariableTurnsItOnAndAnUndeclaredResetterIsMissed(): void
    {
        // Without FIXTURE_APP_STATE the Tally has no resetter: its items carry over and are named.
        \putenv('SPINDLE_CHECK_STATE=1');
        try {
            $log = self::logOf(['/tally/add/a', '/tally/add/b'], [], '0');
        } finally {
            \putenv('SPINDLE_CHECK_STATE');
        }

        $warnings = self::warnings($log);
        self::assertCount(1, $warnings, $log);
        self::assertStringContainsString('App\Tally::$items (a service kept between requests) changed during GET /tally/add/a (route /tally/add/{item}), from an array of 0 to an array of 1', $warnings[0]);
    }
}
