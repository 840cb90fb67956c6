<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Server\JitRestart;
use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\ServerProcess;

/**
 * `bin/spindle serve` started by a plain `php` (OPcache off for the CLI, as PHP ships) restarts
 * itself in place with OPcache, the tracing JIT and its larger trace budget; SPINDLE_JIT=0 keeps
 * the settings it was started with.
 */
final class JitRestartTest extends E2ETestCase
{
    public function testAPlainPhpRestartsWithTheJitAndItsTraceBudget(): void
    {
        if (!\extension_loaded('Zend OPcache') || \filter_var(\ini_get('opcache.enable_cli'), \FILTER_VALIDATE_BOOL)) {
            self::fail('this test needs OPcache installed and off for the CLI, as Debian ships PHP');
        }
        $server = ServerProcess::start(ServerProcess::fixture('php-settings.php'));
        $seen = self::settingsOf($server);

        self::assertSame(JitRestart::SETTINGS['opcache.jit_max_root_traces'], $seen['settings']['opcache.jit_max_root_traces']);
        self::assertSame(JitRestart::SETTINGS['opcache.jit_max_exit_counters'], $seen['settings']['opcache.jit_max_exit_counters']);
        self::assertSame('tracing', $seen['settings']['opcache.jit']);
        self::assertSame('1', $seen['settings']['opcache.enable_cli']);
        // The restart kept the process: the worker's parent is the process the test started.
        self::assertSame($server->pid(), $seen['ppid']);
    }

    public function testSpindleJitZeroKeepsTheSettingsItWasStartedWith(): void
    {
        \putenv('SPINDLE_JIT=0');
        try {
            $server = ServerProcess::start(ServerProcess::fixture('php-settings.php'));
        } finally {
            \putenv('SPINDLE_JIT');
        }
        $seen = self::settingsOf($server);

        self::assertSame(\ini_get('opcache.jit_max_root_traces'), $seen['settings']['opcache.jit_max_root_traces']);
        self::assertSame(\ini_get('opcache.enable_cli'), $seen['settings']['opcache.enable_cli']);
    }

    /** @return array{settings: array<string, string|false>, ppid: int} */
    private static function settingsOf(ServerProcess $server): array
    {
        $response = self::rawRequest($server, self::get('/', "Connection: close\r\n"));
        self::assertSame(200, $response->status, $response->raw);

        return \json_decode($response->body, true, 512, \JSON_THROW_ON_ERROR);
    }
}
