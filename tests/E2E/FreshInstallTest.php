<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;

/**
 * A new user's path: a copy of the Laravel 12 or Symfony 7.4 fixture app without Spindle,
 * `composer require spindle/spindle` (from this checkout, through a path repository), then the
 * app served by `php artisan spindle:serve` or by its own front controller under
 * APP_RUNTIME=Spindle\Bridge\Symfony\Runtime, with no other change to the app.
 */
final class FreshInstallTest extends E2ETestCase
{
    private string $copy = '';
    /** @var resource|null */
    private $server = null;

    protected function tearDown(): void
    {
        if (\is_resource($this->server)) {
            $status = \proc_get_status($this->server);
            if ($status['running']) {
                \posix_kill($status['pid'], \SIGTERM);
            }
            \proc_close($this->server);
        }
        if ($this->copy !== '') {
            self::remove($this->copy);
        }
    }

    public function testALaravel12AppInstallsAndServesWithArtisan(): void
    {
        $app = $this->installInto('laravel12-app');
        $port = $this->start([\PHP_BINARY, 'artisan', 'spindle:serve', '--port=0', '--workers=1'], $app, []);
        $home = self::curl(['-s', "http://127.0.0.1:{$port}/"]);
        self::assertMatchesRegularExpression('/^Welcome to Laravel 12\.\d+\.\d+$/', $home['out']);
        $up = self::curl(['-s', '-o', '/dev/null', '-w', '%{http_code}', "http://127.0.0.1:{$port}/up"]);
        self::assertSame('200', $up['out']);
    }

    public function testASymfony74AppInstallsAndServesThroughItsFrontController(): void
    {
        $app = $this->installInto('symfony74-app');
        $port = $this->start([\PHP_BINARY, 'public/index.php'], $app, [
            'APP_RUNTIME' => 'Spindle\Bridge\Symfony\Runtime',
            'SPINDLE_PORT' => '0',
            'SPINDLE_WORKERS' => '1',
        ]);
        $home = self::curl(['-s', '-i', "http://127.0.0.1:{$port}/"]);
        $response = self::parseCurlResponse($home['out']);
        self::assertSame(200, $response['status'], $home['out']);
        self::assertSame('Hello World', $response['body']);
    }

    /** Copies the fixture without Spindle and runs `composer require spindle/spindle` in the copy; returns its path. */
    private function installInto(string $fixture): string
    {
        $root = \dirname(__DIR__, 2);
        $source = $root . '/tests/fixtures/' . $fixture;
        $this->copy = \sys_get_temp_dir() . '/spindle-fresh-' . $fixture . '-' . \getmypid();
        self::remove($this->copy);
        self::copy($source, $this->copy);
        $json = \json_decode((string) \file_get_contents($source . '/composer.json'), true, 512, \JSON_THROW_ON_ERROR);
        \assert(\is_array($json));
        unset($json['require']['spindle/spindle']);
        $json['repositories'] = [['type' => 'path', 'url' => $root]];
        \file_put_contents($this->copy . '/composer.json', \json_encode($json, \JSON_PRETTY_PRINT | \JSON_UNESCAPED_SLASHES));

        $process = \proc_open(
            [$root . '/scripts/composer-fixture', $this->copy, 'require', 'spindle/spindle:@dev', '--no-progress'],
            [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['redirect', 1]],
            $pipes,
        );
        self::assertIsResource($process);
        $output = (string) \stream_get_contents($pipes[1]);
        self::assertSame(0, \proc_close($process), $output);
        self::assertFileExists($this->copy . '/vendor/spindle/spindle/composer.json', $output);

        return $this->copy;
    }

    /**
     * Starts $command in $directory and returns the port it announces.
     *
     * @param list<string> $command
     * @param array<string, string> $env
     */
    private function start(array $command, string $directory, array $env): int
    {
        $server = \proc_open(
            $command,
            [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['file', '/dev/null', 'w']],
            $pipes,
            $directory,
            $env + \getenv(),
        );
        self::assertIsResource($server);
        $this->server = $server;
        $seen = '';
        $deadline = \microtime(true) + 20.0;
        while (\preg_match('#Spindle listening on http://127\.0\.0\.1:(\d+)\n#', $seen, $m) !== 1) {
            $left = $deadline - \microtime(true);
            self::assertGreaterThan(0, $left, 'The server did not announce readiness: ' . $seen);
            $read = [$pipes[1]];
            $write = $except = null;
            if (@\stream_select($read, $write, $except, 0, (int) \min(1e6, $left * 1e6)) > 0) {
                $chunk = (string) \fread($pipes[1], 8192);
                self::assertFalse($chunk === '' && \feof($pipes[1]), 'The server ended: ' . $seen);
                $seen .= $chunk;
            }
        }

        return (int) $m[1];
    }

    private static function copy(string $from, string $to): void
    {
        \mkdir($to, 0777, true);
        foreach (new \DirectoryIterator($from) as $entry) {
            $name = $entry->getFilename();
            if ($entry->isDot() || \in_array($name, ['vendor', 'var', 'composer.shared.json', 'composer.shared.lock', 'composer.lock'], true)) {
                continue;
            }
            if ($entry->isDir()) {
                self::copy($entry->getPathname(), $to . '/' . $name);
            } else {
                \copy($entry->getPathname(), $to . '/' . $name);
            }
        }
    }

    private static function remove(string $path): void
    {
        if (\is_link($path) || \is_file($path)) {
            \unlink($path);

            return;
        }
        if (!\is_dir($path)) {
            return;
        }
        foreach (new \DirectoryIterator($path) as $entry) {
            if (!$entry->isDot()) {
                self::remove($entry->getPathname());
            }
        }
        \rmdir($path);
    }
}
