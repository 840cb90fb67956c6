<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\LaravelFixture;
use Spindle\Tests\E2E\Support\ServerProcess;

/**
 * Requests that run at the same time in one worker, each on its own app instance: each sees
 * its own request, user, session and locale at every point it resumes, and waits on MySQL
 * without holding up the others.
 */
class LaravelConcurrencyTest extends E2ETestCase
{
    /** The Laravel app this class serves; a subclass runs the same tests on another. */
    protected static function app(): string
    {
        return LaravelFixture::path();
    }

    private static function server(): ServerProcess
    {
        LaravelFixture::useTestDatabase();

        return self::sharedServer(static::app(), ['--workers=1']);
    }

    public function testOverlappingRequestsEachSeeTheirOwnRequestUserSessionAndLocale(): void
    {
        $server = self::server();
        $count = 5;
        $requests = [];
        for ($i = 1; $i <= $count; ++$i) {
            $jar = $this->cookieJar();
            $login = self::curl(['-s', '-b', $jar, '-c', $jar, $server->url('/login/' . (100 + $i))]);
            self::assertSame('logged in as user-' . (100 + $i), $login['out']);
            $put = self::curl(['-s', '-b', $jar, '-c', $jar, $server->url('/session/put/value-' . $i)]);
            self::assertSame('stored value-' . $i, $put['out']);
            $locale = $i % 2 === 0 ? '&locale=fr' : '';
            $requests[] = ['-b', $jar, $server->url('/overlap?tag=t' . $i . $locale)];
        }
        // And one anonymous request among them.
        $requests[] = [$server->url('/overlap?tag=anonymous')];

        $outputs = LaravelFixture::curlAll($requests);
        $maxInFlight = 0;
        foreach ($outputs as $index => $output) {
            $steps = \json_decode($output, true);
            self::assertIsArray($steps, $output);
            self::assertCount(4, $steps);
            $i = $index + 1;
            $anonymous = $i > $count;
            foreach ($steps as $n => $step) {
                $maxInFlight = \max($maxInFlight, $step['in_flight']);
                self::assertSame($anonymous ? 'anonymous' : 't' . $i, $step['tag'], $output);
                self::assertSame($step['tag'], $step['injected'], $output);
                self::assertSame($anonymous ? 'guest' : 'user-' . (100 + $i), $step['user'], $output);
                self::assertSame($anonymous ? 'none' : 'value-' . $i, $step['session'], $output);
                self::assertSame(!$anonymous && $i % 2 === 0 && $n > 0 ? 'fr' : 'en', $step['locale'], $output);
                self::assertSame($server->url('/overlap'), $step['url'], $output);
            }
        }
        // They ran at the same time in the one worker.
        self::assertSame($count + 1, $maxInFlight);
    }

    public function testTenRequestsWaitingOnMysqlRunTogetherInOneWorker(): void
    {
        $server = self::server();
        $outputs = LaravelFixture::curlAll(\array_fill(0, 10, [$server->url('/sleep')]));
        $inFlight = [];
        $pids = [];
        foreach ($outputs as $output) {
            $data = \json_decode($output, true);
            self::assertIsArray($data, $output . "\n" . $server->stderr());
            $inFlight[] = $data['in_flight'];
            $pids[$data['pid']] = true;
        }
        self::assertCount(1, $pids, 'one worker served them all');
        // The first to wake up from SELECT SLEEP(1) saw all ten waiting together.
        self::assertSame(10, \max($inFlight));
    }
}
