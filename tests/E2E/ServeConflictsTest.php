<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\ServerProcess;

/**
 * A second `spindle serve` that cannot start (the port is taken, the pid file names a running
 * server) says why and exits 2, and the server already running goes on serving.
 */
final class ServeConflictsTest extends E2ETestCase
{
    public function testAPortInUse(): void
    {
        $first = self::sharedServer(ServerProcess::fixture('echo.php'));
        $second = ServerProcess::launch(ServerProcess::fixture('echo.php'), ['--port=' . $first->port()]);
        self::assertSame(2, $second->waitForExit(10.0), $second->stderr());
        self::assertStringContainsString(\sprintf('Cannot listen on 127.0.0.1:%d: Address already in use', $first->port()), $second->stderr());
        self::assertSame('', $second->stdout(), 'no readiness line');
        self::assertServerAnswers($first);
    }

    public function testAPidFileOfARunningServer(): void
    {
        $pidFile = \sys_get_temp_dir() . '/spindle-conflict-' . \getmypid() . '.pid';
        $first = self::sharedServer(ServerProcess::fixture('echo.php'), ['--pid-file=' . $pidFile]);
        $second = ServerProcess::launch(ServerProcess::fixture('echo.php'), ['--pid-file=' . $pidFile]);
        self::assertSame(2, $second->waitForExit(10.0), $second->stderr());
        self::assertStringContainsString(\sprintf('Spindle is already running with pid %d (pid file %s)', $first->pid(), $pidFile), $second->stderr());
        self::assertServerAnswers($first);
        self::assertSame((string) $first->pid(), \trim((string) \file_get_contents($pidFile)), 'the pid file is left alone');
    }
}
