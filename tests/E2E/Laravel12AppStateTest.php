<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\LaravelFixture;
use Spindle\Tests\E2E\Support\ServerProcess;

/**
 * The state an app declares in its config/spindle.php, on the Laravel 12 fixture app
 * (FIXTURE_APP_STATE=1 declares it) through one worker: a resetter of `spindle.resetters` runs after every request (it empties a
 * singleton resolved at boot), and a static of `spindle.statics` is each app instance's own
 * (two requests that wait at the same time run on two instances and each reads its value).
 *
 * @group frameworks
 */
final class Laravel12AppStateTest extends E2ETestCase
{
    private static function server(): ServerProcess
    {
        LaravelFixture::useTestDatabase();
        \putenv('FIXTURE_APP_STATE=1');
        try {
            return self::sharedServer(LaravelFixture::path(LaravelFixture::LARAVEL_12), ['--workers=1']);
        } finally {
            \putenv('FIXTURE_APP_STATE');
        }
    }

    private static function body(string $path): string
    {
        $result = self::curl(['-s', self::server()->url($path)]);
        self::assertSame(0, $result['code'], $result['err']);

        return $result['out'];
    }

    public function testTheAppsResetterRunsAfterEveryRequest(): void
    {
        // Requests that never wait run one after the other on the same instance, whose Tally
        // singleton (resolved at boot, so kept by the container's restore) would keep every item.
        self::assertSame('a', self::body('/tally/add/a'));
        self::assertSame('b', self::body('/tally/add/b'));
        self::assertSame('empty', self::body('/tally'));
    }

    public function testAnAppStaticIsEachInstancesOwn(): void
    {
        $outputs = LaravelFixture::curlAll([
            [self::server()->url('/per-instance/first?wait=0.5')],
            [self::server()->url('/per-instance/second?wait=0.5')],
            [self::server()->url('/per-instance/third?wait=0.5')],
        ]);
        self::assertSame(['first', 'second', 'third'], $outputs, self::server()->stderr());
    }
}
