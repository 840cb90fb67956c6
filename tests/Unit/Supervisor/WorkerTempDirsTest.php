<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Supervisor;

use PHPUnit\Framework\TestCase;
use Spindle\Supervisor\WorkerTempDirs;

/** Each worker's private temporary directory, and the master's sweep once the worker is gone. */
final class WorkerTempDirsTest extends TestCase
{
    private string $parent;

    protected function setUp(): void
    {
        $this->parent = \sys_get_temp_dir() . '/spindle-tempdirs-' . \bin2hex(\random_bytes(6));
        \mkdir($this->parent, 0700);
    }

    protected function tearDown(): void
    {
        \exec('rm -rf ' . \escapeshellarg($this->parent));
    }

    public function testEachWorkerGetsAPrivateDirectoryOfItsOwn(): void
    {
        $dirs = new WorkerTempDirs($this->parent);
        $a = $dirs->create();
        $b = $dirs->create();
        self::assertIsString($a);
        self::assertIsString($b);
        self::assertNotSame($a, $b);
        self::assertStringStartsWith($this->parent . '/spindle-worker-', $a);
        self::assertSame(0700, \fileperms($a) & 0777);
        self::assertTrue(\is_dir($a) && !\is_link($a));
    }

    public function testSweepRemovesTheFilesAndTheDirectoryWithoutFollowingLinks(): void
    {
        $dirs = new WorkerTempDirs($this->parent);
        $dir = $dirs->create();
        self::assertIsString($dir);
        \file_put_contents($dir . '/spindle-upload-1', 'a');
        \file_put_contents($dir . '/spindle-upload-2', 'b');
        $outside = $this->parent . '/precious';
        \file_put_contents($outside, 'keep me');
        \symlink($outside, $dir . '/link');

        self::assertSame(3, $dirs->sweep($dir));
        self::assertFileDoesNotExist($dir);
        self::assertSame('keep me', \file_get_contents($outside), 'a link is removed, not what it points to');
    }

    public function testSweepLeavesAloneWhatItDidNotMake(): void
    {
        $dirs = new WorkerTempDirs($this->parent);
        $other = $this->parent . '/not-ours';
        \mkdir($other);
        \file_put_contents($other . '/file', 'x');
        self::assertSame(0, $dirs->sweep($other));
        self::assertFileExists($other . '/file');

        $target = $this->parent . '/target';
        \mkdir($target);
        \file_put_contents($target . '/file', 'x');
        \symlink($target, $this->parent . '/spindle-worker-planted');
        self::assertSame(0, $dirs->sweep($this->parent . '/spindle-worker-planted'), 'a planted link is not followed');
        self::assertFileExists($target . '/file');
    }

    public function testNoDirectoryWhereThereIsNoRoom(): void
    {
        self::assertNull((new WorkerTempDirs($this->parent . '/missing'))->create());
    }
}
