<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Supervisor;

use PHPUnit\Framework\TestCase;
use Spindle\Supervisor\ControlError;
use Spindle\Supervisor\RuntimeDirectory;

/**
 * The directory of default pid files and control sockets: created private, and refused when it
 * is a symlink, another user's, or writable by others. $XDG_RUNTIME_DIR points into a directory
 * of the test's own.
 */
final class RuntimeDirectoryTest extends TestCase
{
    private string $directory;
    private string|false $xdg;

    protected function setUp(): void
    {
        $this->directory = \sys_get_temp_dir() . '/spindle-rt-' . \bin2hex(\random_bytes(4));
        \mkdir($this->directory, 0700);
        $this->xdg = \getenv('XDG_RUNTIME_DIR');
    }

    protected function tearDown(): void
    {
        \putenv($this->xdg === false ? 'XDG_RUNTIME_DIR' : 'XDG_RUNTIME_DIR=' . $this->xdg);
        \exec('rm -rf ' . \escapeshellarg($this->directory));
    }

    public function testXdgRuntimeDirWhenItIsPrivate(): void
    {
        \putenv('XDG_RUNTIME_DIR=' . $this->directory);
        self::assertSame($this->directory . '/spindle', RuntimeDirectory::candidates()[0]);
        self::assertSame($this->directory . '/spindle', RuntimeDirectory::forServer());
        self::assertSame(0700, \fileperms($this->directory . '/spindle') & 0777);
        self::assertSame(\posix_geteuid(), \fileowner($this->directory . '/spindle'));
        self::assertSame($this->directory . '/spindle', RuntimeDirectory::forServer(), 'an existing private directory is used as it is');

        // Not usable: relative, missing, or writable by others (then the next place is used).
        foreach (['relative/dir', $this->directory . '/missing', '/tmp'] as $unusable) {
            \putenv('XDG_RUNTIME_DIR=' . $unusable);
            self::assertNotSame($unusable . '/spindle', RuntimeDirectory::candidates()[0], $unusable);
        }
    }

    public function testRootUsesRunSpindleAndEveryUserHasATempDirectoryOfItsOwn(): void
    {
        \putenv('XDG_RUNTIME_DIR');
        $candidates = RuntimeDirectory::candidates();
        self::assertSame(\rtrim(\sys_get_temp_dir(), '/') . '/spindle-' . \posix_geteuid(), \end($candidates));
        if (\posix_geteuid() === 0) {
            self::assertSame('/run/spindle', $candidates[0]);
        } else {
            self::assertCount(1, $candidates);
        }
    }

    /** What another local user could plant at the directory's name: each is refused, and left as it is. */
    public function testUnsafeDirectoriesAreRefused(): void
    {
        \putenv('XDG_RUNTIME_DIR=' . $this->directory);
        $path = $this->directory . '/spindle';
        $elsewhere = $this->directory . '/elsewhere';
        \mkdir($elsewhere, 0700);

        \symlink($elsewhere, $path);
        $this->assertRefused('it is a symbolic link');
        self::assertTrue(\is_link($path));
        \unlink($path);

        \touch($path);
        $this->assertRefused('it is not a directory');
        \unlink($path);

        \mkdir($path, 0700);
        \chmod($path, 0770);
        $this->assertRefused('other users can write to it (mode 770)');
        \chmod($path, 0703);
        $this->assertRefused('other users can write to it (mode 703)');
        \chmod($path, 0755);
        self::assertSame($path, RuntimeDirectory::forServer(), 'readable by others is fine: the socket itself is 0600');

        if (\posix_geteuid() !== 0) {
            return;
        }
        \chown($path, 65534);
        $this->assertRefused('it belongs to uid 65534, not to uid 0');
    }

    private function assertRefused(string $why): void
    {
        try {
            RuntimeDirectory::forServer();
            self::fail('Accepted: ' . $why);
        } catch (ControlError $e) {
            self::assertSame(\sprintf(
                'Refusing to keep the pid file and control socket in %s/spindle: %s. Remove it, or give --pid-file',
                $this->directory,
                $why,
            ), $e->getMessage());
        }
    }
}
