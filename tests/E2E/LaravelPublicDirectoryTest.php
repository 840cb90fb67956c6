<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\LaravelFixture;
use Spindle\Tests\E2E\Support\PublicDirectory;
use Spindle\Tests\E2E\Support\ServerProcess;

/**
 * The Laravel fixture's public/ under `spindle serve <directory>`: served with no option, its
 * index.php never as a file, the workers running in it (a relative move() lands there), and a
 * relative --static-dir taken as the app's whatever directory the server starts in.
 */
final class LaravelPublicDirectoryTest extends E2ETestCase
{
    protected function setUp(): void
    {
        LaravelFixture::useTestDatabase();
    }

    protected function tearDown(): void
    {
        PublicDirectory::removeUploads(self::public());
    }

    private static function public(): string
    {
        return LaravelFixture::path() . '/public';
    }

    private static function server(): ServerProcess
    {
        return self::sharedServer(LaravelFixture::path(), ['--workers=1']);
    }

    public function testPublicFilesAreServedWithNoOption(): void
    {
        PublicDirectory::assertServesItsCss(self::server()->port(), self::public());
    }

    public function testTheFrontControllerIsNeverServedAsAFile(): void
    {
        PublicDirectory::assertFrontControllerIsNotServed(self::server()->port(), self::public());
    }

    public function testAFileMovedToARelativePathIsServedBack(): void
    {
        PublicDirectory::assertARelativeUploadIsServedBack(self::server()->port(), self::public());
    }

    public function testARelativeStaticDirIsTheAppsFromAnotherDirectory(): void
    {
        // Started from the Symfony fixture: its own public/ is not the one to serve.
        $elsewhere = \dirname(LaravelFixture::path()) . '/symfony-app';
        $server = ServerProcess::start('../laravel-app', ['--static-dir=public'], $elsewhere);
        try {
            PublicDirectory::assertServesItsCss($server->port(), self::public());
            PublicDirectory::assertARelativeUploadIsServedBack($server->port(), self::public());
        } finally {
            $server->stop();
        }
    }

    public function testStaticDirNoneServesNoFiles(): void
    {
        $server = ServerProcess::start(LaravelFixture::path(), ['--static-dir=none']);
        try {
            PublicDirectory::assertCssIsNotServed($server->port());
        } finally {
            $server->stop();
        }
    }
}
