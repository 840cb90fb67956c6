<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Http;

use PHPUnit\Framework\TestCase;
use Spindle\Http\FileBody;
use Spindle\Http\Request;
use Spindle\Http\Response;
use Spindle\Http\StaticFiles\StaticFileHandler;

/**
 * Symlinks in the static root with owners that differ, made real: a temporary local user is
 * created (useradd) for the class and removed after it, and links and files are given to it with
 * lchown()/chown(). A link is followed only when it and what it leads to have the same owner
 * (nginx's "disable_symlinks if_not_owner"), whoever that owner is.
 */
final class StaticFileSymlinkTest extends TestCase
{
    private static ?string $user = null;
    private static int $uid = 0;
    private static string $skip = '';

    private string $base;
    private string $root;
    private string $secret;
    private StaticFileHandler $handler;

    public static function setUpBeforeClass(): void
    {
        if (\posix_geteuid() !== 0) {
            self::$skip = 'links owned by another user can only be made as root (lchown), and the tests run as uid ' . \posix_geteuid();

            return;
        }
        $useradd = self::which('useradd');
        if ($useradd === null) {
            self::$skip = 'useradd is not installed (the passwd package), so no other local user can be made';

            return;
        }
        $name = 'spindle-t' . \bin2hex(\random_bytes(3));
        [$code, $output] = self::command([$useradd, '--system', '--no-create-home', '--shell', '/usr/sbin/nologin', $name]);
        $entry = \posix_getpwnam($name);
        if ($code !== 0 || $entry === false) {
            self::$skip = 'useradd could not create a user: ' . \trim($output);

            return;
        }
        self::$user = $name;
        self::$uid = $entry['uid'];
    }

    public static function tearDownAfterClass(): void
    {
        if (self::$user !== null) {
            [$code, $output] = self::command([self::which('userdel') ?? 'userdel', self::$user]);
            $left = \posix_getpwnam(self::$user);
            self::$user = null;
            self::assertSame(0, $code, 'userdel: ' . $output);
            self::assertFalse($left, 'the temporary user was removed');
        }
    }

    protected function setUp(): void
    {
        if (self::$skip !== '') {
            self::markTestSkipped(self::$skip);
        }
        $this->base = \sys_get_temp_dir() . '/spindle-symlinks-' . \bin2hex(\random_bytes(6));
        $this->root = $this->base . '/public';
        $this->secret = $this->base . '/secret.txt';
        \mkdir($this->root, 0o755, true);
        \mkdir($this->base . '/storage/app/public/photos', 0o755, true);
        \file_put_contents($this->secret, 'TOP SECRET');
        \file_put_contents($this->root . '/hello.txt', 'hello');
        \file_put_contents($this->base . '/storage/app/public/photos/a.png', "\x89PNG");
        // What `php artisan storage:link` makes, owned as its target: followed.
        \symlink($this->base . '/storage/app/public', $this->root . '/storage');
        $this->handler = new StaticFileHandler($this->root);
    }

    protected function tearDown(): void
    {
        if (!isset($this->base)) {
            return;
        }
        $items = new \RecursiveIteratorIterator(
            new \RecursiveDirectoryIterator($this->base, \FilesystemIterator::SKIP_DOTS),
            \RecursiveIteratorIterator::CHILD_FIRST,
        );
        foreach ($items as $item) {
            \assert($item instanceof \SplFileInfo);
            $item->isDir() && !$item->isLink() ? \rmdir($item->getPathname()) : \unlink($item->getPathname());
        }
        \rmdir($this->base);
    }

    public function testALinkOwnedAsItsTargetIsFollowed(): void
    {
        $this->assertServes('/storage/photos/a.png', $this->base . '/storage/app/public/photos/a.png');
    }

    public function testALinkOwnedByAnotherUserIsNotFollowed(): void
    {
        // Planted by the other user next to the app's files, leading to the app owner's secret.
        \symlink($this->secret, $this->root . '/planted.txt');
        self::lchown($this->root . '/planted.txt');
        \symlink($this->base, $this->root . '/planted-dir');
        self::lchown($this->root . '/planted-dir');
        // Inside the root, to a file of the app owner: still a link of someone else.
        \symlink($this->root . '/hello.txt', $this->root . '/planted-in.txt');
        self::lchown($this->root . '/planted-in.txt');

        foreach (['/planted.txt', '/planted-dir/secret.txt', '/planted-dir/public/hello.txt', '/planted-in.txt'] as $path) {
            $this->assertNotServed($path);
        }
        $this->assertServes('/hello.txt', $this->root . '/hello.txt');
    }

    public function testALinkToAFileOfAnotherUserIsNotFollowed(): void
    {
        \chown($this->secret, self::$uid);
        \symlink($this->secret, $this->root . '/theirs.txt');
        $this->assertNotServed('/theirs.txt');
        // Through the storage link: the link is fine, the file behind a second link is not.
        \symlink($this->secret, $this->base . '/storage/app/public/photos/theirs.png');
        $this->assertNotServed('/storage/photos/theirs.png');
    }

    public function testEveryLinkOnThePathIsChecked(): void
    {
        // A directory link of the other user deep in the path, below a link that is fine.
        \mkdir($this->base . '/elsewhere');
        \file_put_contents($this->base . '/elsewhere/b.png', 'b');
        \symlink($this->base . '/elsewhere', $this->base . '/storage/app/public/more');
        self::lchown($this->base . '/storage/app/public/more');
        $this->assertNotServed('/storage/more/b.png');

        // The app's storage link itself planted by the other user.
        \unlink($this->root . '/storage');
        \symlink($this->base . '/storage/app/public', $this->root . '/storage');
        self::lchown($this->root . '/storage');
        $this->assertNotServed('/storage/photos/a.png');
    }

    public function testEachLinkOfAChainIsChecked(): void
    {
        // mine -> theirs -> the secret (mine): the last object has the first link's owner, but
        // the link in between is someone else's and could be turned to any of my files.
        \symlink($this->secret, $this->base . '/theirs-link');
        self::lchown($this->base . '/theirs-link');
        \symlink($this->base . '/theirs-link', $this->root . '/chain.txt');
        $this->assertNotServed('/chain.txt');
        // A chain whose links all have the owner of the file is followed.
        \symlink($this->root . '/hello.txt', $this->base . '/my-link');
        \symlink($this->base . '/my-link', $this->root . '/my-chain.txt');
        $this->assertServes('/my-chain.txt', $this->root . '/hello.txt');
    }

    /** The rule is equality: the other user's link to the other user's file is followed. */
    public function testALinkAndTargetOfTheSameOtherUserAreFollowed(): void
    {
        \mkdir($this->base . '/their-files');
        \file_put_contents($this->base . '/their-files/c.css', 'c{}');
        \chown($this->base . '/their-files', self::$uid);
        \chown($this->base . '/their-files/c.css', self::$uid);
        \symlink($this->base . '/their-files', $this->root . '/theirs');
        self::lchown($this->root . '/theirs');
        $this->assertServes('/theirs/c.css', $this->base . '/their-files/c.css');
    }

    public function testDotfilesAndPhpSourcesBehindAGoodLinkAreStillNotServed(): void
    {
        \file_put_contents($this->base . '/storage/app/public/.gitignore', '*');
        \file_put_contents($this->base . '/storage/app/public/shell.php', '<?php');
        \symlink('../../../.env', $this->base . '/storage/app/public/env.txt');
        \file_put_contents($this->base . '/.env', 'APP_KEY=secret');
        \mkdir($this->base . '/storage/app/.private');
        \file_put_contents($this->base . '/storage/app/.private/x.txt', 'x');
        \symlink('../.private', $this->base . '/storage/app/public/private');
        foreach (['/storage/.gitignore', '/storage/shell.php', '/storage/SHELL.PHP', '/storage/env.txt', '/storage/private/x.txt'] as $path) {
            $this->assertNotServed($path);
        }
    }

    /** A refused link is remembered as missing for MISS_TTL, like any path that is no file. */
    public function testARefusedLinkIsServedOnceItsOwnerIsRight(): void
    {
        // The handler reads a clock the test moves.
        $now = 5_000_000_000;
        $this->handler = new StaticFileHandler($this->root, null, null, static function () use (&$now): int {
            return $now;
        });
        \symlink($this->root . '/hello.txt', $this->root . '/later.txt');
        self::lchown($this->root . '/later.txt');
        $this->assertNotServed('/later.txt');
        \lchown($this->root . '/later.txt', 0);
        $this->assertNotServed('/later.txt');
        $now += (int) (StaticFileHandler::MISS_TTL * 1e9);
        $this->assertServes('/later.txt', $this->root . '/hello.txt');
    }

    private function assertServes(string $path, string $file): void
    {
        $response = $this->handler->handle(self::request($path));
        self::assertNotNull($response, $path);
        self::assertSame(200, $response->status, $path);
        self::assertInstanceOf(FileBody::class, $response->body, $path);
        self::assertSame(\realpath($file), $response->body->path, $path);
    }

    private function assertNotServed(string $path): void
    {
        foreach (['GET', 'HEAD'] as $method) {
            $response = $this->handler->handle(self::request($path, $method));
            self::assertFalse($response !== null && $response->body instanceof FileBody, $method . ' ' . $path . ' was served');
        }
    }

    private static function request(string $path, string $method = 'GET'): Request
    {
        return new Request(method: $method, target: $path, path: $path, query: '', protocolVersion: '1.1', headers: []);
    }

    private static function lchown(string $link): void
    {
        self::assertTrue(\lchown($link, self::$uid), 'lchown ' . $link);
        \clearstatcache();
        $stat = \lstat($link);
        self::assertIsArray($stat);
        self::assertSame(self::$uid, $stat['uid']);
    }

    private static function which(string $command): ?string
    {
        foreach (['/usr/sbin', '/sbin', '/usr/bin', '/bin'] as $dir) {
            if (\is_executable($dir . '/' . $command)) {
                return $dir . '/' . $command;
            }
        }

        return null;
    }

    /**
     * @param list<string> $command
     *
     * @return array{int, string}
     */
    private static function command(array $command): array
    {
        $process = \proc_open($command, [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['redirect', 1]], $pipes);
        if (!\is_resource($process)) {
            return [-1, 'could not start ' . $command[0]];
        }
        $output = (string) \stream_get_contents($pipes[1]);

        return [\proc_close($process), $output];
    }
}
