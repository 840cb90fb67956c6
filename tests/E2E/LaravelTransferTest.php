<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\LaravelFixture;
use Spindle\Tests\E2E\Support\RawClient;
use Spindle\Tests\E2E\Support\ServerProcess;

/** Uploads, streamed responses and files, end to end with curl through Laravel routes. */
class LaravelTransferTest extends E2ETestCase
{
    /** The Laravel app this class serves; a subclass runs the same tests on another. */
    protected static function app(): string
    {
        return LaravelFixture::path();
    }

    private static function server(): ServerProcess
    {
        LaravelFixture::useTestDatabase();

        return self::sharedServer(static::app(), ['--workers=1']);
    }

    /** @return iterable<string, array{string}> */
    public static function uploadPaths(): iterable
    {
        yield 'storeAs()' => ['/upload'];
        yield 'move()' => ['/upload?move=1'];
    }

    /** @dataProvider uploadPaths */
    public function testAnUploadedFileIsStoredByTheRoute(string $path): void
    {
        $file = \tempnam(\sys_get_temp_dir(), 'spindle-laravel-upload-');
        self::assertIsString($file);
        $content = \random_bytes(300000);
        \file_put_contents($file, $content);
        try {
            $result = self::curl(['-s', '-F', 'doc=@' . $file . ';filename=photo.bin', '-F', 'note=hello there', self::server()->url($path)]);
        } finally {
            @\unlink($file);
        }
        $data = \json_decode($result['out'], true);
        self::assertIsArray($data, $result['out']);
        self::assertSame(['valid' => true, 'name' => 'photo.bin', 'size' => 300000, 'sha1' => \sha1($content), 'field' => 'hello there'], $data);
    }

    /** @return iterable<string, array{int, bool}> the padding of a JSON body, whether it goes to a file */
    public static function rawBodies(): iterable
    {
        yield 'small, in memory' => [1000, false];
        yield '1 MiB, from a temporary file' => [1048576, true];
    }

    /**
     * A raw body reaches the app whole: getContent(), getContent(true) and json() read it from
     * memory, or from the temporary file of a body above --body-buffer-size, which is removed
     * after the request.
     *
     * @dataProvider rawBodies
     */
    public function testARawBodyReachesTheAppWhole(int $padding, bool $toFile): void
    {
        $body = \json_encode(['name' => 'spindle', 'pad' => \base64_encode(\random_bytes($padding))], \JSON_THROW_ON_ERROR);
        $client = new RawClient(self::server()->port(), 20.0);
        $client->send("POST /body HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: " . \strlen($body) . "\r\n\r\n" . $body);
        $response = $client->readResponse();
        self::assertSame(200, $response->status, $response->body);
        $data = $response->json();
        self::assertSame(
            ['size' => \strlen($body), 'sha1' => \sha1($body), 'streamSha1' => \sha1($body), 'name' => 'spindle'],
            ['size' => $data['size'], 'sha1' => $data['sha1'], 'streamSha1' => $data['streamSha1'], 'name' => $data['name']],
        );
        if (!$toFile) {
            self::assertNull($data['file']);

            return;
        }
        self::assertIsString($data['file']);
        self::assertTrue(self::eventually(static fn (): bool => !\file_exists($data['file']), 5.0), 'the temporary file is removed after the request');
    }

    public function testAStreamedResponseArrivesWhole(): void
    {
        $result = self::curl(['-s', '-i', self::server()->url('/stream')]);
        $response = self::parseCurlResponse($result['out']);
        self::assertSame(200, $response['status']);
        self::assertSame("one\ntwo\nthree\n", $response['body']);
        self::assertSame(['chunked'], $response['headers']['transfer-encoding'] ?? null);
        // The instance went back to the pool once the stream was done: the worker serves on.
        self::assertSame('Hello from Laravel', self::curl(['-s', self::server()->url('/hello')])['out']);
    }

    public function testDownloadAndFileResponsesSendTheFile(): void
    {
        $expected = (string) \file_get_contents(static::app() . '/resources/files/report.txt');
        $download = self::parseCurlResponse(self::curl(['-s', '-i', self::server()->url('/download')])['out']);
        self::assertSame(200, $download['status']);
        self::assertSame($expected, $download['body']);
        self::assertStringContainsString('attachment; filename=report.txt', $download['headers']['content-disposition'][0] ?? '');

        $file = self::parseCurlResponse(self::curl(['-s', '-i', self::server()->url('/file')])['out']);
        self::assertSame(200, $file['status']);
        self::assertSame($expected, $file['body']);
        self::assertSame((string) \strlen($expected), $file['headers']['content-length'][0] ?? null);

        $range = self::parseCurlResponse(self::curl(['-s', '-i', '-H', 'Range: bytes=10-19', self::server()->url('/file')])['out']);
        self::assertSame(206, $range['status']);
        self::assertSame(\substr($expected, 10, 10), $range['body']);
    }

    /**
     * "a!b" is a valid uri-host, so Spindle's parser lets it through; HttpFoundation refuses it.
     * The client gets 400 and the app's exception handler reports nothing, as under PHP-FPM.
     */
    public function testAHostHttpFoundationRefusesIsA400AndNotAnAppError(): void
    {
        $server = self::server();
        $response = self::rawRequest($server, "GET /hello HTTP/1.1\r\nHost: a!b\r\nConnection: close\r\n\r\n");
        self::assertSame(400, $response->status, $response->raw);
        self::assertServerAnswers($server, '/hello');
        self::assertStringNotContainsString('Invalid Host header', $server->stderr());
    }
}
