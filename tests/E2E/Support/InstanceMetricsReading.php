<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E\Support;

/**
 * Reads a one-worker server's app instances (`spindle_app_instances` on --metrics), for the
 * tests of the instance pools of Laravel and Symfony.
 */
trait InstanceMetricsReading
{
    /** @return array{ServerProcess, int} a one-worker server of the app in $directory, and its metrics port */
    private static function startWithMetrics(string $directory): array
    {
        $server = ServerProcess::start($directory, ['--workers=1', '--metrics=127.0.0.1:0']);
        self::assertTrue($server->waitForLog('Metrics on http://', 10.0), $server->stderr());
        if (\preg_match('#Metrics on http://127\.0\.0\.1:(\d+)/metrics#', $server->stderr(), $m) !== 1) {
            self::fail($server->stderr());
        }

        return [$server, (int) $m[1]];
    }

    private static function fetch(int $port, string $path): string
    {
        $client = new RawClient($port);
        $client->send("GET {$path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
        $body = $client->readResponse()->body;
        $client->close();

        return $body;
    }

    /** Booted app instances, idle and busy, as the metrics listener reports them now. */
    private static function instances(int $metricsPort): int
    {
        $text = self::fetch($metricsPort, '/metrics');
        self::assertSame(2, \preg_match_all('/^spindle_app_instances\{state="(?:idle|busy)"\} (\d+)/m', $text, $m), $text);

        return (int) \array_sum($m[1]);
    }

    /**
     * The instances in the first report of the worker (it reports every second) that counts at
     * least $requests answered requests: a report made after those requests.
     */
    private static function instancesAfter(int $metricsPort, int $requests): int
    {
        $instances = null;
        $reported = self::eventually(static function () use ($metricsPort, $requests, &$instances): bool {
            $text = self::fetch($metricsPort, '/metrics');
            \preg_match_all('/^spindle_http_requests_total\{[^}]*\} (\d+)/m', $text, $m);
            if (\array_sum(\array_map('intval', $m[1])) < $requests) {
                return false;
            }
            $instances = self::instances($metricsPort);

            return true;
        }, 15.0);
        self::assertTrue($reported, "no report counted $requests requests");
        \assert(\is_int($instances));

        return $instances;
    }
}
