<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E\Support;

use PHPUnit\Framework\Assert;

/**
 * What a framework app's public/ directory does under Spindle as under php-fpm behind nginx,
 * checked on the Laravel and the Symfony fixture: its files are served with no option given, its
 * front controller is never served as a file, and an upload the app moves to a relative path
 * ("uploads/…", php-fpm's working directory being public/) can be fetched back.
 */
final class PublicDirectory
{
    /** A stylesheet in each fixture's public/. */
    public const CSS = '/css/fixture.css';

    public static function assertServesItsCss(int $port, string $public): void
    {
        $response = self::request($port, "GET " . self::CSS . " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
        Assert::assertSame(200, $response->status, $response->raw);
        Assert::assertStringStartsWith('text/css', (string) $response->header('content-type'));
        Assert::assertSame(\file_get_contents($public . self::CSS), $response->body);
    }

    public static function assertCssIsNotServed(int $port): void
    {
        $response = self::request($port, "GET " . self::CSS . " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
        Assert::assertSame(404, $response->status, $response->raw);
    }

    /** GET and HEAD /index.php reach the app (which routes them as "/"), never the file's source. */
    public static function assertFrontControllerIsNotServed(int $port, string $public): void
    {
        $source = (string) \file_get_contents($public . '/index.php');
        foreach (['GET', 'HEAD'] as $method) {
            foreach (['/index.php', '/INDEX.PHP', '/index%2ephp', '/./index.php'] as $path) {
                $response = self::request($port, "{$method} {$path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", $method === 'HEAD');
                $what = "{$method} {$path}: " . \substr($response->raw, 0, 300);
                Assert::assertStringNotContainsString('<?php', $response->body, $what);
                Assert::assertNotSame(\strlen($source), (int) $response->header('content-length'), $what);
                // Every response of the static file handler has these; the frameworks' pages have not.
                Assert::assertNull($response->header('accept-ranges'), $what);
                Assert::assertNull($response->header('etag'), $what);
            }
        }
    }

    /**
     * POSTs a file to the app's /upload/public route, which moves it to "uploads/…", and fetches
     * it back from the URL the route answers.
     */
    public static function assertARelativeUploadIsServedBack(int $port, string $public): void
    {
        $content = "\x89PNG\r\n\x1A\n" . \random_bytes(50000);
        $boundary = 'spindle-' . \bin2hex(\random_bytes(8));
        $body = "--{$boundary}\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"photo.png\"\r\n"
            . "Content-Type: image/png\r\n\r\n{$content}\r\n--{$boundary}--\r\n";
        $response = self::request($port, "POST /upload/public HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
            . "Content-Type: multipart/form-data; boundary={$boundary}\r\nContent-Length: " . \strlen($body) . "\r\n\r\n" . $body);
        Assert::assertSame(200, $response->status, $response->raw);
        $stored = $response->json();
        Assert::assertSame(\realpath($public), $stored['cwd'] ?? null, 'the app runs in public/');
        $url = $stored['url'] ?? null;
        Assert::assertIsString($url);
        Assert::assertMatchesRegularExpression('#^/uploads/[0-9a-f]{16}\.png$#', $url);
        Assert::assertFileExists($public . $url);

        $served = self::request($port, "GET {$url} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
        Assert::assertSame(200, $served->status, \substr($served->raw, 0, 500));
        Assert::assertSame('image/png', $served->header('content-type'));
        Assert::assertTrue($served->body === $content, 'the same bytes come back');
    }

    /** Removes what the upload tests left in public/uploads/. */
    public static function removeUploads(string $public): void
    {
        $uploads = $public . '/uploads';
        if (!\is_dir($uploads)) {
            return;
        }
        foreach (\scandir($uploads) ?: [] as $name) {
            if ($name !== '.' && $name !== '..') {
                \unlink($uploads . '/' . $name);
            }
        }
        \rmdir($uploads);
    }

    private static function request(int $port, string $request, bool $forHead = false): RawResponse
    {
        $client = new RawClient($port, 10.0);
        $client->send($request);
        $response = $client->readResponse($forHead);
        $client->close();

        return $response;
    }
}
