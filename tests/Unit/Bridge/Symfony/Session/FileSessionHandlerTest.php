<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Bridge\Symfony\Session;

use PHPUnit\Framework\TestCase;
use Spindle\Bridge\Symfony\Session\FileSessionHandler;

final class FileSessionHandlerTest extends TestCase
{
    private string $directory;

    protected function setUp(): void
    {
        $this->directory = \sys_get_temp_dir() . '/spindle-files-handler-' . \bin2hex(\random_bytes(4));
    }

    protected function tearDown(): void
    {
        if (!\is_dir($this->directory)) {
            return;
        }
        $entries = new \RecursiveIteratorIterator(
            new \RecursiveDirectoryIterator($this->directory, \FilesystemIterator::SKIP_DOTS),
            \RecursiveIteratorIterator::CHILD_FIRST,
        );
        foreach ($entries as $entry) {
            \assert($entry instanceof \SplFileInfo);
            $entry->isDir() ? \rmdir($entry->getPathname()) : \unlink($entry->getPathname());
        }
        \rmdir($this->directory);
    }

    public function testWritesReadsAndDestroysAsPhpsFilesHandlerNamesThem(): void
    {
        $handler = FileSessionHandler::fromSavePath($this->directory);
        self::assertTrue($handler->open($this->directory, 'PHPSESSID'));
        self::assertFalse($handler->validateId('abcdefghijklmnopqrstuvwxyz'));
        self::assertSame('', $handler->read('abcdefghijklmnopqrstuvwxyz'));
        self::assertTrue($handler->write('abcdefghijklmnopqrstuvwxyz', 'a|i:1;'));
        self::assertSame('a|i:1;', (string) \file_get_contents($this->directory . '/sess_abcdefghijklmnopqrstuvwxyz'));
        self::assertSame(0600, \fileperms($this->directory . '/sess_abcdefghijklmnopqrstuvwxyz') & 0777);
        self::assertSame('a|i:1;', $handler->read('abcdefghijklmnopqrstuvwxyz'));
        self::assertSame(['sess_abcdefghijklmnopqrstuvwxyz'], \array_values(\array_diff((array) \scandir($this->directory), ['.', '..'])), 'no temporary file left');
        self::assertTrue($handler->destroy('abcdefghijklmnopqrstuvwxyz'));
        self::assertFileDoesNotExist($this->directory . '/sess_abcdefghijklmnopqrstuvwxyz');
        self::assertTrue($handler->destroy('abcdefghijklmnopqrstuvwxyz'), 'destroying a missing session is no error');
        self::assertTrue($handler->close());
    }

    public function testReadsWhatPhpsFilesHandlerWrote(): void
    {
        \mkdir($this->directory);
        $script = 'session_id("nativenativenativenative01"); session_start(); $_SESSION["k"] = "v"; session_write_close();';
        $process = \proc_open([\PHP_BINARY, '-n', '-d', 'session.save_path=' . $this->directory, '-d', 'session.use_cookies=0', '-d', 'session.cache_limiter=', '-r', $script], [], $pipes);
        self::assertIsResource($process);
        self::assertSame(0, \proc_close($process));
        self::assertSame('k|s:1:"v";', FileSessionHandler::fromSavePath($this->directory)->read('nativenativenativenative01'));
    }

    public function testUnchangedSessionOnlyGetsItsTimeUpdated(): void
    {
        $handler = FileSessionHandler::fromSavePath($this->directory);
        $handler->open($this->directory, 'PHPSESSID');
        $file = $this->directory . '/sess_abcdefghijklmnopqrstuvwxyz';
        $handler->write('abcdefghijklmnopqrstuvwxyz', 'a|i:1;');
        \touch($file, \time() - 600);
        $inode = \fileinode($file);
        \clearstatcache();
        self::assertTrue($handler->updateTimestamp('abcdefghijklmnopqrstuvwxyz', 'a|i:1;'));
        \clearstatcache();
        self::assertSame($inode, \fileinode($file), 'not replaced');
        self::assertGreaterThan(\time() - 60, \filemtime($file));
        // Writing nothing deletes the session, as PHP's handler does in Symfony.
        self::assertTrue($handler->write('abcdefghijklmnopqrstuvwxyz', ''));
        self::assertFileDoesNotExist($file);
        self::assertTrue($handler->validateId('abcdefghijklmnopqrstuvwxyz') === false);
    }

    public function testDepthAndModeOfTheSavePath(): void
    {
        $handler = FileSessionHandler::fromSavePath('2;640;' . $this->directory);
        $handler->open($this->directory, 'PHPSESSID');
        \mkdir($this->directory . '/a/b', 0777, true);
        self::assertTrue($handler->write('abcdefghijklmnopqrstuvwxyz', 'x|b:1;'));
        self::assertFileExists($this->directory . '/a/b/sess_abcdefghijklmnopqrstuvwxyz');
        self::assertSame(0640, \fileperms($this->directory . '/a/b/sess_abcdefghijklmnopqrstuvwxyz') & 0777);
        self::assertSame(0, $handler->gc(0), 'PHP collects no garbage in subdirectories');
    }

    public function testIdsThatCouldNameAnotherFileAreRefused(): void
    {
        $handler = FileSessionHandler::fromSavePath($this->directory);
        $handler->open($this->directory, 'PHPSESSID');
        foreach (['../../etc/passwd', 'a/b', "abc\0def", 'abc.def'] as $id) {
            self::assertSame('', $handler->read($id), $id);
            self::assertFalse($handler->validateId($id), $id);
            self::assertFalse($handler->write($id, 'x'), $id);
        }
        self::assertSame(['.', '..'], \scandir($this->directory));
    }

    public function testGarbageCollectionRemovesOnlyOldSessions(): void
    {
        $handler = FileSessionHandler::fromSavePath($this->directory);
        $handler->open($this->directory, 'PHPSESSID');
        $handler->write('oldoldoldoldoldoldoldold01', 'a|b:1;');
        $handler->write('newnewnewnewnewnewnewnew01', 'a|b:1;');
        \file_put_contents($this->directory . '/other-file', 'kept');
        \touch($this->directory . '/sess_oldoldoldoldoldoldoldold01', \time() - 3600);
        \touch($this->directory . '/other-file', \time() - 3600);
        self::assertSame(1, $handler->gc(1440));
        self::assertFileDoesNotExist($this->directory . '/sess_oldoldoldoldoldoldoldold01');
        self::assertFileExists($this->directory . '/sess_newnewnewnewnewnewnewnew01');
        self::assertFileExists($this->directory . '/other-file');
    }

    public function testBadSavePaths(): void
    {
        foreach (['1;2;3;/tmp', 'x;/tmp', '1;999;/tmp'] as $path) {
            try {
                FileSessionHandler::fromSavePath($path);
                self::fail($path);
            } catch (\InvalidArgumentException) {
                self::assertTrue(true);
            }
        }
        self::assertSame(\rtrim(\sys_get_temp_dir(), '/'), FileSessionHandler::fromSavePath('')->directory);
    }
}
