<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Supervisor;

use PHPUnit\Framework\TestCase;
use Spindle\Supervisor\ControlError;
use Spindle\Supervisor\PidFile;

final class PidFileTest extends TestCase
{
    /** Above any pid_max (2^22 at most): no such process. */
    private const DEAD_PID = 2_147_483_000;

    private string $directory;
    private string $path;

    protected function setUp(): void
    {
        $this->directory = \sys_get_temp_dir() . '/spindle-pid-' . \bin2hex(\random_bytes(4));
        \mkdir($this->directory);
        $this->path = $this->directory . '/spindle.pid';
    }

    protected function tearDown(): void
    {
        foreach (\glob($this->directory . '/{,.}*', \GLOB_BRACE) ?: [] as $file) {
            if (\is_file($file) || \is_link($file)) {
                \unlink($file);
            }
        }
        \rmdir($this->directory);
    }

    public function testWriteReadRemove(): void
    {
        self::assertNull(PidFile::read($this->path));

        PidFile::write($this->path, \posix_getpid());
        self::assertSame(\posix_getpid() . "\n", \file_get_contents($this->path));
        self::assertSame(\posix_getpid(), PidFile::read($this->path));
        self::assertSame(['spindle.pid'], $this->files(), 'no temporary file is left behind');

        // Rewriting our own pid, or writing over our own pid, is fine.
        PidFile::write($this->path, \posix_getpid());
        PidFile::write($this->path, self::DEAD_PID);
        self::assertSame(self::DEAD_PID, PidFile::read($this->path));
        PidFile::write($this->path, \posix_getpid());

        self::assertFalse(PidFile::remove($this->path, \posix_getpid() + 1), 'another pid: the file stays');
        self::assertFileExists($this->path);
        self::assertTrue(PidFile::remove($this->path, \posix_getpid()));
        self::assertFileDoesNotExist($this->path);
        self::assertFalse(PidFile::remove($this->path, \posix_getpid()));
    }

    public function testRefusesAFileNamingALiveSpindleServer(): void
    {
        // A process whose command line is that of `spindle serve` (it only sleeps).
        $process = \proc_open([\PHP_BINARY, '-r', 'sleep(30);', '/opt/app/vendor/bin/spindle', 'serve', 'app.php'], [], $pipes);
        self::assertIsResource($process);
        $other = \proc_get_status($process)['pid'];
        try {
            self::assertTrue(self::eventually(static fn (): bool => \str_contains((string) @\file_get_contents("/proc/{$other}/cmdline"), 'serve')));
            self::assertTrue(PidFile::isSpindleServer($other));
            \file_put_contents($this->path, "$other\n");
            try {
                PidFile::write($this->path, \posix_getpid());
                self::fail('The pid file of a live server was overwritten');
            } catch (ControlError $e) {
                self::assertSame(\sprintf('Spindle is already running with pid %d (pid file %s)', $other, $this->path), $e->getMessage());
            }
            self::assertSame("$other\n", \file_get_contents($this->path));
        } finally {
            \proc_terminate($process, \SIGKILL);
            \proc_close($process);
        }
    }

    public function testRefusesWhileTheControlSocketNextToItAnswers(): void
    {
        $socket = \stream_socket_server('unix://' . PidFile::socketPath($this->path));
        self::assertIsResource($socket);
        try {
            \file_put_contents($this->path, self::DEAD_PID . "\n");
            $this->expectException(ControlError::class);
            $this->expectExceptionMessage(\sprintf('Another Spindle master is running at %s (pid file %s)', PidFile::socketPath($this->path), $this->path));
            PidFile::write($this->path, \posix_getpid());
        } finally {
            \fclose($socket);
            @\unlink(PidFile::socketPath($this->path));
        }
    }

    /**
     * A pid file naming a live process that is not a Spindle server (pid 1, the shell that ran
     * the tests) is stale: pids are reused, and any user could write one. It must not stop a start.
     */
    public function testReplacesAFileNamingALiveProcessThatIsNoSpindleServer(): void
    {
        foreach ([1, \posix_getppid()] as $other) {
            self::assertTrue(PidFile::isRunning($other));
            self::assertFalse(PidFile::isSpindleServer($other), (string) @\file_get_contents("/proc/{$other}/cmdline"));
            \file_put_contents($this->path, "$other\n");
            PidFile::write($this->path, \posix_getpid());
            self::assertSame(\posix_getpid(), PidFile::read($this->path));
        }
    }

    /** Symlinks planted at the pid file or at any name next to it are never written through. */
    public function testPlantedSymlinksAreNotFollowed(): void
    {
        $target = $this->directory . '/target';
        \file_put_contents($target, "precious\n");
        \chmod($target, 0600);
        \symlink($target, $this->path);
        self::assertNull(PidFile::read($this->path), 'a symlink is not read as a pid file');
        PidFile::write($this->path, \posix_getpid());
        self::assertSame("precious\n", \file_get_contents($target));
        self::assertSame(0600, \fileperms($target) & 0777);
        self::assertFalse(\is_link($this->path), 'the symlink itself was replaced');
        self::assertSame(\posix_getpid(), PidFile::read($this->path));
        self::assertSame(0644, \fileperms($this->path) & 0777);
        self::assertSame(['spindle.pid', 'target'], $this->files());
        // The temporary name is random: a symlink at the old fixed name changes nothing.
        \symlink($target, \sprintf('%s/.spindle.pid.%d.tmp', $this->directory, \posix_getpid()));
        PidFile::write($this->path, \posix_getpid());
        self::assertSame("precious\n", \file_get_contents($target));
        self::assertTrue(PidFile::remove($this->path, \posix_getpid()));
        self::assertFileExists($target);
    }

    public function testReplacesAFileNamingADeadProcessOrGarbage(): void
    {
        self::assertFalse(PidFile::isRunning(self::DEAD_PID));
        \file_put_contents($this->path, self::DEAD_PID . "\n");
        PidFile::write($this->path, \posix_getpid());
        self::assertSame(\posix_getpid(), PidFile::read($this->path));

        foreach (['', 'abc', '-5', '0', "12\n13\n", '1.5'] as $garbage) {
            \file_put_contents($this->path, $garbage);
            self::assertNull(PidFile::read($this->path), \var_export($garbage, true));
        }
        PidFile::write($this->path, \posix_getpid());
        self::assertSame(\posix_getpid(), PidFile::read($this->path));
        \file_put_contents($this->path, " 42 \n");
        self::assertSame(42, PidFile::read($this->path));
    }

    public function testUnwritableLocationIsAControlError(): void
    {
        $this->expectException(ControlError::class);
        $this->expectExceptionMessage('Cannot write the pid file ' . $this->directory . '/missing/spindle.pid');
        PidFile::write($this->directory . '/missing/spindle.pid', \posix_getpid());
    }

    public function testPaths(): void
    {
        self::assertSame('/run/spindle.sock', PidFile::socketPath('/run/spindle.pid'));
        self::assertSame('/run/spindle.sock', PidFile::socketPath('/run/spindle'));
        self::assertSame('/run/app.pidfile.sock', PidFile::socketPath('/run/app.pidfile'));

        // The default lives in the runtime directory, created private when missing.
        \chmod($this->directory, 0700);
        $xdg = \getenv('XDG_RUNTIME_DIR');
        \putenv('XDG_RUNTIME_DIR=' . $this->directory);
        try {
            self::assertSame($this->directory . '/spindle/8080.pid', PidFile::find(8080), 'the preferred place, nothing created');
            self::assertDirectoryDoesNotExist($this->directory . '/spindle');
            self::assertSame($this->directory . '/spindle/8080.pid', PidFile::defaultPath(8080));
            self::assertSame(0700, \fileperms($this->directory . '/spindle') & 0777);
            self::assertSame($this->directory . '/spindle/8080.sock', PidFile::socketPath(PidFile::defaultPath(8080)));
        } finally {
            \putenv($xdg === false ? 'XDG_RUNTIME_DIR' : 'XDG_RUNTIME_DIR=' . $xdg);
            @\rmdir($this->directory . '/spindle');
        }
    }

    private static function eventually(\Closure $condition): bool
    {
        $deadline = \microtime(true) + 10.0;
        while (!$condition()) {
            if (\microtime(true) > $deadline) {
                return false;
            }
            \usleep(10_000);
        }

        return true;
    }

    /** @return list<string> */
    private function files(): array
    {
        return \array_values(\array_diff(\scandir($this->directory) ?: [], ['.', '..']));
    }
}
