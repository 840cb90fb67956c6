<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E\Support;

/**
 * The Laravel 8 app of tests/fixtures/laravel-app (Debian's php-laravel-framework, Spindle
 * through a Composer path repository) and the Laravel 12 app of tests/fixtures/laravel12-app
 * (the package registry), and the environment that points them at the test MariaDB.
 */
final class LaravelFixture
{
    public const LARAVEL_8 = 'laravel-app';
    public const LARAVEL_12 = 'laravel12-app';

    public static function path(string $fixture = self::LARAVEL_8): string
    {
        $path = \dirname(__DIR__, 2) . '/fixtures/' . $fixture;
        if (!\is_file($path . '/vendor/autoload.php')) {
            throw new \RuntimeException("The Laravel fixture app is not installed: run scripts/test (it installs $path)");
        }

        return $path;
    }

    /**
     * The private MariaDB of scripts/mariadb, as its env file describes it (MYSQL_HOST, MYSQL_PORT…).
     *
     * @return array<string, string>
     */
    public static function mariadbEnv(): array
    {
        $dir = \getenv('SPINDLE_MYSQL_DIR');
        $file = ($dir === false || $dir === '' ? '/tmp/spindle-mariadb' : $dir) . '/env';
        $lines = \is_file($file) ? \file($file, \FILE_IGNORE_NEW_LINES | \FILE_SKIP_EMPTY_LINES) : false;
        if ($lines === false) {
            throw new \RuntimeException("No MariaDB for the tests: $file is missing. Run scripts/mariadb first.");
        }
        $env = [];
        foreach ($lines as $line) {
            if (\preg_match('/^(?:export\s+)?([A-Z_0-9]+)=(.*)$/', $line, $m) === 1) {
                $env[$m[1]] = \trim($m[2], '\'"');
            }
        }

        return $env;
    }

    /** Exports DB_* for the private MariaDB of scripts/mariadb, read from its env file. */
    public static function useTestDatabase(): void
    {
        $env = self::mariadbEnv();
        foreach (['DB_HOST' => 'MYSQL_HOST', 'DB_PORT' => 'MYSQL_PORT', 'DB_USERNAME' => 'MYSQL_USER', 'DB_PASSWORD' => 'MYSQL_PASSWORD', 'DB_DATABASE' => 'MYSQL_DATABASE'] as $laravel => $mysql) {
            if (isset($env[$mysql])) {
                \putenv($laravel . '=' . $env[$mysql]);
            }
        }
    }

    /**
     * Runs curl once per argument list, all at the same time, and returns their outputs in order.
     *
     * @param list<list<string>> $requests
     *
     * @return list<string>
     */
    public static function curlAll(array $requests, float $maxTime = 20.0): array
    {
        $running = [];
        foreach ($requests as $i => $arguments) {
            $out = \tempnam(\sys_get_temp_dir(), 'spindle-laravel-curl-');
            \assert(\is_string($out));
            $process = \proc_open(
                ['curl', '--noproxy', '*', '-s', '--max-time', (string) $maxTime, ...$arguments],
                [0 => ['file', '/dev/null', 'r'], 1 => ['file', $out, 'w'], 2 => ['file', '/dev/null', 'w']],
                $pipes,
            );
            if (!\is_resource($process)) {
                throw new \RuntimeException('curl could not be started');
            }
            $running[$i] = [$process, $out];
        }
        $outputs = [];
        foreach ($running as $i => [$process, $out]) {
            \proc_close($process);
            $outputs[$i] = (string) \file_get_contents($out);
            @\unlink($out);
        }

        return $outputs;
    }
}
