<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\LaravelFixture;
use Spindle\Tests\E2E\Support\PublicDirectory;
use Spindle\Tests\E2E\Support\RawResponse;
use Spindle\Tests\E2E\Support\ServerProcess;

/**
 * `php artisan storage:link`, run for real on the Laravel fixture: the public/storage ->
 * storage/app/public symlink it makes is followed (it has the owner of its target), so a file
 * the app stores on its public disk is served from its URL with the headers of any other static
 * file, while dotfiles and PHP files there are still not. The test removes the link and the files
 * it made afterwards.
 */
class LaravelStorageLinkTest extends E2ETestCase
{
    /** The Laravel app this class serves; a subclass runs the same tests on another. */
    protected static function app(): string
    {
        return LaravelFixture::path();
    }

    protected function setUp(): void
    {
        LaravelFixture::useTestDatabase();
        $this->removeWhatTheTestMakes();
    }

    protected function tearDown(): void
    {
        $this->removeWhatTheTestMakes();
    }

    private function removeWhatTheTestMakes(): void
    {
        $link = static::app() . '/public/storage';
        if (\is_link($link)) {
            \unlink($link);
        }
        $photos = static::app() . '/storage/app/public/photos';
        foreach (\glob($photos . '/{,.}*', \GLOB_BRACE) ?: [] as $file) {
            if (\is_file($file)) {
                \unlink($file);
            }
        }
        if (\is_dir($photos)) {
            \rmdir($photos);
        }
    }

    private static function server(): ServerProcess
    {
        return self::sharedServer(static::app(), ['--workers=1']);
    }

    /** @return array{int, string} the exit status and output of `php artisan storage:link` */
    private static function storageLink(): array
    {
        $process = \proc_open([\PHP_BINARY, 'artisan', 'storage:link'], [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['redirect', 1]], $pipes, static::app());
        self::assertIsResource($process);
        $output = (string) \stream_get_contents($pipes[1]);

        return [\proc_close($process), $output];
    }

    private static function request(string $request, bool $forHead = false): RawResponse
    {
        return self::rawRequest(self::server(), $request, $forHead);
    }

    /** Uploads a PNG to the app's public disk; returns its URL path and its bytes. */
    private static function upload(): array
    {
        $content = self::png(120, 100);
        $boundary = 'spindle-' . \bin2hex(\random_bytes(8));
        $body = "--{$boundary}\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"photo.png\"\r\n"
            . "Content-Type: image/png\r\n\r\n{$content}\r\n--{$boundary}--\r\n";
        $response = self::request("POST /upload/disk HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
            . "Content-Type: multipart/form-data; boundary={$boundary}\r\nContent-Length: " . \strlen($body) . "\r\n\r\n" . $body);
        self::assertSame(200, $response->status, $response->raw);
        $stored = $response->json();
        self::assertIsString($stored['path'] ?? null);
        self::assertFileExists(static::app() . '/storage/app/public/' . $stored['path']);
        $path = \parse_url((string) ($stored['url'] ?? ''), \PHP_URL_PATH);
        self::assertIsString($path);
        self::assertSame('/storage/' . $stored['path'], $path);

        return [$path, $content];
    }

    /** A valid PNG of random pixels (Laravel names a stored file by the type of its content). */
    private static function png(int $width, int $height): string
    {
        $pixels = '';
        for ($y = 0; $y < $height; ++$y) {
            $pixels .= "\0" . \random_bytes($width * 3);
        }
        $chunk = static fn (string $type, string $data): string => \pack('N', \strlen($data)) . $type . $data . \pack('N', \crc32($type . $data));

        return "\x89PNG\r\n\x1A\n" . $chunk('IHDR', \pack('NNCCCCC', $width, $height, 8, 2, 0, 0, 0))
            . $chunk('IDAT', (string) \gzcompress($pixels)) . $chunk('IEND', '');
    }

    public function testAnUploadPublishedByStorageLinkIsServedLikeAnyStaticFile(): void
    {
        $public = static::app() . '/public';
        // The server runs before the link exists, as when storage:link is run on a live site.
        $server = self::server();
        [$url, $content] = self::upload();
        self::assertSame(404, self::request(self::get($url, "Connection: close\r\n"))->status, 'no link yet');

        [$code, $output] = self::storageLink();
        self::assertSame(0, $code, $output);
        self::assertTrue(\is_link($public . '/storage'), $output);
        self::assertSame(\realpath(static::app() . '/storage/app/public'), \realpath($public . '/storage'));

        // The miss above is remembered for at most StaticFileHandler::MISS_TTL.
        $served = null;
        self::assertTrue(self::eventually(static function () use ($url, &$served): bool {
            $served = self::request(self::get($url, "Connection: close\r\n"));

            return $served->status === 200;
        }, 5.0), 'not served through the link: ' . \substr($served?->raw ?? '', 0, 300));
        \assert($served instanceof RawResponse);
        self::assertTrue($served->body === $content, 'the same bytes come back');
        $file = static::app() . '/storage/app/public/' . \substr($url, \strlen('/storage/'));
        \clearstatcache();
        self::assertSame('image/png', $served->header('content-type'));
        self::assertSame(\sprintf('"%x-%x"', \filemtime($file), \filesize($file)), $served->header('etag'));
        self::assertSame(\gmdate('D, d M Y H:i:s', (int) \filemtime($file)) . ' GMT', $served->header('last-modified'));
        self::assertSame('bytes', $served->header('accept-ranges'));
        self::assertSame('nosniff', $served->header('x-content-type-options'));
        self::assertSame((string) \strlen($content), $served->header('content-length'));

        // The same header fields as a file of public/ itself.
        $css = self::request(self::get(PublicDirectory::CSS, "Connection: close\r\n"));
        self::assertSame(200, $css->status);
        $names = static fn (RawResponse $r): array => \array_values(\array_diff(\array_keys($r->headers), ['date']));
        $expected = $names($css);
        \sort($expected);
        $actual = $names($served);
        \sort($actual);
        self::assertSame($expected, $actual);

        // Ranges, conditional requests and HEAD as for any static file.
        $range = self::request(self::get($url, "Range: bytes=0-7\r\nConnection: close\r\n"));
        self::assertSame([206, "\x89PNG\r\n\x1A\n"], [$range->status, $range->body]);
        $cached = self::request(self::get($url, 'If-None-Match: ' . $served->header('etag') . "\r\nConnection: close\r\n"));
        self::assertSame(304, $cached->status);
        $head = self::request("HEAD {$url} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", true);
        self::assertSame([200, $served->header('etag'), ''], [$head->status, $head->header('etag'), $head->body]);
        self::assertTrue($server->isRunning());
    }

    public function testDotfilesAndPhpFilesBehindTheLinkAreNotServed(): void
    {
        [$code, $output] = self::storageLink();
        self::assertSame(0, $code, $output);
        $photos = static::app() . '/storage/app/public/photos';
        \mkdir($photos);
        \file_put_contents($photos . '/.secret', 'dotfile');
        \file_put_contents($photos . '/run.php', '<?php echo "ran";');
        \file_put_contents($photos . '/ok.txt', 'ok');
        self::assertSame('ok', self::request(self::get('/storage/photos/ok.txt', "Connection: close\r\n"))->body);
        foreach (['/storage/photos/.secret', '/storage/photos/run.php', '/storage/photos/RUN.PHP', '/storage/.gitkeep'] as $path) {
            $response = self::request(self::get($path, "Connection: close\r\n"));
            // Such paths go to the app, which has no route for them.
            self::assertSame(404, $response->status, $path);
            self::assertNull($response->header('etag'), $path);
            self::assertStringNotContainsString('dotfile', $response->body, $path);
            self::assertStringNotContainsString('<?php', $response->body, $path);
        }
    }

    public function testARemovedLinkIsNoLongerFollowed(): void
    {
        [$code, $output] = self::storageLink();
        self::assertSame(0, $code, $output);
        [$url] = self::upload();
        self::assertSame(200, self::request(self::get($url, "Connection: close\r\n"))->status);
        \unlink(static::app() . '/public/storage');
        // No cache of where the link led: the next request looks again.
        self::assertSame(404, self::request(self::get($url, "Connection: close\r\n"))->status);
    }
}
