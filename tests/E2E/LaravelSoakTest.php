<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\LaravelFixture;
use Spindle\Tests\E2E\Support\RawClient;
use Spindle\Tests\E2E\Support\ServerProcess;

/**
 * Thousands of logged-in requests on one worker, one after another on a keep-alive connection:
 * nothing a request leaves behind may pile up — neither container callbacks (each session guard
 * registers one), nor memory, nor the time a request takes.
 */
class LaravelSoakTest extends E2ETestCase
{
    /** The Laravel app this class serves; a subclass runs the same test on another. */
    protected static function app(): string
    {
        return LaravelFixture::path();
    }

    private const REQUESTS = 6000;
    private const BATCH = 1000;

    public function testLoggedInTrafficStaysFlat(): void
    {
        LaravelFixture::useTestDatabase();
        $server = ServerProcess::start(static::app(), ['--workers=1']);
        $jar = $this->cookieJar();
        try {
            self::assertSame('logged in as user-42', self::curl(['-s', '-c', $jar, $server->url('/login/42')])['out']);
            $cookies = [];
            foreach (\file($jar, \FILE_IGNORE_NEW_LINES) ?: [] as $line) {
                $fields = \explode("\t", $line);
                if (\count($fields) === 7) {
                    $cookies[] = $fields[5] . '=' . $fields[6];
                }
            }
            $request = "GET /soak HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: " . \implode('; ', $cookies) . "\r\n\r\n";
            $client = new RawClient($server->port());

            $medians = [];
            $callbacks = [];
            $rss = [];
            for ($batch = 0; $batch < self::REQUESTS / self::BATCH; ++$batch) {
                $times = [];
                for ($i = 0; $i < self::BATCH; ++$i) {
                    $started = \hrtime(true);
                    $client->send($request);
                    $response = $client->readResponse(timeout: 10.0);
                    $times[] = \hrtime(true) - $started;
                    self::assertSame(200, $response->status, $response->body . $server->stderr());
                    [$user, $rebinders, $pid] = \explode(' ', $response->body);
                    self::assertSame('42', $user, 'the session still logs the user in');
                }
                \sort($times);
                $medians[] = $times[\intdiv(self::BATCH, 2)] / 1e6;
                $callbacks[] = (int) $rebinders;
                $rss[] = ServerProcess::rss((int) $pid);
            }

            // The container holds as many 'request' rebinding callbacks after 6,000 requests as after 1,000.
            self::assertSame(\array_fill(0, \count($callbacks), $callbacks[0]), $callbacks);
            // Memory: the worker's resident size grows by at most 8 MiB over the run after the first thousand.
            self::assertNotContains(null, $rss);
            self::assertLessThanOrEqual(8 * 1048576, \max($rss) - $rss[0], 'RSS per 1,000 requests: ' . \implode(', ', $rss));
            // Time: the last thousand are not slower than the first ones (medians, with room for a
            // loaded machine: the leak this guards against made the last thousand 3.9x slower).
            self::assertLessThan(2.5 * \max($medians[0], $medians[1]), \end($medians), 'median ms per 1,000 requests: ' . \implode(', ', \array_map(static fn (float $m): string => \sprintf('%.2f', $m), $medians)));
        } finally {
            $server->stop();
        }
    }
}
