<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Http;

use PHPUnit\Framework\TestCase;
use Spindle\Http\FileBody;
use Spindle\Http\Request;
use Spindle\Http\Response;
use Spindle\Http\StaticFiles\MimeTypes;
use Spindle\Http\StaticFiles\StaticFileHandler;

final class StaticFileHandlerTest extends TestCase
{
    private const MTIME = 1_700_000_000;
    private const MTIME_HTTP = 'Tue, 14 Nov 2023 22:13:20 GMT';
    private const DATA = '0123456789abcdef';

    private string $base;
    private string $root;
    private string $secret;
    private StaticFileHandler $handler;

    protected function setUp(): void
    {
        $this->base = \sys_get_temp_dir() . '/spindle-static-' . \bin2hex(\random_bytes(6));
        $this->root = $this->base . '/public';
        $this->secret = $this->base . '/secret.txt';

        \mkdir($this->root . '/sub', 0o777, true);
        \mkdir($this->root . '/empty');
        \mkdir($this->root . '/.git');
        \file_put_contents($this->secret, 'TOP SECRET');

        $files = [
            'data.bin' => self::DATA,
            'hello.txt' => "Hello, world!\n",
            'page.html' => '<p>hi</p>',
            'style.css' => 'body{}',
            'app.js' => 'export {};',
            'module.mjs' => 'export {};',
            'data.json' => '{}',
            'image.svg' => '<svg/>',
            'image.png' => "\x89PNG",
            'photo.JPG' => "\xFF\xD8",
            'font.woff2' => 'wOF2',
            'archive.tar.gz' => "\x1F\x8B",
            'module.wasm' => "\0asm",
            'unknown.xyz' => 'x',
            'noext' => 'x',
            'empty.txt' => '',
            'with space.txt' => 'spaced',
            'sub/index.html' => '<h1>sub</h1>',
            'sub/page.txt' => 'sub page',
            '.env' => 'SECRET=1',
            '.git/config' => '[core]',
            'index.php' => '<?php echo "source";',
            'LEGACY.PHP' => '<?php',
            'page.phtml' => '<?php',
            'old.php5' => '<?php',
            'tool.phar' => '<?php',
            'sub/admin.php' => '<?php',
        ];
        foreach ($files as $name => $contents) {
            \file_put_contents($this->root . '/' . $name, $contents);
            \touch($this->root . '/' . $name, self::MTIME);
        }
        // Links leading out of the root, owned as their targets are: followed (as storage:link's).
        // StaticFileSymlinkTest covers links and targets of other owners.
        \mkdir($this->base . '/outside');
        \file_put_contents($this->base . '/outside/shared.txt', 'shared');
        \file_put_contents($this->base . '/outside/.hidden', 'hidden');
        \symlink($this->base . '/outside/shared.txt', $this->root . '/link-out.txt');
        \symlink($this->base . '/outside', $this->root . '/link-dir-out');
        \symlink('../outside/.hidden', $this->root . '/link-out-hidden.txt');
        \symlink('..', $this->root . '/link-up');
        \symlink($this->root . '/hello.txt', $this->root . '/link-in.txt');
        \symlink($this->root . '/.env', $this->root . '/env-link.txt');
        \symlink($this->root . '/index.php', $this->root . '/php-link.txt');
        \mkdir($this->root . '/dir.php');
        \file_put_contents($this->root . '/dir.php/index.html', '<h1>dir</h1>');

        $this->handler = new StaticFileHandler($this->root);
    }

    protected function tearDown(): void
    {
        $items = new \RecursiveIteratorIterator(
            new \RecursiveDirectoryIterator($this->base, \FilesystemIterator::SKIP_DOTS),
            \RecursiveIteratorIterator::CHILD_FIRST,
        );
        foreach ($items as $item) {
            \assert($item instanceof \SplFileInfo);
            if ($item->isDir() && !$item->isLink()) {
                \rmdir($item->getPathname());
            } else {
                \unlink($item->getPathname());
            }
        }
        \rmdir($this->base);
    }

    // ---- construction --------------------------------------------------------------------

    public function testConstructorRejectsMissingRoot(): void
    {
        $this->expectException(\InvalidArgumentException::class);
        $this->expectExceptionMessage($this->base . '/nope');
        new StaticFileHandler($this->base . '/nope');
    }

    public function testConstructorRejectsFileAsRoot(): void
    {
        $this->expectException(\InvalidArgumentException::class);
        $this->expectExceptionMessage($this->secret);
        new StaticFileHandler($this->secret);
    }

    public function testRootIsStoredAsRealPath(): void
    {
        $handler = new StaticFileHandler($this->root . '/sub/../');
        self::assertSame(\realpath($this->root), $handler->root());
    }

    // ---- basic serving ------------------------------------------------------------------

    public function testServesFileWithHeadersAndFileBody(): void
    {
        $response = $this->get('/hello.txt');

        self::assertSame(200, $response->status);
        self::assertSame('text/plain; charset=utf-8', $response->headers['Content-Type']);
        self::assertSame('nosniff', $response->headers['X-Content-Type-Options']);
        self::assertSame('bytes', $response->headers['Accept-Ranges']);
        self::assertSame(self::MTIME_HTTP, $response->headers['Last-Modified']);
        self::assertSame(\sprintf('"%x-%x"', self::MTIME, 14), $response->headers['ETag']);
        self::assertArrayNotHasKey('Content-Length', $response->headers);
        self::assertArrayNotHasKey('Cache-Control', $response->headers);
        $this->assertFileBody($response, $this->root . '/hello.txt', 0, 14);
    }

    public function testHeadReturnsSameHeadersAndFileBody(): void
    {
        $get = $this->get('/hello.txt');
        $head = $this->handle('HEAD', '/hello.txt');

        self::assertNotNull($head);
        self::assertSame(200, $head->status);
        self::assertSame($get->headers, $head->headers);
        $this->assertFileBody($head, $this->root . '/hello.txt', 0, 14);
    }

    public function testHeadIgnoresRange(): void
    {
        $head = $this->handle('HEAD', '/data.bin', ['range' => ['bytes=0-3']]);

        self::assertNotNull($head);
        self::assertSame(200, $head->status);
        $this->assertFileBody($head, $this->root . '/data.bin', 0, 16);
    }

    public function testPercentEncodedNameIsDecoded(): void
    {
        $response = $this->get('/with%20space.txt');
        $this->assertFileBody($response, $this->root . '/with space.txt', 0, 6);
    }

    public function testEmptyFile(): void
    {
        $response = $this->get('/empty.txt', ['range' => ['bytes=0-10']]);
        self::assertSame(200, $response->status);
        $this->assertFileBody($response, $this->root . '/empty.txt', 0, 0);
    }

    public function testSymlinkInsideRootIsServed(): void
    {
        $response = $this->get('/link-in.txt');
        $this->assertFileBody($response, \realpath($this->root . '/hello.txt') ?: '', 0, 14);
    }

    /** A link owned as its target is followed out of the root, as nginx's "disable_symlinks if_not_owner". */
    public function testSymlinksLeadingOutOfTheRootWithTheTargetsOwnerAreServed(): void
    {
        $shared = \realpath($this->base . '/outside/shared.txt') ?: '';
        $this->assertFileBody($this->get('/link-out.txt'), $shared, 0, 6);
        $this->assertFileBody($this->get('/link-dir-out/shared.txt'), $shared, 0, 6);
        // A relative link, and a link through a link.
        \symlink('../outside', $this->root . '/relative-out');
        \symlink('link-dir-out', $this->root . '/chain');
        $this->assertFileBody($this->get('/relative-out/shared.txt'), $shared, 0, 6);
        $this->assertFileBody($this->get('/chain/shared.txt'), $shared, 0, 6);
        self::assertSame('text/plain; charset=utf-8', $this->get('/chain/shared.txt')->headers['Content-Type']);
        // A directory reached through a link serves its index.html.
        \file_put_contents($this->base . '/outside/index.html', '<p>out</p>');
        $this->assertFileBody($this->get('/link-dir-out/'), \realpath($this->base . '/outside/index.html') ?: '', 0, 10);
    }

    public function testSymlinkLoopsAndDanglingLinksAreNotServed(): void
    {
        \symlink('loop-b', $this->root . '/loop-a');
        \symlink('loop-a', $this->root . '/loop-b');
        \symlink('self', $this->root . '/self');
        \symlink('.', $this->root . '/here');
        \symlink($this->base . '/nothing', $this->root . '/dangling');
        foreach (['/loop-a', '/loop-b/x', '/self', '/dangling', '/dangling/x', '/' . \str_repeat('here/', 50) . 'hello.txt'] as $path) {
            self::assertNull($this->handle('GET', $path), $path);
        }
        // A few hops are fine.
        $this->assertFileBody($this->get('/here/here/hello.txt'), $this->root . '/hello.txt', 0, 14);
    }

    /**
     * A path that was no file is remembered for MISS_TTL (no lstat() for it meanwhile); a file
     * created afterwards is served once that time has passed. The handler reads a clock the
     * test moves.
     */
    public function testAMissingPathIsRememberedForAShortWhile(): void
    {
        $now = 5_000_000_000;
        $this->handler = new StaticFileHandler($this->root, null, null, static function () use (&$now): int {
            return $now;
        });
        self::assertNull($this->handle('GET', '/later.txt'));
        \file_put_contents($this->root . '/later.txt', 'later');
        self::assertNull($this->handle('GET', '/later.txt'), 'remembered as missing');
        $now += (int) (StaticFileHandler::MISS_TTL * 1e9) - 1;
        self::assertNull($this->handle('GET', '/later.txt'), 'still remembered until MISS_TTL has passed');
        $now += 1;
        $this->assertFileBody($this->get('/later.txt'), $this->root . '/later.txt', 0, 5);
    }

    public function testCacheControlOption(): void
    {
        $handler = new StaticFileHandler($this->root, null, 'public, max-age=3600');

        $ok = $handler->handle($this->request('GET', '/hello.txt'));
        $partial = $handler->handle($this->request('GET', '/hello.txt', ['range' => ['bytes=0-1']]));
        $notModified = $handler->handle($this->request('GET', '/hello.txt', ['if-none-match' => ['*']]));

        self::assertNotNull($ok);
        self::assertNotNull($partial);
        self::assertNotNull($notModified);
        self::assertSame([200, 206, 304], [$ok->status, $partial->status, $notModified->status]);
        foreach ([$ok, $partial, $notModified] as $response) {
            self::assertSame('public, max-age=3600', $response->headers['Cache-Control']);
        }
    }

    public function testCacheControlRejectsHeaderInjection(): void
    {
        $this->expectException(\InvalidArgumentException::class);
        new StaticFileHandler($this->root, null, "public\r\nX-Evil: 1");
    }

    /** @return iterable<string, array{string}> */
    public static function nonGetMethods(): iterable
    {
        foreach (['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'get', 'TRACE'] as $method) {
            yield $method => [$method];
        }
    }

    /** @dataProvider nonGetMethods */
    public function testNonGetMethodsReturnNull(string $method): void
    {
        self::assertNull($this->handle($method, '/hello.txt'));
    }

    public function testMissingFileReturnsNull(): void
    {
        self::assertNull($this->handle('GET', '/missing.txt'));
        self::assertNull($this->handle('GET', '/sub/missing/'));
    }

    public function testFileWithTrailingSlashIsNotServed(): void
    {
        self::assertNull($this->handle('GET', '/hello.txt/'));
    }

    public function testPathWithoutLeadingSlashIsNotServed(): void
    {
        self::assertNull($this->handle('GET', '*'));
        self::assertNull($this->handle('GET', 'hello.txt'));
    }

    // ---- directories --------------------------------------------------------------------

    public function testDirectoryServesIndexHtml(): void
    {
        foreach (['/sub/', '/sub', '/sub/index.html'] as $path) {
            $response = $this->get($path);
            self::assertSame('text/html; charset=utf-8', $response->headers['Content-Type'], $path);
            $this->assertFileBody($response, $this->root . '/sub/index.html', 0, 12);
        }
    }

    public function testTheRootServesItsIndexHtml(): void
    {
        \file_put_contents($this->root . '/index.html', '<h1>root</h1>');
        $this->assertFileBody($this->get('/'), $this->root . '/index.html', 0, 13);
    }

    public function testDirectoryWithoutIndexReturnsNull(): void
    {
        self::assertNull($this->handle('GET', '/empty/'));
        self::assertNull($this->handle('GET', '/empty'));
        self::assertNull($this->handle('GET', '/'));
    }

    // ---- MIME types ---------------------------------------------------------------------

    /** @return iterable<string, array{string, string}> */
    public static function mimeCases(): iterable
    {
        yield 'html' => ['/page.html', 'text/html; charset=utf-8'];
        yield 'css' => ['/style.css', 'text/css; charset=utf-8'];
        yield 'js' => ['/app.js', 'text/javascript; charset=utf-8'];
        yield 'mjs' => ['/module.mjs', 'text/javascript; charset=utf-8'];
        yield 'json' => ['/data.json', 'application/json; charset=utf-8'];
        yield 'svg' => ['/image.svg', 'image/svg+xml; charset=utf-8'];
        yield 'png' => ['/image.png', 'image/png'];
        yield 'upper-case JPG' => ['/photo.JPG', 'image/jpeg'];
        yield 'woff2' => ['/font.woff2', 'font/woff2'];
        yield 'tar.gz' => ['/archive.tar.gz', 'application/gzip'];
        yield 'wasm' => ['/module.wasm', 'application/wasm'];
        yield 'unknown' => ['/unknown.xyz', 'application/octet-stream'];
        yield 'no extension' => ['/noext', 'application/octet-stream'];
    }

    /** @dataProvider mimeCases */
    public function testMimeTypes(string $path, string $expected): void
    {
        self::assertSame($expected, $this->get($path)->headers['Content-Type']);
    }

    public function testMimeTypeMap(): void
    {
        $types = new MimeTypes();
        $expected = [
            'a.htm' => 'text/html; charset=utf-8',
            'a.map' => 'application/json; charset=utf-8',
            'a.txt' => 'text/plain; charset=utf-8',
            'a.xml' => 'application/xml; charset=utf-8',
            'a.csv' => 'text/csv; charset=utf-8',
            'a.md' => 'text/markdown; charset=utf-8',
            'a.jpeg' => 'image/jpeg',
            'a.gif' => 'image/gif',
            'a.webp' => 'image/webp',
            'a.avif' => 'image/avif',
            'a.ico' => 'image/x-icon',
            'a.woff' => 'font/woff',
            'a.ttf' => 'font/ttf',
            'a.otf' => 'font/otf',
            'a.eot' => 'application/vnd.ms-fontobject',
            'a.pdf' => 'application/pdf',
            'a.zip' => 'application/zip',
            'a.mp4' => 'video/mp4',
            'a.webm' => 'video/webm',
            'a.mp3' => 'audio/mpeg',
            'a.ogg' => 'audio/ogg',
            'a.wav' => 'audio/wav',
            'dir.d/file' => 'application/octet-stream',
        ];
        foreach ($expected as $path => $type) {
            self::assertSame($type, $types->forPath($path), $path);
        }
    }

    public function testCustomMimeTypes(): void
    {
        $handler = new StaticFileHandler($this->root, new MimeTypes(['xyz' => 'text/x-custom', '.BIN' => 'application/x-data']));

        $xyz = $handler->handle($this->request('GET', '/unknown.xyz'));
        $bin = $handler->handle($this->request('GET', '/data.bin'));

        self::assertNotNull($xyz);
        self::assertNotNull($bin);
        self::assertSame('text/x-custom; charset=utf-8', $xyz->headers['Content-Type']);
        self::assertSame('application/x-data', $bin->headers['Content-Type']);
    }

    // ---- conditional requests -----------------------------------------------------------

    public function testIfNoneMatchReturns304(): void
    {
        $etag = $this->get('/hello.txt')->headers['ETag'];
        self::assertIsString($etag);

        foreach ([$etag, 'W/' . $etag, '"other", ' . $etag, '*', '"a,b", W/' . $etag] as $value) {
            $response = $this->get('/hello.txt', ['if-none-match' => [$value]]);
            $this->assertNotModified($response, $etag);
        }
    }

    public function testIfNoneMatchAcrossHeaderLines(): void
    {
        $etag = $this->get('/hello.txt')->headers['ETag'];
        self::assertIsString($etag);

        $response = $this->get('/hello.txt', ['if-none-match' => ['"nope"', $etag]]);
        $this->assertNotModified($response, $etag);
    }

    public function testIfNoneMatchMismatchServesFile(): void
    {
        $response = $this->get('/hello.txt', ['if-none-match' => ['"deadbeef-1"']]);
        self::assertSame(200, $response->status);
    }

    public function testIfModifiedSinceReturns304(): void
    {
        $etag = $this->get('/hello.txt')->headers['ETag'];
        self::assertIsString($etag);

        $notModified = [
            self::MTIME_HTTP,
            'Wed, 15 Nov 2023 00:00:00 GMT',
            'Tuesday, 14-Nov-23 22:13:20 GMT',
            'Tue Nov 14 22:13:20 2023',
        ];
        foreach ($notModified as $date) {
            $this->assertNotModified($this->get('/hello.txt', ['if-modified-since' => [$date]]), $etag);
        }
        // asctime pads a single-digit day with a space.
        self::assertSame(304, $this->get('/hello.txt', ['if-modified-since' => ['Sun Dec  3 00:00:00 2023']])->status);
    }

    public function testIfModifiedSinceOlderOrInvalidServesFile(): void
    {
        foreach (['Tue, 14 Nov 2023 22:13:19 GMT', 'garbage', '1700000000', 'Tue, 32 Nov 2023 22:13:20 GMT'] as $date) {
            self::assertSame(200, $this->get('/hello.txt', ['if-modified-since' => [$date]])->status, $date);
        }
    }

    public function testIfNoneMatchTakesPrecedenceOverIfModifiedSince(): void
    {
        // The date alone would give 304, but a non-matching If-None-Match decides.
        $response = $this->get('/hello.txt', [
            'if-none-match' => ['"other"'],
            'if-modified-since' => ['Wed, 15 Nov 2023 00:00:00 GMT'],
        ]);
        self::assertSame(200, $response->status);

        // And a matching If-None-Match gives 304 even when the date says "modified".
        $etag = $this->get('/hello.txt')->headers['ETag'];
        self::assertIsString($etag);
        $response = $this->get('/hello.txt', [
            'if-none-match' => [$etag],
            'if-modified-since' => ['Mon, 01 Jan 2001 00:00:00 GMT'],
        ]);
        self::assertSame(304, $response->status);
    }

    public function testHeadHonoursConditionals(): void
    {
        $response = $this->handle('HEAD', '/hello.txt', ['if-modified-since' => [self::MTIME_HTTP]]);
        self::assertNotNull($response);
        self::assertSame(304, $response->status);
    }

    public function testIfMatchAndIfUnmodifiedSince(): void
    {
        $etag = $this->get('/hello.txt')->headers['ETag'];
        self::assertIsString($etag);

        self::assertSame(200, $this->get('/hello.txt', ['if-match' => [$etag]])->status);
        self::assertSame(200, $this->get('/hello.txt', ['if-match' => ['*']])->status);
        self::assertSame(412, $this->get('/hello.txt', ['if-match' => ['"other"']])->status);
        self::assertSame(412, $this->get('/hello.txt', ['if-match' => ['W/' . $etag]])->status);
        self::assertSame(200, $this->get('/hello.txt', ['if-unmodified-since' => [self::MTIME_HTTP]])->status);
        self::assertSame(412, $this->get('/hello.txt', ['if-unmodified-since' => ['Mon, 01 Jan 2001 00:00:00 GMT']])->status);
    }

    // ---- ranges -------------------------------------------------------------------------

    public function testRangeFirstBytes(): void
    {
        $response = $this->get('/data.bin', ['range' => ['bytes=0-3']]);

        self::assertSame(206, $response->status);
        self::assertSame('bytes 0-3/16', $response->headers['Content-Range']);
        self::assertSame('application/octet-stream', $response->headers['Content-Type']);
        self::assertArrayHasKey('ETag', $response->headers);
        $this->assertFileBody($response, $this->root . '/data.bin', 0, 4);
    }

    public function testRangeMiddleAndClampedEnd(): void
    {
        $middle = $this->get('/data.bin', ['range' => ['bytes=4-7']]);
        self::assertSame('bytes 4-7/16', $middle->headers['Content-Range']);
        $this->assertFileBody($middle, $this->root . '/data.bin', 4, 4);

        $clamped = $this->get('/data.bin', ['range' => ['bytes=10-1000']]);
        self::assertSame('bytes 10-15/16', $clamped->headers['Content-Range']);
        $this->assertFileBody($clamped, $this->root . '/data.bin', 10, 6);

        $huge = $this->get('/data.bin', ['range' => ['bytes=2-99999999999999999999999']]);
        self::assertSame('bytes 2-15/16', $huge->headers['Content-Range']);
    }

    public function testRangeSuffix(): void
    {
        $response = $this->get('/data.bin', ['range' => ['bytes=-5']]);
        self::assertSame(206, $response->status);
        self::assertSame('bytes 11-15/16', $response->headers['Content-Range']);
        $this->assertFileBody($response, $this->root . '/data.bin', 11, 5);

        $whole = $this->get('/data.bin', ['range' => ['bytes=-100']]);
        self::assertSame('bytes 0-15/16', $whole->headers['Content-Range']);
        $this->assertFileBody($whole, $this->root . '/data.bin', 0, 16);
    }

    public function testRangeOpenEnded(): void
    {
        $response = $this->get('/data.bin', ['range' => ['bytes=12-']]);
        self::assertSame(206, $response->status);
        self::assertSame('bytes 12-15/16', $response->headers['Content-Range']);
        $this->assertFileBody($response, $this->root . '/data.bin', 12, 4);
    }

    public function testRangeUnitAndWhitespaceAreLenient(): void
    {
        $response = $this->get('/data.bin', ['range' => ['Bytes= 1-2 ,']]);
        self::assertSame(206, $response->status);
        self::assertSame('bytes 1-2/16', $response->headers['Content-Range']);
    }

    /** @return iterable<string, array{string}> */
    public static function unsatisfiableRanges(): iterable
    {
        yield 'start at size' => ['bytes=16-'];
        yield 'start past size' => ['bytes=20-30'];
        yield 'huge start' => ['bytes=99999999999999999999999-'];
        yield 'zero suffix' => ['bytes=-0'];
    }

    /** @dataProvider unsatisfiableRanges */
    public function testUnsatisfiableRange(string $range): void
    {
        $response = $this->get('/data.bin', ['range' => [$range]]);

        self::assertSame(416, $response->status);
        self::assertSame('bytes */16', $response->headers['Content-Range']);
        self::assertSame('', $response->body);
    }

    /** @return iterable<string, array{string}> */
    public static function ignoredRanges(): iterable
    {
        yield 'garbage' => ['garbage'];
        yield 'other unit' => ['items=0-1'];
        yield 'no spec' => ['bytes='];
        yield 'dash only' => ['bytes=-'];
        yield 'reversed' => ['bytes=5-2'];
        yield 'letters' => ['bytes=a-b'];
        yield 'negative' => ['bytes=--1'];
        yield 'multiple ranges' => ['bytes=0-1,4-5'];
        yield 'multiple with one unsatisfiable' => ['bytes=0-1,100-200'];
        yield 'missing equals' => ['bytes 0-1'];
    }

    /** @dataProvider ignoredRanges */
    public function testMalformedOrMultipleRangesServeFullFile(string $range): void
    {
        $response = $this->get('/data.bin', ['range' => [$range]]);

        self::assertSame(200, $response->status);
        self::assertArrayNotHasKey('Content-Range', $response->headers);
        $this->assertFileBody($response, $this->root . '/data.bin', 0, 16);
    }

    public function testIfRange(): void
    {
        $etag = $this->get('/data.bin')->headers['ETag'];
        self::assertIsString($etag);

        $matching = [$etag, self::MTIME_HTTP];
        foreach ($matching as $ifRange) {
            $response = $this->get('/data.bin', ['range' => ['bytes=0-3'], 'if-range' => [$ifRange]]);
            self::assertSame(206, $response->status, $ifRange);
        }

        $notMatching = ['"other"', 'W/' . $etag, 'Wed, 15 Nov 2023 00:00:00 GMT', 'garbage'];
        foreach ($notMatching as $ifRange) {
            $response = $this->get('/data.bin', ['range' => ['bytes=0-3'], 'if-range' => [$ifRange]]);
            self::assertSame(200, $response->status, $ifRange);
            $this->assertFileBody($response, $this->root . '/data.bin', 0, 16);
        }

        // A failed If-Range also skips the 416 an unsatisfiable range would give.
        $response = $this->get('/data.bin', ['range' => ['bytes=100-'], 'if-range' => ['"other"']]);
        self::assertSame(200, $response->status);
    }

    // ---- path safety --------------------------------------------------------------------

    /** @return iterable<string, array{string}> */
    public static function traversalAttempts(): iterable
    {
        yield 'raw dot-dot' => ['/../secret.txt'];
        yield 'nested dot-dot' => ['/sub/../../secret.txt'];
        yield 'deep dot-dot' => ['/../../../../../../etc/passwd'];
        yield 'encoded dots' => ['/%2e%2e/secret.txt'];
        yield 'upper-case encoded dots and slash' => ['/%2E%2E%2Fsecret.txt'];
        yield 'encoded slash' => ['/..%2fsecret.txt'];
        yield 'mixed encoding' => ['/.%2e/secret.txt'];
        yield 'NUL byte' => ['/hello.txt%00'];
        yield 'NUL before traversal' => ['/%00/../secret.txt'];
        yield 'backslash dot-dot' => ['/..\\secret.txt'];
        yield 'encoded backslash dot-dot' => ['/..%5csecret.txt'];
        yield 'encoded backslash nested' => ['/sub%5C..%5C..%5Csecret.txt'];
        yield 'trailing dot-dot' => ['/sub/..'];
    }

    /** @dataProvider traversalAttempts */
    public function testTraversalAttemptsGet404(string $path): void
    {
        $response = $this->handle('GET', $path);

        self::assertNotNull($response);
        self::assertSame(404, $response->status);
        self::assertIsString($response->body);
    }

    /** @return iterable<string, array{string}> */
    public static function unservablePaths(): iterable
    {
        yield 'double-encoded dots' => ['/%252e%252e/secret.txt'];
        yield 'double-encoded slash' => ['/..%252fsecret.txt'];
        yield 'double-encoded everything' => ['/%252e%252e%252fsecret.txt'];
        yield 'single dot segment' => ['/./hello.txt'];
        yield 'encoded single dot' => ['/%2e/hello.txt'];
        yield 'absolute-looking' => ['//etc/passwd'];
        yield 'encoded absolute' => ['/%2fetc%2fpasswd'];
        yield 'backslash' => ['/sub\\page.txt'];
        yield 'encoded backslash' => ['/sub%5cpage.txt'];
        yield 'symlink to dotfile' => ['/env-link.txt'];
        yield 'symlink to a dotfile outside' => ['/link-out-hidden.txt'];
        yield 'dotfile behind a symlinked directory outside' => ['/link-dir-out/.hidden'];
        yield 'symlink up, to a dot directory' => ['/link-up/public/.git/config'];
        yield 'dotfile' => ['/.env'];
        yield 'encoded dotfile' => ['/%2eenv'];
        yield 'dot directory' => ['/.git/config'];
        yield 'dot directory index' => ['/.git/'];
        yield 'triple dot' => ['/.../secret.txt'];
        yield 'PHP source' => ['/index.php'];
        yield 'encoded PHP source' => ['/index%2ephp'];
        yield 'PHP source, upper case' => ['/LEGACY.PHP'];
        yield 'PHP source, upper-cased request' => ['/INDEX.PHP'];
        yield 'PHP source below' => ['/sub/admin.php'];
        yield 'phtml' => ['/page.phtml'];
        yield 'php5' => ['/old.php5'];
        yield 'phar' => ['/tool.phar'];
        yield 'symlink to PHP source' => ['/php-link.txt'];
        yield 'PHP source with path info' => ['/index.php/hello.txt'];
    }

    /** A directory whose name ends in .php is no script: its index.html is served. */
    public function testADirectoryNamedLikeAScriptServesItsIndex(): void
    {
        $response = $this->handle('GET', '/dir.php/');
        self::assertNotNull($response);
        self::assertSame(200, $response->status);
    }

    /** @dataProvider unservablePaths */
    public function testUnservablePathsReturnNull(string $path): void
    {
        self::assertNull($this->handle('GET', $path));
    }

    /** Every attack, in every method the handler serves, never yields the secret file. */
    public function testSecretIsNeverServed(): void
    {
        $paths = \array_merge(
            \array_column(\iterator_to_array(self::traversalAttempts()), 0),
            \array_column(\iterator_to_array(self::unservablePaths()), 0),
        );
        foreach ($paths as $path) {
            foreach (['GET', 'HEAD'] as $method) {
                $response = $this->handle($method, $path, ['range' => ['bytes=0-']]);
                if ($response === null) {
                    continue;
                }
                self::assertNotInstanceOf(FileBody::class, $response->body, $method . ' ' . $path);
                self::assertStringNotContainsString('TOP SECRET', \is_string($response->body) ? $response->body : '');
            }
        }
    }

    // ---- helpers ------------------------------------------------------------------------

    /** @param array<string, list<string>> $headers */
    private function request(string $method, string $path, array $headers = []): Request
    {
        return new Request(method: $method, target: $path, path: $path, query: '', protocolVersion: '1.1', headers: $headers);
    }

    /** @param array<string, list<string>> $headers */
    private function handle(string $method, string $path, array $headers = []): ?Response
    {
        return $this->handler->handle($this->request($method, $path, $headers));
    }

    /** @param array<string, list<string>> $headers */
    private function get(string $path, array $headers = []): Response
    {
        $response = $this->handle('GET', $path, $headers);
        self::assertNotNull($response, 'expected a response for ' . $path);

        return $response;
    }

    private function assertFileBody(Response $response, string $path, int $offset, int $length): void
    {
        self::assertInstanceOf(FileBody::class, $response->body);
        self::assertSame(\realpath($path), $response->body->path);
        self::assertSame($offset, $response->body->offset);
        self::assertSame($length, $response->body->length);
    }

    private function assertNotModified(Response $response, string $etag): void
    {
        self::assertSame(304, $response->status);
        self::assertSame($etag, $response->headers['ETag']);
        self::assertSame(self::MTIME_HTTP, $response->headers['Last-Modified']);
        self::assertSame('', $response->body);
        self::assertArrayNotHasKey('Content-Type', $response->headers);
    }
}
