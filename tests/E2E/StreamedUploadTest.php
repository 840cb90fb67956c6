<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\ServerProcess;

/**
 * An app that streams request bodies (Spindle\Http\StreamsRequestBody) gets a large upload piece
 * by piece as curl sends it: no temporary file, and no more than about --body-buffer-size of it
 * in the worker's memory at once.
 */
final class StreamedUploadTest extends E2ETestCase
{
    public function testALargeUploadReachesTheHandlerPieceByPieceWithoutATemporaryFile(): void
    {
        $uploads = \sys_get_temp_dir() . '/spindle-streamed-upload-' . \getmypid();
        @\mkdir($uploads);
        $file = $uploads . '.bin';
        $size = 48 * 1024 * 1024;
        $chunk = \random_bytes(1024 * 1024);
        \file_put_contents($file, \str_repeat($chunk, 48));
        try {
            $server = ServerProcess::start(__DIR__ . '/../fixtures/apps/streaming-upload.php', ['--workers=1', '--upload-dir=' . $uploads, '--max-body-size=67108864']);
            $response = self::parseCurlResponse(self::curl(['-s', '-i', '--data-binary', '@' . $file, '-H', 'Content-Type: application/octet-stream', $server->url('/upload')], 30.0)['out']);
            self::assertSame(200, $response['status'], $server->stderr());
            $result = \json_decode($response['body'], true, 512, \JSON_THROW_ON_ERROR);
            \assert(\is_array($result));
            self::assertSame($size, $result['size']);
            self::assertSame(\sha1_file($file), $result['sha1']);
            self::assertGreaterThan(10, $result['reads'], 'read as it arrived, not at once');
            self::assertLessThan(16 * 1024 * 1024, $result['peakMemory'], 'the upload was never held whole');
            $files = [];
            foreach (new \RecursiveIteratorIterator(new \RecursiveDirectoryIterator($uploads, \FilesystemIterator::SKIP_DOTS)) as $found) {
                $files[] = (string) $found;
            }
            self::assertSame([], $files, 'no temporary file (the worker keeps its uploads in a directory of its own there)');
            // Over HTTP/2 the stream's window reopens as the handler reads: the same upload, whole.
            $h2 = self::parseCurlResponse(self::curl(['-s', '-i', '--http2-prior-knowledge', '--data-binary', '@' . $file, '-H', 'Content-Type: application/octet-stream', $server->url('/upload')], 30.0)['out']);
            self::assertSame(200, $h2['status'], $server->stderr());
            $overH2 = \json_decode($h2['body'], true, 512, \JSON_THROW_ON_ERROR);
            \assert(\is_array($overH2));
            self::assertSame([$size, \sha1_file($file)], [$overH2['size'], $overH2['sha1']]);
            self::assertLessThan(16 * 1024 * 1024, $overH2['peakMemory'], 'over HTTP/2 too, never held whole');
            self::reportFigures('streamed upload', \sprintf('48 MiB in %d reads (largest %d bytes), worker peak memory %.1f MiB', $result['reads'], $result['largest'], $result['peakMemory'] / 1048576));
            $server->stop();
        } finally {
            @\unlink($file);
            self::removeTree($uploads);
        }
    }
}
