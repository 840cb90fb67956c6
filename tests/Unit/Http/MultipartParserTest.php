<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Http;

use PHPUnit\Framework\TestCase;
use Spindle\Http\HttpException;
use Spindle\Http\Multipart\MultipartLimits;
use Spindle\Http\Multipart\MultipartParser;
use Spindle\Http\Multipart\TempFileSink;
use Spindle\Http\Multipart\UploadSink;
use Spindle\Http\Multipart\MultipartResult;
use Spindle\Http\UploadedFile;

final class MultipartParserTest extends TestCase
{
    private const BOUNDARY = '----SpindleBoundary7MA4YWxkTrZu0gW';

    private string $tmpDir;

    protected function setUp(): void
    {
        $this->tmpDir = \sys_get_temp_dir() . '/spindle-multipart-test-' . \bin2hex(\random_bytes(6));
        \mkdir($this->tmpDir, 0700);
    }

    protected function tearDown(): void
    {
        foreach (\scandir($this->tmpDir) ?: [] as $entry) {
            if ($entry !== '.' && $entry !== '..') {
                \unlink($this->tmpDir . '/' . $entry);
            }
        }
        \rmdir($this->tmpDir);
    }

    // ---------------------------------------------------------------- helpers

    /**
     * @param list<array{name: string, content: string, filename?: string, type?: string}> $parts
     */
    private static function body(array $parts, string $boundary = self::BOUNDARY, string $preamble = '', string $epilogue = ''): string
    {
        $body = $preamble === '' ? '' : $preamble . "\r\n";
        foreach ($parts as $part) {
            $body .= '--' . $boundary . "\r\n";
            $body .= 'Content-Disposition: form-data; name="' . $part['name'] . '"';
            if (isset($part['filename'])) {
                $body .= '; filename="' . $part['filename'] . '"';
            }
            $body .= "\r\n";
            if (isset($part['type'])) {
                $body .= 'Content-Type: ' . $part['type'] . "\r\n";
            }
            $body .= "\r\n" . $part['content'] . "\r\n";
        }

        return $body . '--' . $boundary . '--' . $epilogue;
    }

    /** Deterministic binary content full of near-delimiters. */
    private static function trickyBytes(int $length, string $boundary = self::BOUNDARY): string
    {
        $pieces = [
            "\r\n--" . \substr($boundary, 0, 7),
            "\r\n--" . \substr($boundary, 0, -1) . "\r\n",
            "\r\n-" . $boundary,
            "\r--" . $boundary . "\r\n",
            "\n--" . $boundary . "--\r\n",
            'x--' . $boundary,
            "\r\n\r\n\r\n",
            "\r\r\n\n",
            '----',
            "--\r\n--",
            "\x00\xff\xfe",
            "\r\n--",
            "\r\n-",
            "\r",
        ];
        $out = '';
        while (\strlen($out) < $length) {
            $out .= \mt_rand(0, 2) === 0 ? $pieces[\mt_rand(0, \count($pieces) - 1)] : \chr(\mt_rand(0, 255));
        }
        // Pieces can join into a real delimiter ("\r" + "\n--boundary"): defuse those, keeping the length.
        $out = \str_replace("\r\n--" . $boundary, "\r\n-X" . $boundary, \substr($out, 0, $length));
        self::assertStringNotContainsString("\r\n--" . $boundary, $out);

        return $out;
    }

    private function parser(?MultipartLimits $limits = null, string $boundary = self::BOUNDARY): MultipartParser
    {
        return new MultipartParser($boundary, new TempFileSink($this->tmpDir), $limits ?? new MultipartLimits());
    }

    /** @param list<string> $pieces */
    private function parsePieces(array $pieces, ?MultipartLimits $limits = null, string $boundary = self::BOUNDARY): MultipartResult
    {
        $parser = $this->parser($limits, $boundary);
        try {
            foreach ($pieces as $piece) {
                $parser->push($piece);
            }

            return $parser->finish();
        } catch (HttpException $e) {
            $parser->abort();
            throw $e;
        }
    }

    /** @return list<string> */
    private static function randomSplit(string $body, int $maxPiece = 300): array
    {
        $pieces = [];
        $offset = 0;
        $length = \strlen($body);
        while ($offset < $length) {
            $size = \mt_rand(0, 9) === 0 ? 0 : \mt_rand(1, \mt_rand(0, 3) === 0 ? 3 : $maxPiece);
            $pieces[] = \substr($body, $offset, $size);
            $offset += $size;
        }

        return $pieces;
    }

    /** @return array<string, list<string>> */
    private static function feedings(string $body, int $seed, int $randomRuns = 50): array
    {
        $feedings = ['whole' => [$body], 'byte by byte' => \str_split($body)];
        \mt_srand($seed);
        for ($i = 0; $i < $randomRuns; ++$i) {
            $feedings["random split #$i (seed $seed)"] = self::randomSplit($body);
        }

        return $feedings;
    }

    private static function assertUpload(mixed $file, string $content, ?string $clientFilename, ?string $type, string $tmpDir, string $message = ''): void
    {
        self::assertInstanceOf(UploadedFile::class, $file, $message);
        self::assertSame(\UPLOAD_ERR_OK, $file->error, $message);
        self::assertSame(\strlen($content), $file->size, $message);
        self::assertSame($clientFilename, $file->clientFilename, $message);
        self::assertSame($type, $file->clientMediaType, $message);
        self::assertSame($tmpDir, \dirname($file->tmpPath), $message);
        self::assertFileExists($file->tmpPath, $message);
        self::assertSame($content, \file_get_contents($file->tmpPath), $message);
    }

    private static function assertHttpError(int $status, callable $action, string $message = ''): void
    {
        try {
            $action();
        } catch (HttpException $e) {
            self::assertSame($status, $e->status, $message . ' / ' . $e->getMessage());
            self::assertNotSame('', $e->getMessage());

            return;
        }
        self::fail("Expected HttpException $status. $message");
    }

    private function assertTmpDirEmpty(string $message = ''): void
    {
        self::assertSame(['.', '..'], \scandir($this->tmpDir), $message);
    }

    // ---------------------------------------------------------------- tests

    public function testFieldsAndFilesInEveryFeeding(): void
    {
        \mt_srand(7);
        $upload = self::trickyBytes(3000);
        $image = self::trickyBytes(777);
        $body = self::body([
            ['name' => 'title', 'content' => "Hello\r\nWorld --\r\n"],
            ['name' => 'tags[]', 'content' => 'a'],
            ['name' => 'tags[]', 'content' => 'b'],
            ['name' => 'meta[author][name]', 'content' => 'Zoë'],
            ['name' => 'upload', 'filename' => 'report.bin', 'type' => 'application/octet-stream', 'content' => $upload],
            ['name' => 'docs[]', 'filename' => 'a.txt', 'type' => 'text/plain', 'content' => "\r\n"],
            ['name' => 'docs[]', 'filename' => 'C:\\Users\\me\\b.txt', 'content' => ''],
            ['name' => 'empty', 'content' => ''],
            ['name' => 'my field.x', 'content' => '--' . self::BOUNDARY],
            ['name' => 'nested[k][]', 'filename' => 'dir/q.png', 'type' => 'image/png', 'content' => $image],
            ['name' => 'dash', 'content' => "\r\n-"],
        ], self::BOUNDARY, "This is the preamble.\r\n--" . \substr(self::BOUNDARY, 0, -1) . "\r\n-- " . self::BOUNDARY, "\r\nepilogue --" . self::BOUNDARY . "--\r\n");

        $expectedFields = [
            'title' => "Hello\r\nWorld --\r\n",
            'tags' => ['a', 'b'],
            'meta' => ['author' => ['name' => 'Zoë']],
            'empty' => '',
            'my_field_x' => '--' . self::BOUNDARY,
            'dash' => "\r\n-",
        ];

        foreach (self::feedings($body, 1234) as $how => $pieces) {
            $parser = $this->parser();
            foreach ($pieces as $piece) {
                $parser->push($piece);
            }
            $result = $parser->finish();

            self::assertSame($expectedFields, $result->fields, $how);
            self::assertSame(['upload', 'docs', 'nested'], \array_keys($result->files), $how);
            self::assertUpload($result->files['upload'], $upload, 'report.bin', 'application/octet-stream', $this->tmpDir, $how);
            self::assertIsArray($result->files['docs']);
            self::assertUpload($result->files['docs'][0], "\r\n", 'a.txt', 'text/plain', $this->tmpDir, $how);
            self::assertUpload($result->files['docs'][1], '', 'b.txt', null, $this->tmpDir, $how);
            self::assertIsArray($result->files['nested']);
            self::assertIsArray($result->files['nested']['k']);
            self::assertUpload($result->files['nested']['k'][0], $image, 'q.png', 'image/png', $this->tmpDir, $how);

            self::assertCount(4, $parser->tempFiles(), $how);
            $parser->abort();
            $this->assertTmpDirEmpty($how);
        }
    }

    public function testTheParserTouchesNoFileItselfOnlyItsSink(): void
    {
        $sink = new class () implements UploadSink {
            /** @var array<string, string> */
            public array $files = [];
            /** @var list<string> */
            public array $closed = [];

            public function open(): ?string
            {
                $path = 'memory:' . \count($this->files);
                $this->files[$path] = '';

                return $path;
            }

            public function write(string $path, string $bytes): bool
            {
                $this->files[$path] .= $bytes;

                return true;
            }

            public function close(string $path): bool
            {
                $this->closed[] = $path;

                return true;
            }

            public function discard(string $path): void
            {
                unset($this->files[$path]);
            }
        };
        $body = "--" . self::BOUNDARY . "\r\nContent-Disposition: form-data; name=\"doc\"; filename=\"a.txt\"\r\n\r\nhello sink\r\n--" . self::BOUNDARY . "--\r\n";
        $parser = new MultipartParser(self::BOUNDARY, $sink, new MultipartLimits());
        foreach (\str_split($body, 3) as $piece) {
            $parser->push($piece);
        }
        $file = $parser->finish()->files['doc'];
        self::assertInstanceOf(UploadedFile::class, $file);
        self::assertSame('memory:0', $file->tmpPath);
        self::assertSame(['memory:0' => 'hello sink'], $sink->files);
        self::assertSame(['memory:0'], $sink->closed);
        $parser->abort();
        self::assertSame([], $sink->files, 'abort() discards through the sink');
    }

    public function testLargeFileIsStreamedWithBoundedLookBehind(): void
    {
        \mt_srand(99);
        $content = self::trickyBytes(1024 * 1024);
        $body = self::body([['name' => 'big', 'filename' => 'big.bin', 'content' => $content]]);
        $parser = $this->parser();
        $buffer = new \ReflectionProperty(MultipartParser::class, 'buffer');
        $maxBuffered = 0;
        foreach (\str_split($body, 8192) as $chunk) {
            $parser->push($chunk);
            $maxBuffered = \max($maxBuffered, \strlen((string) $buffer->getValue($parser)));
        }
        $result = $parser->finish();
        self::assertLessThanOrEqual(\strlen("\r\n--" . self::BOUNDARY), $maxBuffered);
        self::assertUpload($result->files['big'], $content, 'big.bin', null, $this->tmpDir);
        $parser->abort();
    }

    public function testBodyStartingWithDelimiterAndPaddingAfterDelimiters(): void
    {
        $b = self::BOUNDARY;
        $body = "--$b \t\r\nContent-Disposition: form-data; name=a\r\n\r\n1\r\n--$b\t\r\n"
            . "content-disposition: FORM-DATA; NAME=\"b\"\r\n\r\n2\r\n--$b--";
        foreach (self::feedings($body, 5, 10) as $how => $pieces) {
            self::assertSame(['a' => '1', 'b' => '2'], $this->parsePieces($pieces)->fields, $how);
        }
    }

    public function testZeroPartsIsAnEmptyResult(): void
    {
        $result = $this->parsePieces(['--' . self::BOUNDARY . "--\r\n"]);
        self::assertSame([], $result->fields);
        self::assertSame([], $result->files);
    }

    public function testHeaderParsingDetails(): void
    {
        $b = self::BOUNDARY;
        $body = "--$b\r\n"
            . "X-Custom: 1\r\n"
            . "Content-Disposition: form-data;\r\n name=\"we\\\"ird\\\\\"; filename=\"a\\b.txt\"\r\n"
            . "Content-Type:   text/csv; charset=utf-8  \r\n"
            . "Content-Transfer-Encoding: binary\r\n"
            . "\r\nx,y\r\n"
            . "--$b\r\n"
            . "Content-Disposition: form-data; name=\"star\"; filename*=UTF-8''%E2%82%AC%20rates.txt\r\n"
            . "\r\n€\r\n"
            . "--$b--";
        foreach (self::feedings($body, 11, 5) as $how => $pieces) {
            $parser = $this->parser();
            foreach ($pieces as $piece) {
                $parser->push($piece);
            }
            $result = $parser->finish();
            self::assertSame([], $result->fields, $how);
            self::assertUpload($result->files['we"ird\\'], 'x,y', 'b.txt', 'text/csv; charset=utf-8', $this->tmpDir, $how);
            self::assertUpload($result->files['star'], '€', '€ rates.txt', null, $this->tmpDir, $how);
            $parser->abort();
        }
    }

    public function testEmptyFileInputIsNoFile(): void
    {
        $body = self::body([
            ['name' => 'avatar', 'filename' => '', 'type' => 'application/octet-stream', 'content' => ''],
            ['name' => 'other[]', 'filename' => '', 'content' => 'ignored as PHP does'],
            ['name' => 'name', 'content' => 'x'],
        ]);
        foreach (self::feedings($body, 3, 5) as $how => $pieces) {
            $parser = $this->parser();
            foreach ($pieces as $piece) {
                $parser->push($piece);
            }
            $result = $parser->finish();
            self::assertSame(['name' => 'x'], $result->fields);
            $avatar = $result->files['avatar'];
            self::assertInstanceOf(UploadedFile::class, $avatar, $how);
            self::assertSame(\UPLOAD_ERR_NO_FILE, $avatar->error);
            self::assertSame('', $avatar->tmpPath);
            self::assertSame(0, $avatar->size);
            self::assertSame('', $avatar->clientFilename);
            self::assertSame('application/octet-stream', $avatar->clientMediaType);
            self::assertIsArray($result->files['other']);
            self::assertSame(\UPLOAD_ERR_NO_FILE, $result->files['other'][0]->error);
            self::assertSame([], $parser->tempFiles());
            $this->assertTmpDirEmpty($how);
        }
    }

    public function testFileNamesWithBrokenBracketsAreDroppedLikePhp(): void
    {
        $body = self::body([
            ['name' => 'a[b', 'filename' => 'x.txt', 'content' => 'x'],
            ['name' => 'a]', 'filename' => 'x.txt', 'content' => 'x'],
            ['name' => 'a[b]c', 'filename' => 'x.txt', 'content' => 'x'],
            ['name' => '', 'filename' => 'x.txt', 'content' => 'x'],
            ['name' => 'a[b', 'content' => 'field names are repaired'],
        ]);
        $parser = $this->parser();
        $parser->push($body);
        $result = $parser->finish();
        self::assertSame(['a_b' => 'field names are repaired'], $result->fields);
        self::assertSame([], $result->files);
        self::assertSame([], $parser->tempFiles());
        $this->assertTmpDirEmpty();
    }

    public function testFileLargerThanLimitIsDiscardedWithIniSizeError(): void
    {
        $limits = new MultipartLimits(maxFileSize: 10);
        $body = self::body([
            ['name' => 'small', 'filename' => 's.txt', 'content' => '0123456789'],
            ['name' => 'big', 'filename' => 'b.txt', 'type' => 'text/plain', 'content' => '0123456789A' . \str_repeat("\r\n--x", 100)],
            ['name' => 'after', 'content' => 'still parsed'],
        ]);
        foreach (self::feedings($body, 17, 10) as $how => $pieces) {
            $parser = $this->parser($limits);
            foreach ($pieces as $piece) {
                $parser->push($piece);
            }
            $result = $parser->finish();
            self::assertSame(['after' => 'still parsed'], $result->fields, $how);
            self::assertUpload($result->files['small'], '0123456789', 's.txt', null, $this->tmpDir, $how);
            $big = $result->files['big'];
            self::assertInstanceOf(UploadedFile::class, $big);
            self::assertSame(\UPLOAD_ERR_INI_SIZE, $big->error, $how);
            self::assertSame('', $big->tmpPath);
            self::assertSame(0, $big->size);
            self::assertSame('b.txt', $big->clientFilename);
            self::assertSame('text/plain', $big->clientMediaType);
            self::assertSame([$result->files['small']->tmpPath], $parser->tempFiles(), $how);
            self::assertCount(3, \scandir($this->tmpDir) ?: [], $how);
            $parser->abort();
        }
    }

    public function testFieldSizeLimit(): void
    {
        $limits = new MultipartLimits(maxFieldSize: 5);
        self::assertSame(['f' => '12345'], $this->parsePieces([self::body([['name' => 'f', 'content' => '12345']])], $limits)->fields);
        foreach (self::feedings(self::body([['name' => 'f', 'content' => '123456']]), 2, 5) as $how => $pieces) {
            self::assertHttpError(413, fn () => $this->parsePieces($pieces, $limits), $how);
        }
    }

    public function testPartCountLimit(): void
    {
        $limits = new MultipartLimits(maxParts: 2);
        $two = [['name' => 'a', 'content' => '1'], ['name' => 'b', 'filename' => 'b.txt', 'content' => '2']];
        $parser = $this->parser($limits);
        $parser->push(self::body($two));
        self::assertSame(['a' => '1'], $parser->finish()->fields);
        $parser->abort();
        $three = [...$two, ['name' => 'c', 'content' => '3']];
        foreach (self::feedings(self::body($three), 4, 5) as $how => $pieces) {
            self::assertHttpError(413, fn () => $this->parsePieces($pieces, $limits), $how);
            $this->assertTmpDirEmpty($how);
        }
    }

    public function testTwentyFilesByDefaultAsPhpsMaxFileUploads(): void
    {
        self::assertSame(20, (new MultipartLimits())->maxFiles);
        $parts = [];
        for ($i = 0; $i < 25; ++$i) {
            $parts[] = ['name' => 'f[]', 'filename' => "f{$i}.txt", 'content' => "file {$i}"];
        }
        $parser = $this->parser();
        $parser->push(self::body($parts));
        $files = $parser->finish()->files;
        self::assertCount(20, $files['f']);
        foreach ($files['f'] as $i => $file) {
            self::assertUpload($file, "file {$i}", "f{$i}.txt", null, $this->tmpDir);
        }
        self::assertCount(20, $parser->tempFiles());
        self::assertCount(22, \scandir($this->tmpDir) ?: [], 'no temporary file for a dropped upload');
        $parser->abort();
    }

    /**
     * Past maxFiles, PHP skips every later file part (it is in neither $_FILES nor $_POST) and
     * parses the rest of the body; a part with filename="" does not count, but is skipped too
     * once the limit is reached; a file refused for its size still counts.
     */
    public function testFilesPastTheLimitAreDroppedAndTheRestIsParsed(): void
    {
        $limits = new MultipartLimits(maxFileSize: 10, maxFiles: 3);
        $body = self::body([
            ['name' => 'none', 'filename' => '', 'content' => ''],
            ['name' => 'a', 'filename' => 'a.txt', 'content' => 'A'],
            ['name' => 'title', 'content' => 'before'],
            ['name' => 'big', 'filename' => 'big.txt', 'content' => \str_repeat('B', 11)],
            ['name' => 'c[]', 'filename' => 'c.txt', 'type' => 'text/plain', 'content' => 'C'],
            ['name' => 'd', 'filename' => 'd.txt', 'content' => "D\r\n--" . \substr(self::BOUNDARY, 0, 5)],
            ['name' => 'c[]', 'filename' => 'e.txt', 'content' => 'E'],
            ['name' => 'late', 'filename' => '', 'content' => ''],
            ['name' => 'note', 'content' => 'after'],
        ]);
        foreach (self::feedings($body, 23, 10) as $how => $pieces) {
            $parser = $this->parser($limits);
            foreach ($pieces as $piece) {
                $parser->push($piece);
            }
            $result = $parser->finish();
            self::assertSame(['title' => 'before', 'note' => 'after'], $result->fields, $how);
            self::assertSame(['none', 'a', 'big', 'c'], \array_keys($result->files), $how);
            self::assertSame(\UPLOAD_ERR_NO_FILE, $result->files['none']->error, $how);
            self::assertUpload($result->files['a'], 'A', 'a.txt', null, $this->tmpDir, $how);
            self::assertSame(\UPLOAD_ERR_INI_SIZE, $result->files['big']->error, $how);
            self::assertCount(1, $result->files['c'], $how);
            self::assertUpload($result->files['c'][0], 'C', 'c.txt', 'text/plain', $this->tmpDir, $how);
            self::assertCount(2, $parser->tempFiles(), $how);
            self::assertCount(4, \scandir($this->tmpDir) ?: [], $how);
            $parser->abort();
            $this->assertTmpDirEmpty($how);
        }
    }

    public function testNoFileAtAllWithALimitOfZero(): void
    {
        $parser = $this->parser(new MultipartLimits(maxFiles: 0));
        $parser->push(self::body([
            ['name' => 'a', 'filename' => 'a.txt', 'content' => 'A'],
            ['name' => 'f', 'content' => 'v'],
        ]));
        $result = $parser->finish();
        self::assertSame(['f' => 'v'], $result->fields);
        self::assertSame([], $result->files);
        $this->assertTmpDirEmpty();
    }

    public function testPartHeaderSizeLimit(): void
    {
        $limits = new MultipartLimits(maxPartHeaderSize: 100);
        $b = self::BOUNDARY;
        $prefix = 'Content-Disposition: form-data; name="';
        $name = \str_repeat('n', 100 - \strlen($prefix) - 1);
        $fits = "--$b\r\n$prefix$name\"\r\n\r\nv\r\n--$b--";
        self::assertSame([$name => 'v'], $this->parsePieces([$fits], $limits)->fields);
        $tooLong = "--$b\r\n{$prefix}n$name\"\r\n\r\nv\r\n--$b--";
        $endless = "--$b\r\n$prefix" . \str_repeat('n', 5000);
        foreach ([$tooLong, $endless] as $body) {
            foreach (self::feedings($body, 6, 5) as $how => $pieces) {
                self::assertHttpError(400, fn () => $this->parsePieces($pieces, $limits), $how);
            }
        }
    }

    public function testMalformedBodiesAreRejectedWith400(): void
    {
        $b = self::BOUNDARY;
        $cd = 'Content-Disposition: form-data; name="a"';
        $cases = [
            'empty body' => '',
            'no delimiter at all' => 'hello world',
            'delimiter without leading dashes' => "$b\r\n$cd\r\n\r\nx\r\n$b--",
            'missing closing delimiter' => "--$b\r\n$cd\r\n\r\nx",
            'missing closing delimiter after CRLF' => "--$b\r\n$cd\r\n\r\nx\r\n",
            'missing closing delimiter after delimiter line' => "--$b\r\n$cd\r\n\r\nx\r\n--$b\r\n",
            'headers never end' => "--$b\r\n$cd\r\n",
            'LF-only lines' => "--$b\n$cd\n\nx\n--$b--",
            'delimiter line with trailing text in preamble' => "preamble\r\n--{$b}X\r\n--$b\r\n$cd\r\n\r\nx\r\n--$b--",
            'garbage after delimiter' => "--$b" . "X\r\n$cd\r\n\r\nx\r\n--$b--",
            'single dash after delimiter' => "--$b-\r\n$cd\r\n\r\nx\r\n--$b--",
            'CR without LF after delimiter' => "--$b\rX$cd\r\n\r\nx\r\n--$b--",
            'header line without colon' => "--$b\r\nGarbage\r\n$cd\r\n\r\nx\r\n--$b--",
            'header name with space' => "--$b\r\nContent-Disposition : form-data; name=\"a\"\r\n\r\nx\r\n--$b--",
            'header with control byte' => "--$b\r\n$cd\x01\r\n\r\nx\r\n--$b--",
            'header with bare LF' => "--$b\r\n$cd\nX: y\r\n\r\nx\r\n--$b--",
            'continuation first' => "--$b\r\n  folded\r\n$cd\r\n\r\nx\r\n--$b--",
            'no Content-Disposition' => "--$b\r\nContent-Type: text/plain\r\n\r\nx\r\n--$b--",
            'no headers' => "--$b\r\n\r\nx\r\n--$b--",
            'no name' => "--$b\r\nContent-Disposition: form-data; filename=\"f.txt\"\r\n\r\nx\r\n--$b--",
            'name without value' => "--$b\r\nContent-Disposition: form-data; name\r\n\r\nx\r\n--$b--",
            'not form-data' => "--$b\r\nContent-Disposition: attachment; name=\"a\"\r\n\r\nx\r\n--$b--",
            'unterminated quote' => "--$b\r\nContent-Disposition: form-data; name=\"a\r\n\r\nx\r\n--$b--",
            'text after quoted value' => "--$b\r\nContent-Disposition: form-data; name=\"a\"b\r\n\r\nx\r\n--$b--",
            'repeated name' => "--$b\r\nContent-Disposition: form-data; name=\"a\"; name=\"b\"\r\n\r\nx\r\n--$b--",
            'repeated Content-Disposition' => "--$b\r\n$cd\r\n$cd\r\n\r\nx\r\n--$b--",
            'second part broken' => "--$b\r\n$cd\r\n\r\nx\r\n--$b\r\nBroken\r\n\r\ny\r\n--$b--",
        ];
        foreach ($cases as $case => $body) {
            foreach (['whole' => [$body], 'byte by byte' => \str_split($body)] as $how => $pieces) {
                self::assertHttpError(400, fn () => $this->parsePieces($pieces), "$case ($how)");
                $this->assertTmpDirEmpty($case);
            }
        }
    }

    public function testFailedParserStaysFailed(): void
    {
        $parser = $this->parser();
        self::assertHttpError(400, fn () => $parser->push("--" . self::BOUNDARY . "\r\nBroken\r\n\r\n"));
        self::assertHttpError(400, fn () => $parser->push("more"));
        self::assertHttpError(400, fn () => $parser->finish());
        $parser->abort();
    }

    public function testAbortRemovesTempFilesAndIsIdempotent(): void
    {
        \mt_srand(21);
        $body = self::body([
            ['name' => 'one', 'filename' => '1.bin', 'content' => self::trickyBytes(2000)],
            ['name' => 'two', 'filename' => '2.bin', 'content' => self::trickyBytes(2000)],
        ]);

        // Mid-stream: one file complete, the second one open.
        $parser = $this->parser();
        $parser->push(\substr($body, 0, 3000));
        self::assertCount(2, $parser->tempFiles());
        foreach ($parser->tempFiles() as $path) {
            self::assertFileExists($path);
        }
        $parser->abort();
        $parser->abort();
        self::assertSame([], $parser->tempFiles());
        $this->assertTmpDirEmpty();

        // After a successful finish().
        $parser = $this->parser();
        $parser->push($body);
        $result = $parser->finish();
        self::assertInstanceOf(UploadedFile::class, $result->files['one']);
        self::assertFileExists($result->files['one']->tmpPath);
        $parser->abort();
        $parser->abort();
        self::assertFileDoesNotExist($result->files['one']->tmpPath);
        $this->assertTmpDirEmpty();

        // After an error.
        $parser = $this->parser();
        $parser->push(\substr($body, 0, 3000));
        self::assertHttpError(400, fn () => $parser->finish());
        self::assertCount(2, $parser->tempFiles());
        $parser->abort();
        $this->assertTmpDirEmpty();
    }

    public function testBoundaryFromContentType(): void
    {
        $cases = [
            'multipart/form-data; boundary=abc' => 'abc',
            'multipart/form-data;boundary=abc;charset=utf-8' => 'abc',
            'multipart/form-data; charset=utf-8; BOUNDARY="a b;c=d"' => 'a b;c=d',
            'Multipart/Form-Data; Boundary=----WebKitFormBoundary7MA4YWxkTrZu0gW' => '----WebKitFormBoundary7MA4YWxkTrZu0gW',
            'multipart/form-data; boundary=----=_Part_0_12.34 ' => '----=_Part_0_12.34',
            'multipart/form-data; boundary="q\\"uote"' => 'q"uote',
            'multipart/form-data; boundary=' . \str_repeat('x', 70) => \str_repeat('x', 70),
        ];
        foreach ($cases as $contentType => $boundary) {
            self::assertSame($boundary, MultipartParser::boundaryFromContentType($contentType), $contentType);
        }

        foreach ([
            'multipart/form-data',
            'multipart/form-data;',
            'multipart/form-data; charset=utf-8',
            'multipart/form-data; boundary=',
            'multipart/form-data; boundary=""',
            'multipart/form-data; boundary="abc',
            'multipart/form-data; boundary="abc"x',
            'multipart/form-data; boundary="trailing "',
            'multipart/form-data; boundary=' . \str_repeat('x', 71),
            "multipart/form-data; boundary=a\x01b",
            "multipart/form-data; boundary=\"a\r\nb\"",
            'multipart/form-data; boundary=a; boundary=b',
        ] as $contentType) {
            self::assertHttpError(400, static fn () => MultipartParser::boundaryFromContentType($contentType), $contentType);
        }

        self::assertHttpError(400, fn () => new MultipartParser('', new TempFileSink($this->tmpDir), new MultipartLimits()));
        self::assertHttpError(400, fn () => new MultipartParser(\str_repeat('x', 71), new TempFileSink($this->tmpDir), new MultipartLimits()));
    }

    public function testUnusualBoundaryFromContentTypeParses(): void
    {
        $boundary = MultipartParser::boundaryFromContentType("multipart/form-data; boundary=\"'()+_,-./:=? x\"");
        $body = self::body([['name' => 'a', 'content' => '1']], $boundary);
        self::assertSame(['a' => '1'], $this->parsePieces(\str_split($body), null, $boundary)->fields);
    }

    public function testGarbageOnlyEverProducesHttpException(): void
    {
        $seed = 424242;
        \mt_srand($seed);
        $b = 'gb';
        $valid = self::body([
            ['name' => 'f', 'content' => 'v'],
            ['name' => 'a[]', 'filename' => 'x.bin', 'type' => 'application/octet-stream', 'content' => self::trickyBytes(300, $b)],
            ['name' => 'a[]', 'filename' => '', 'content' => ''],
            ['name' => 'g[x][y]', 'content' => "\r\n"],
        ], $b);
        $fragments = ["\r\n", "--$b", "\r\n--$b", "\r\n--$b--", "\r\n\r\n", 'Content-Disposition: form-data; name="z"', '"', ';', ' ', '-', "\0"];
        $limits = [
            new MultipartLimits(),
            new MultipartLimits(maxParts: 2, maxFileSize: 50, maxFieldSize: 3, maxPartHeaderSize: 40),
            new MultipartLimits(0, 0, 0, 0),
        ];

        $errors = [];
        \set_error_handler(static function (int $no, string $str) use (&$errors): bool {
            if ((\error_reporting() & $no) !== 0) {
                $errors[] = $str;
            }

            return true;
        });
        try {
            $outcomes = ['ok' => 0, 'http' => 0];
            for ($i = 0; $i < 200; ++$i) {
                $where = "seed $seed, iteration $i";
                $body = match ($i % 4) {
                    0 => \mt_rand(0, 1) === 1 ? "--$b\r\n" . self::randomBytes(\mt_rand(0, 600)) : self::randomBytes(\mt_rand(0, 600)),
                    default => self::mutate($valid, $fragments),
                };
                $parser = new MultipartParser($b, new TempFileSink($this->tmpDir), $limits[\mt_rand(0, \count($limits) - 1)]);
                try {
                    foreach (self::randomSplit($body, 64) as $piece) {
                        $parser->push($piece);
                    }
                    $result = $parser->finish();
                    $files = $result->files;
                    \array_walk_recursive($files, static function (mixed $file) use ($where): void {
                        self::assertInstanceOf(UploadedFile::class, $file, $where);
                        if ($file->error === \UPLOAD_ERR_OK) {
                            self::assertSame($file->size, \filesize($file->tmpPath), $where);
                        }
                    });
                    ++$outcomes['ok'];
                } catch (HttpException $e) {
                    self::assertContains($e->status, [400, 413], $where);
                    ++$outcomes['http'];
                } catch (\Throwable $e) {
                    self::fail("$where: unexpected " . $e::class . ': ' . $e->getMessage());
                } finally {
                    $parser->abort();
                }
                self::assertSame([], $errors, $where);
                self::assertSame([], $parser->tempFiles(), $where);
                $this->assertTmpDirEmpty($where);
            }
        } finally {
            \restore_error_handler();
        }
        // Mutations must not all be fatal, or the test would prove little.
        self::assertGreaterThan(10, $outcomes['ok'], "seed $seed");
        self::assertGreaterThan(10, $outcomes['http'], "seed $seed");
    }

    private static function randomBytes(int $length): string
    {
        $out = '';
        for ($i = 0; $i < $length; ++$i) {
            $out .= \chr(\mt_rand(0, 255));
        }

        return $out;
    }

    /** @param list<string> $fragments */
    private static function mutate(string $body, array $fragments): string
    {
        $mutations = \mt_rand(0, 4);
        for ($m = 0; $m < $mutations; ++$m) {
            $length = \strlen($body);
            $at = \mt_rand(0, $length);
            $body = match (\mt_rand(0, 5)) {
                0 => \substr($body, 0, $at) . \chr(\mt_rand(0, 255)) . \substr($body, $at + 1),
                1 => \substr($body, 0, $at) . \substr($body, $at + \mt_rand(1, 20)),
                2 => \substr($body, 0, $at) . $fragments[\mt_rand(0, \count($fragments) - 1)] . \substr($body, $at),
                3 => \substr($body, 0, $at) . self::randomBytes(\mt_rand(1, 10)) . \substr($body, $at),
                4 => \substr($body, 0, $at),
                default => \substr($body, 0, $at) . \substr($body, \mt_rand(0, $length), \mt_rand(1, 80)) . \substr($body, $at),
            };
        }

        return $body;
    }
}
