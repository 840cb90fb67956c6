<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Server;

use PHPUnit\Framework\TestCase;
use Spindle\Server\AppPaths;
use Spindle\Server\ServerError;

/** Where an app runs and which files are served ahead of it, from the app and --static-dir. */
final class AppPathsTest extends TestCase
{
    private string $base;

    protected function setUp(): void
    {
        $this->base = (string) \realpath(\sys_get_temp_dir()) . '/spindle-app-paths-' . \bin2hex(\random_bytes(6));
        foreach (['app/public/css', 'app/assets', 'bare', 'shell/public', 'shell/assets', 'none'] as $directory) {
            \mkdir($this->base . '/' . $directory, 0o777, true);
        }
        \file_put_contents($this->base . '/shell/app.php', '<?php');
    }

    protected function tearDown(): void
    {
        \exec('rm -rf ' . \escapeshellarg($this->base));
    }

    public function testAnAppDirectoryRunsInItsPublicDirectoryAndServesIt(): void
    {
        $paths = AppPaths::resolve($this->base . '/app', null, $this->base . '/shell');
        self::assertSame($this->base . '/app/public', $paths->workingDirectory);
        self::assertSame($this->base . '/app/public', $paths->staticDir);
    }

    public function testARelativeStaticDirIsADirectoryOfTheApp(): void
    {
        $shell = $this->base . '/shell';
        self::assertSame($this->base . '/app/public', AppPaths::resolve($this->base . '/app/', 'public', $shell)->staticDir);
        self::assertSame($this->base . '/app/assets', AppPaths::resolve($this->base . '/app', 'assets', $shell)->staticDir);
        self::assertSame($this->base . '/app/public/css', AppPaths::resolve($this->base . '/app', './public/css/', $shell)->staticDir);
        self::assertSame($this->base . '/shell/assets', AppPaths::resolve($this->base . '/app', '../shell/assets', $shell)->staticDir);
    }

    public function testAnAbsoluteStaticDirIsKept(): void
    {
        $paths = AppPaths::resolve($this->base . '/app', $this->base . '/shell/assets', $this->base);
        self::assertSame($this->base . '/shell/assets', $paths->staticDir);
        self::assertSame($this->base . '/app/public', $paths->workingDirectory);
    }

    public function testNoneServesNoFiles(): void
    {
        $paths = AppPaths::resolve($this->base . '/app', AppPaths::NO_STATIC_DIR, $this->base);
        self::assertNull($paths->staticDir);
        self::assertSame($this->base . '/app/public', $paths->workingDirectory, 'the app still runs in public/');
        self::assertNull(AppPaths::resolve($this->base . '/shell/app.php', 'none', $this->base . '/shell')->staticDir);
        self::assertSame($this->base . '/none', AppPaths::resolve($this->base . '/app', '../none', $this->base)->staticDir, 'a directory named none, given as a path');
    }

    public function testAnAppDirectoryWithoutPublicRunsInItselfAndServesNothing(): void
    {
        $paths = AppPaths::resolve($this->base . '/bare', null, $this->base);
        self::assertSame($this->base . '/bare', $paths->workingDirectory);
        self::assertNull($paths->staticDir);
    }

    public function testASingleFileAppStaysInTheCurrentDirectoryAndResolvesAgainstIt(): void
    {
        $app = $this->base . '/shell/app.php';
        $paths = AppPaths::resolve($app, null, $this->base);
        self::assertSame($this->base, $paths->workingDirectory);
        self::assertNull($paths->staticDir, 'no files by default, even with a public/ beside the file');
        self::assertSame($this->base . '/shell/assets', AppPaths::resolve($app, 'shell/assets', $this->base)->staticDir);
    }

    /** @return iterable<string, array{string, string|null, string}> */
    public static function missingDirectories(): iterable
    {
        yield 'relative to the app' => ['app', 'static', '--static-dir static is not a directory (looked for {base}/app/static)'];
        yield 'relative to the current directory' => ['shell/app.php', 'public/css', '--static-dir public/css is not a directory (looked for {base}/public/css)'];
        yield 'absolute' => ['app', '/nonexistent-spindle-dir', '--static-dir /nonexistent-spindle-dir is not a directory'];
        yield 'a file' => ['app', '../shell/app.php', '--static-dir ../shell/app.php is not a directory (looked for {base}/app/../shell/app.php)'];
    }

    /** @dataProvider missingDirectories */
    public function testAStaticDirThatIsNoDirectoryIsRefusedWithWhereItWasLookedFor(string $app, string $staticDir, string $message): void
    {
        $this->expectException(ServerError::class);
        $this->expectExceptionMessage(\str_replace('{base}', $this->base, $message));
        AppPaths::resolve($this->base . '/' . $app, $staticDir, $this->base);
    }
}
