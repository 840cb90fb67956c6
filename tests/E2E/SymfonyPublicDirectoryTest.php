<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\PublicDirectory;
use Spindle\Tests\E2E\Support\ServerProcess;
use Spindle\Tests\E2E\Support\SymfonyFixtureTestCase;

/**
 * The Symfony fixture's public/ under `spindle serve <directory>`: served with no option, its
 * index.php never as a file, the workers running in it (a relative move() lands there), and a
 * relative --static-dir taken as the app's whatever directory the server starts in. The same
 * through the Runtime is in SymfonyRuntimeTest.
 *
 * @group frameworks
 */
final class SymfonyPublicDirectoryTest extends SymfonyFixtureTestCase
{
    protected function tearDown(): void
    {
        PublicDirectory::removeUploads(self::public());
    }

    private static function public(): string
    {
        return self::app() . '/public';
    }

    private static function server(): ServerProcess
    {
        return self::sharedServer(self::app(), ['--workers=1']);
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
        // Started from the Laravel fixture: its own public/ is not the one to serve.
        $server = ServerProcess::start('../symfony-app', ['--static-dir=public'], \dirname(self::app()) . '/laravel-app');
        try {
            PublicDirectory::assertServesItsCss($server->port(), self::public());
            PublicDirectory::assertARelativeUploadIsServedBack($server->port(), self::public());
        } finally {
            $server->stop();
        }
    }

    public function testStaticDirNoneServesNoFiles(): void
    {
        $server = ServerProcess::start(self::app(), ['--static-dir=none']);
        try {
            PublicDirectory::assertCssIsNotServed($server->port());
        } finally {
            $server->stop();
        }
    }
}
