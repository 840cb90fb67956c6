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
            if (\is_file($file)) {
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

    public function testRefusesAFileNamingAnotherLiveProcess(): void
    {
        $other = \posix_getppid();
        \file_put_contents($this->path, "$other\n");
        try {
            PidFile::write($this->path, \posix_getpid());
            self::fail('The pid file of a live process was overwritten');
        } catch (ControlError $e) {
            self::assertSame(\sprintf('Spindle is already running with pid %d (pid file %s)', $other, $this->path), $e->getMessage());
        }
        self::assertSame("$other\n", \file_get_contents($this->path));
        self::assertTrue(PidFile::isRunning($other));
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
        self::assertSame(\sys_get_temp_dir() . '/spindle-8080.pid', PidFile::defaultPath(8080));
        self::assertSame(\sys_get_temp_dir() . '/spindle-8080.sock', PidFile::socketPath(PidFile::defaultPath(8080)));
    }

    /** @return list<string> */
    private function files(): array
    {
        return \array_values(\array_diff(\scandir($this->directory) ?: [], ['.', '..']));
    }
}
