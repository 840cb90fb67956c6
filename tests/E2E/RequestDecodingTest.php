<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\RawClient;
use Spindle\Tests\E2E\Support\ServerProcess;

/**
 * What the application sees of real requests: bodies (Content-Length, chunked, 100-continue),
 * forms, cookies, query strings, absolute-form targets and multipart uploads.
 */
final class RequestDecodingTest extends E2ETestCase
{
    private static ?string $uploadDir = null;

    public static function tearDownAfterClass(): void
    {
        parent::tearDownAfterClass();
        if (self::$uploadDir !== null) {
            foreach (\glob(self::$uploadDir . '/*') ?: [] as $file) {
                @\unlink($file);
            }
            @\rmdir(self::$uploadDir);
            self::$uploadDir = null;
        }
    }

    /**
     * The uploads being written: each worker has a directory of its own in the upload directory.
     *
     * @return list<string>
     */
    private static function uploads(): array
    {
        return \glob(self::uploadDir() . '/spindle-worker-*/*') ?: [];
    }

    private static function uploadDir(): string
    {
        if (self::$uploadDir === null) {
            $dir = \sys_get_temp_dir() . '/spindle-e2e-uploads-' . \bin2hex(\random_bytes(6));
            self::assertTrue(\mkdir($dir, 0700));
            self::$uploadDir = $dir;
        }

        return self::$uploadDir;
    }

    private static function server(): ServerProcess
    {
        return self::sharedServer(ServerProcess::fixture('echo.php'), ['--upload-dir=' . self::uploadDir()]);
    }

    /**
     * @param list<string> $arguments
     *
     * @return array<mixed>
     */
    private static function curlJson(array $arguments): array
    {
        $result = self::curl(['-s', '-S', '--fail', ...$arguments]);
        self::assertSame(0, $result['code'], $result['err']);
        $data = \json_decode($result['out'], true);
        self::assertIsArray($data, $result['out']);

        return $data;
    }

    public function testQueryStringAndServerParams(): void
    {
        $server = self::server();
        $data = self::curlJson(['--globoff', $server->url('/search/items?q=hello%20world&tags[]=a&tags[]=b&empty=')]);

        self::assertSame('GET', $data['method']);
        self::assertSame('/search/items', $data['path']);
        self::assertSame(['q' => 'hello world', 'tags' => ['a', 'b'], 'empty' => ''], $data['queryParams']);
        self::assertSame('1.1', $data['protocol']);
        self::assertSame('GET', $data['server']['REQUEST_METHOD']);
        self::assertSame('/search/items?q=hello%20world&tags[]=a&tags[]=b&empty=', $data['server']['REQUEST_URI']);
        self::assertSame('q=hello%20world&tags[]=a&tags[]=b&empty=', $data['server']['QUERY_STRING']);
        self::assertSame('HTTP/1.1', $data['server']['SERVER_PROTOCOL']);
        self::assertSame('127.0.0.1', $data['server']['REMOTE_ADDR']);
        self::assertIsInt($data['server']['REMOTE_PORT']);
        self::assertSame($server->port(), $data['server']['SERVER_PORT']);
        self::assertSame('127.0.0.1:' . $server->port(), $data['server']['HTTP_HOST']);
        self::assertSame(['127.0.0.1:' . $server->port()], $data['headers']['host'] ?? $data['headers']['Host'] ?? null);
    }

    public function testUrlEncodedForm(): void
    {
        $data = self::curlJson([
            '--data-urlencode', 'name=Zoë & co',
            '--data-urlencode', 'list[]=a',
            '--data-urlencode', 'list[]=b',
            '--data-urlencode', 'user[role]=admin',
            self::server()->url('/form'),
        ]);

        self::assertSame('POST', $data['method']);
        self::assertSame(['name' => 'Zoë & co', 'list' => ['a', 'b'], 'user' => ['role' => 'admin']], $data['parsedBody']);
    }

    public function testCookies(): void
    {
        $data = self::curlJson(['-b', 'session=abc123; theme=dark; quoted="v a l"', self::server()->url('/cookies')]);

        self::assertSame('abc123', $data['cookies']['session'] ?? null);
        self::assertSame('dark', $data['cookies']['theme'] ?? null);
        self::assertArrayHasKey('quoted', $data['cookies']);
    }

    public function testExpectContinueWithCurl(): void
    {
        $body = \str_repeat('0123456789abcdef', 256) . 'end';
        $file = \tempnam(\sys_get_temp_dir(), 'spindle-e2e-body-');
        self::assertIsString($file);
        \file_put_contents($file, $body);
        try {
            $result = self::curl([
                '-s', '-v', '-H', 'Expect: 100-continue', '-H', 'Content-Type: application/octet-stream',
                '--data-binary', '@' . $file, self::server()->url('/continue'),
            ]);
        } finally {
            @\unlink($file);
        }
        self::assertSame(0, $result['code'], $result['err']);
        self::assertStringContainsString('HTTP/1.1 100 Continue', $result['err']);
        // curl sends the body after one second without an interim response; it got one sooner.
        self::assertLessThan(0.9, $result['seconds']);
        $data = \json_decode($result['out'], true);
        self::assertIsArray($data);
        self::assertSame(\strlen($body), $data['bodyLength']);
        self::assertSame(\sha1($body), $data['bodySha1']);
    }

    public function testExpectContinueRawArrivesBeforeTheBodyIsSent(): void
    {
        $body = \random_bytes(2048);
        $client = new RawClient(self::server()->port());
        $client->send("POST /continue HTTP/1.1\r\nHost: a\r\nContent-Type: application/octet-stream\r\nContent-Length: 2048\r\nExpect: 100-continue\r\n\r\n");
        $interim = $client->readResponse(timeout: 2.0);
        self::assertSame(100, $interim->status);
        self::assertSame('', $client->buffered());

        $client->send($body);
        $final = $client->readResponse();
        self::assertSame(200, $final->status);
        $data = $final->json();
        self::assertSame(2048, $data['bodyLength']);
        self::assertSame(\sha1($body), $data['bodySha1']);

        // The same connection goes on serving requests.
        $client->send(self::get('/after'));
        self::assertSame('/after', $client->readResponse()->json()['path']);
    }

    public function testChunkedRequestBody(): void
    {
        $client = new RawClient(self::server()->port());
        // Sent in pieces that split the chunk framing, with an extension and a trailer.
        $pieces = [
            "POST /chunked HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nContent-Type: application/x-www-form-urlencoded\r\n\r\n",
            "6\r\nname=Z\r",
            "\n9;ext=1\r\noë&x[]=1\r\n", // "ë" is two bytes
            "5\r\n&x[]=\r\n1\r\n2\r\n0\r\nX-Trailer: yes\r\n",
            "\r\n",
        ];
        foreach ($pieces as $piece) {
            $client->send($piece);
            \usleep(20000);
        }
        $data = $client->readResponse()->json();
        self::assertSame('name=Zoë&x[]=1&x[]=2', $data['body']);
        self::assertSame(['name' => 'Zoë', 'x' => ['1', '2']], $data['parsedBody']);
    }

    public function testAbsoluteFormTarget(): void
    {
        $response = self::rawRequest(self::server(), "GET http://example.com/abs/path?x=1&y=two HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n");
        self::assertSame(200, $response->status);
        $data = $response->json();
        self::assertSame('/abs/path', $data['path']);
        self::assertSame('x=1&y=two', $data['query']);
        self::assertSame(['x' => '1', 'y' => 'two'], $data['queryParams']);
    }

    public function testMultipartUploadWithCurl(): void
    {
        $dir = \sys_get_temp_dir();
        $text = "First line\r\nSecond line\n--not-a-boundary\r\n";
        $binary = \random_bytes(200000) . "\r\n--\r\n\0\0\xff" . \random_bytes(70000);
        $textFile = \tempnam($dir, 'spindle-e2e-text-');
        $binaryFile = \tempnam($dir, 'spindle-e2e-bin-');
        self::assertIsString($textFile);
        self::assertIsString($binaryFile);
        \file_put_contents($textFile, $text);
        \file_put_contents($binaryFile, $binary);
        try {
            $data = self::curlJson([
                '-F', 'title=My upload',
                '-F', 'doc=@' . $textFile . ';filename=notes.txt;type=text/plain',
                '-F', 'blob=@' . $binaryFile . ';filename=blob.bin;type=application/octet-stream',
                self::server()->url('/upload'),
            ]);
        } finally {
            @\unlink($textFile);
            @\unlink($binaryFile);
        }

        self::assertSame(['title' => 'My upload'], $data['parsedBody']);
        self::assertSame(['doc', 'blob'], \array_keys($data['files']));
        $doc = $data['files']['doc'];
        self::assertSame('notes.txt', $doc['name']);
        self::assertSame('text/plain', $doc['type']);
        self::assertSame(\UPLOAD_ERR_OK, $doc['error']);
        self::assertSame(\strlen($text), $doc['size']);
        self::assertSame(\strlen($text), $doc['read']);
        self::assertSame(\sha1($text), $doc['sha1']);
        $blob = $data['files']['blob'];
        self::assertSame('blob.bin', $blob['name']);
        self::assertSame(\strlen($binary), $blob['size']);
        self::assertSame(\sha1($binary), $blob['sha1']);

        foreach ([$doc, $blob] as $file) {
            self::assertTrue($file['tmpExists'], 'the upload exists while the request runs');
            self::assertStringStartsWith(self::uploadDir() . '/', $file['tmpPath']);
        }
        // The temporary files are removed once the response is sent.
        $gone = self::eventually(static fn (): bool => !\file_exists($doc['tmpPath']) && !\file_exists($blob['tmpPath']), 2.0);
        self::assertTrue($gone, 'upload temp files were not removed');
        self::assertSame([], self::uploads());
    }

    /**
     * As PHP's max_file_uploads (20 by default): the first files are uploaded, later file parts
     * are dropped (in neither the files nor the fields), the fields after them still arrive, and
     * no temporary file is left of the dropped ones. --max-file-uploads changes the count.
     */
    public function testUploadCountLimitDefaultAndOption(): void
    {
        $file = \tempnam(\sys_get_temp_dir(), 'spindle-e2e-upload-');
        self::assertIsString($file);
        \file_put_contents($file, 'content');
        $form = static function (int $files) use ($file): array {
            $arguments = ['-F', 'before=1'];
            for ($i = 0; $i < $files; ++$i) {
                $arguments[] = '-F';
                $arguments[] = "f[]=@{$file};filename=f{$i}.txt;type=text/plain";
            }

            return [...$arguments, '-F', 'after=2'];
        };
        try {
            $default = self::curlJson([...$form(25), self::server()->url('/upload')]);
            self::assertSame(['before' => '1', 'after' => '2'], $default['parsedBody']);
            self::assertCount(20, $default['files']['f']);
            self::assertSame(\array_map(static fn (int $i): string => "f{$i}.txt", \range(0, 19)), \array_column($default['files']['f'], 'name'));
            self::assertSame([\UPLOAD_ERR_OK], \array_values(\array_unique(\array_column($default['files']['f'], 'error'))));

            $three = self::sharedServer(ServerProcess::fixture('echo.php'), ['--upload-dir=' . self::uploadDir(), '--max-file-uploads=3']);
            $limited = self::curlJson([...$form(5), $three->url('/upload')]);
            self::assertSame(['before' => '1', 'after' => '2'], $limited['parsedBody']);
            self::assertSame(['f0.txt', 'f1.txt', 'f2.txt'], \array_column($limited['files']['f'], 'name'));
            self::assertSame([\sha1('content')], \array_values(\array_unique(\array_column($limited['files']['f'], 'sha1'))));

            $many = self::sharedServer(ServerProcess::fixture('echo.php'), ['--upload-dir=' . self::uploadDir(), '--max-file-uploads=100']);
            self::assertCount(25, self::curlJson([...$form(25), $many->url('/upload')])['files']['f']);
        } finally {
            @\unlink($file);
        }
        self::assertTrue(self::eventually(static fn (): bool => self::uploads() === [], 2.0), 'temporary files left behind');
    }

    public function testAMaxFileUploadsThatIsNotANumberIsRefused(): void
    {
        $server = ServerProcess::launch(ServerProcess::fixture('echo.php'), ['--max-file-uploads=many']);
        self::assertSame(2, $server->waitForExit(10.0));
        self::assertStringContainsString('--max-file-uploads must be a whole number, got "many"', $server->stderr());
    }

    public function testAbandonedUploadLeavesNoTemporaryFile(): void
    {
        $boundary = 'e2eBoundary' . \bin2hex(\random_bytes(4));
        $body = "--{$boundary}\r\nContent-Disposition: form-data; name=\"f\"; filename=\"big.bin\"\r\n"
            . "Content-Type: application/octet-stream\r\n\r\n" . \str_repeat('a', 300000) . "\r\n--{$boundary}--\r\n";
        $client = new RawClient(self::server()->port());
        $client->send("POST /upload HTTP/1.1\r\nHost: a\r\nContent-Type: multipart/form-data; boundary={$boundary}\r\n"
            . 'Content-Length: ' . \strlen($body) . "\r\n\r\n" . \substr($body, 0, 150000));

        // The part is being written to a temporary file; then the client goes away.
        self::assertTrue(self::eventually(static fn (): bool => self::uploads() !== [], 2.0));
        $client->close();
        self::assertTrue(
            self::eventually(static fn (): bool => self::uploads() === [], 2.0),
            'temporary file of an abandoned upload was left behind',
        );
    }

    public function testBodyOfExactlyTheLimitIsAccepted(): void
    {
        $server = self::sharedServer(ServerProcess::fixture('echo.php'), ['--max-body-size=65536']);
        $body = \random_bytes(65536);
        $response = self::rawRequest($server, "POST /max HTTP/1.1\r\nHost: a\r\nContent-Length: 65536\r\nConnection: close\r\n\r\n" . $body);
        self::assertSame(200, $response->status);
        self::assertSame(\sha1($body), $response->json()['bodySha1']);

        $chunked = "POST /max HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
            . "8000\r\n" . \substr($body, 0, 32768) . "\r\n8000\r\n" . \substr($body, 32768) . "\r\n0\r\n\r\n";
        $response = self::rawRequest($server, $chunked);
        self::assertSame(200, $response->status);
        self::assertSame(\sha1($body), $response->json()['bodySha1']);

        $tooBig = self::rawRequest($server, "POST /max HTTP/1.1\r\nHost: a\r\nContent-Length: 65537\r\n\r\n");
        self::assertSame(413, $tooBig->status);
    }

    public function testRequestBodyOnKeepAliveConnection(): void
    {
        $client = new RawClient(self::server()->port());
        for ($i = 0; $i < 3; ++$i) {
            $body = \str_repeat((string) $i, 1000 + $i);
            $client->send("PUT /put/{$i} HTTP/1.1\r\nHost: a\r\nContent-Type: text/plain\r\nContent-Length: " . \strlen($body) . "\r\n\r\n" . $body);
            $data = $client->readResponse()->json();
            self::assertSame('PUT', $data['method']);
            self::assertSame('/put/' . $i, $data['path']);
            self::assertSame($body, $data['body']);
        }
    }
}
