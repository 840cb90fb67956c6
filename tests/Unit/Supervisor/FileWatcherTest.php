<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Supervisor;

use PHPUnit\Framework\TestCase;
use Spindle\Supervisor\FileWatcher;

/**
 * Both modes see the same changes. Each expected report is awaited by polling changed() with a
 * deadline; changes that must not be reported are made before a change that must, so the
 * next report shows they were left out without waiting for nothing.
 */
final class FileWatcherTest extends TestCase
{
    private string $directory;
    private ?FileWatcher $watcher = null;

    protected function setUp(): void
    {
        $this->directory = \sys_get_temp_dir() . '/spindle-watch-' . \bin2hex(\random_bytes(4));
        foreach (['', '/sub', '/vendor/acme', '/.git', '/sub/vendor'] as $directory) {
            \mkdir($this->directory . $directory, 0777, true);
        }
        foreach (['a.php', 'notes.txt', 'sub/c.php', 'vendor/acme/v.php', '.git/g.php', 'sub/vendor/w.php', '.env'] as $file) {
            \file_put_contents($this->directory . '/' . $file, "<?php // 1\n");
        }
    }

    protected function tearDown(): void
    {
        $this->watcher?->close();
        $this->watcher = null;
        $this->remove($this->directory);
    }

    /** @return array<string, array{?string}> */
    public static function modes(): array
    {
        return ['polling' => [null], 'inotify' => ['inotifywait']];
    }

    /** @dataProvider modes */
    public function testReportsChangedFiles(?string $inotifywait): void
    {
        $this->watcher = $watcher = $this->start($inotifywait);
        $dir = $this->directory;

        // Same size, same second: only polling's hash of recently modified files sees this one.
        \file_put_contents("$dir/a.php", "<?php // 2\n");
        self::assertSame(["$dir/a.php"], $this->nextReport($watcher));

        // Not watched: other extensions, dot-directories, vendor directories.
        \file_put_contents("$dir/notes.txt", 'changed');
        \file_put_contents("$dir/vendor/acme/v.php", '<?php // changed');
        \file_put_contents("$dir/.git/g.php", '<?php // changed');
        \file_put_contents("$dir/sub/vendor/w.php", '<?php // changed');
        \file_put_contents("$dir/new.php", '<?php // new');
        self::assertSame(["$dir/new.php"], $this->nextReport($watcher), 'a.php is reported once; unwatched files never');

        // One save touching several files is one report.
        \file_put_contents("$dir/sub/c.php", '<?php // changed');
        \file_put_contents("$dir/.env", 'APP_DEBUG=1');
        \unlink("$dir/new.php");
        self::assertSame(["$dir/.env", "$dir/new.php", "$dir/sub/c.php"], $this->nextReport($watcher));

        // A rename into place (editors save this way).
        \file_put_contents("$dir/sub/tmp.swp", '<?php // renamed');
        \rename("$dir/sub/tmp.swp", "$dir/sub/c.php");
        self::assertSame(["$dir/sub/c.php"], $this->nextReport($watcher));

        self::assertSame([], $watcher->changed());
        $watcher->close();
        self::assertNull($watcher->stream());
    }

    public function testPollingWhenAskedOrWhenInotifywaitIsMissing(): void
    {
        $this->watcher = $forced = new FileWatcher([$this->directory], inotifywait: null);
        self::assertSame(FileWatcher::MODE_POLLING, $forced->mode());
        self::assertNull($forced->stream());
        $forced->close();

        $this->watcher = $missing = new FileWatcher([$this->directory], inotifywait: $this->directory . '/no/inotifywait');
        self::assertSame(FileWatcher::MODE_POLLING, $missing->mode());
        self::assertStringContainsString('was not found (install inotify-tools)', (string) $missing->fallbackReason());
    }

    public function testFallsBackToPollingWhenInotifywaitFails(): void
    {
        $fake = $this->directory . '/fake-inotifywait';
        \file_put_contents($fake, "#!/bin/sh\necho 'Failed to watch x; upper limit on inotify watches reached!' >&2\nexit 1\n");
        \chmod($fake, 0755);

        $this->watcher = $watcher = new FileWatcher([$this->directory], pollInterval: 0.1, inotifywait: $fake);
        self::assertSame(FileWatcher::MODE_POLLING, $watcher->mode());
        self::assertNull($watcher->stream());
        self::assertStringContainsString('upper limit on inotify watches reached', (string) $watcher->fallbackReason());

        \file_put_contents($this->directory . '/b.php', '<?php');
        self::assertSame([$this->directory . '/b.php'], $this->nextReport($watcher));
    }

    public function testWatchesASingleFileWhateverItsExtension(): void
    {
        foreach ([null, 'inotifywait'] as $inotifywait) {
            $this->watcher = $watcher = $this->start($inotifywait, [$this->directory . '/notes.txt']);
            \file_put_contents($this->directory . '/notes.txt', 'changed ' . \var_export($inotifywait, true));
            self::assertSame([$this->directory . '/notes.txt'], $this->nextReport($watcher), \var_export($inotifywait, true));
            $watcher->close();
        }
    }

    public function testMissingPathIsRefused(): void
    {
        $this->expectException(\InvalidArgumentException::class);
        $this->expectExceptionMessage('Cannot watch ' . $this->directory . '/nope: no such file or directory');
        new FileWatcher([$this->directory . '/nope']);
    }

    /** @param list<string>|null $paths */
    private function start(?string $inotifywait, ?array $paths = null): FileWatcher
    {
        if ($inotifywait !== null && !\is_executable('/usr/bin/inotifywait') && \shell_exec('command -v inotifywait') === null) {
            self::markTestSkipped('inotifywait is not installed (Debian package inotify-tools)');
        }
        $watcher = new FileWatcher($paths ?? [$this->directory], pollInterval: 0.1, inotifywait: $inotifywait);
        self::assertSame($inotifywait === null ? FileWatcher::MODE_POLLING : FileWatcher::MODE_INOTIFY, $watcher->mode(), (string) $watcher->fallbackReason());
        self::assertSame($inotifywait === null, $watcher->stream() === null);

        return $watcher;
    }

    /** @return list<string> */
    private function nextReport(FileWatcher $watcher): array
    {
        $deadline = \microtime(true) + 5;
        while (\microtime(true) < $deadline) {
            $changed = $watcher->changed();
            if ($changed !== []) {
                return $changed;
            }
            \usleep(50_000);
        }
        self::fail('No change was reported within 5 s');
    }

    private function remove(string $path): void
    {
        if (\is_dir($path) && !\is_link($path)) {
            foreach (\array_diff(\scandir($path) ?: [], ['.', '..']) as $entry) {
                $this->remove($path . '/' . $entry);
            }
            \rmdir($path);
        } elseif (\file_exists($path) || \is_link($path)) {
            \unlink($path);
        }
    }
}
