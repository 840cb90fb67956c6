<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Bridge\HttpFoundation;

use PHPUnit\Framework\TestCase;
use Spindle\Bridge\HttpFoundation\ResponseConverter;
use Spindle\Http\FileBody;
use Spindle\Http\Response;
use Symfony\Component\HttpFoundation\BinaryFileResponse;
use Symfony\Component\HttpFoundation\Cookie;
use Symfony\Component\HttpFoundation\JsonResponse;
use Symfony\Component\HttpFoundation\Request;
use Symfony\Component\HttpFoundation\Response as SymfonyResponse;

final class ResponseConverterTest extends TestCase
{
    private ?string $file = null;

    protected function tearDown(): void
    {
        if ($this->file !== null && \is_file($this->file)) {
            \unlink($this->file);
        }
    }

    /** @param array<string, string> $headers */
    private static function request(string $method = 'GET', array $headers = []): Request
    {
        $request = Request::create('http://example.com/', $method);
        foreach ($headers as $name => $value) {
            $request->headers->set($name, $value);
        }

        return $request;
    }

    /** @param array<string, string|list<string>> $headers */
    private static function header(array $headers, string $name): ?string
    {
        foreach ($headers as $key => $values) {
            if (\strcasecmp($key, $name) === 0) {
                return \implode(', ', (array) $values);
            }
        }

        return null;
    }

    public function testStatusHeadersAndBodyOfAPlainResponse(): void
    {
        $symfony = new SymfonyResponse('<h1>Created</h1>', 201, ['X-Trace' => ['a', 'b'], 'content-language' => 'en']);
        $response = (new ResponseConverter())->toSpindle($symfony, self::request());

        self::assertSame(201, $response->status);
        self::assertSame('', $response->reason, 'the standard phrase is left to Spindle');
        self::assertSame('<h1>Created</h1>', $response->body);
        self::assertSame(['a', 'b'], $response->headers['X-Trace']);
        self::assertSame(['en'], $response->headers['content-language'], 'names keep the case they were given');
        // HttpFoundation 7 writes the default charset in lower case, 5.4 and 6.4 in upper case.
        self::assertSame('text/html; charset=utf-8', \strtolower((string) self::header($response->headers, 'Content-Type')), 'prepare() ran');
        self::assertNotNull(self::header($response->headers, 'Date'));
    }

    public function testAResponseTheFrameworkPreparedIsNotPreparedAgainButATextTypeGetsItsCharset(): void
    {
        $request = self::request();
        $symfony = new class('<p>ok</p>') extends SymfonyResponse {
            public int $prepared = 0;

            public function prepare(Request $request): static
            {
                ++$this->prepared;

                return parent::prepare($request);
            }
        };
        $symfony->prepare($request);
        // Changed by a middleware after the framework prepared it: sent as PHP-FPM sends it, as it
        // is but for the charset PHP adds to a text/ type.
        $symfony->headers->set('Content-Type', 'text/csv');
        $response = (new ResponseConverter())->toSpindle($symfony, $request);

        self::assertSame(1, $symfony->prepared, 'prepared once, by the framework');
        self::assertSame('text/csv; charset=utf-8', \strtolower((string) self::header($response->headers, 'Content-Type')));

        $symfony->headers->set('Content-Type', 'application/json');
        $response = (new ResponseConverter())->toSpindle($symfony, $request);
        self::assertSame('application/json', self::header($response->headers, 'Content-Type'), 'no charset outside text/');

        // Not prepared yet (a new response says HTTP/1.0): prepare() runs, and fills in what is missing.
        $fresh = clone $symfony;
        $fresh->setProtocolVersion('1.0');
        $fresh->headers->remove('Content-Type');
        $response = (new ResponseConverter())->toSpindle($fresh, $request);
        self::assertSame(2, $fresh->prepared);
        self::assertSame('text/html; charset=utf-8', \strtolower((string) self::header($response->headers, 'Content-Type')));
    }

    public function testCustomReasonPhraseIsKept(): void
    {
        $symfony = new SymfonyResponse('', 299);
        $symfony->setStatusCode(299, 'Mostly Fine');

        self::assertSame('Mostly Fine', (new ResponseConverter())->toSpindle($symfony, self::request())->reason);
    }

    public function testEveryCookieIsItsOwnSetCookieLine(): void
    {
        $symfony = new SymfonyResponse('ok');
        $symfony->headers->setCookie(Cookie::create('session', 'abc=+/', 0, '/', null, true, true, false, 'lax'));
        $symfony->headers->setCookie(Cookie::create('theme', 'dark'));
        $symfony->headers->setCookie(Cookie::create('theme', 'light', 0, '/admin'));
        $symfony->headers->clearCookie('old');
        $response = (new ResponseConverter())->toSpindle($symfony, self::request());

        $lines = $response->headers['Set-Cookie'];
        self::assertIsArray($lines);
        self::assertCount(4, $lines);
        $byStart = [];
        foreach ($lines as $line) {
            $byStart[\substr($line, 0, (int) \strpos($line, ';'))] = $line;
        }
        self::assertSame('session=abc%3D%2B%2F; path=/; secure; httponly; samesite=lax', $byStart['session=abc%3D%2B%2F']);
        self::assertStringStartsWith('theme=dark; path=/;', $byStart['theme=dark']);
        self::assertStringStartsWith('theme=light; path=/admin;', $byStart['theme=light']);
        self::assertStringContainsString('Max-Age=0', $byStart['old=deleted']);
        self::assertNull(self::header($response->headers, 'Content-Length'));
    }

    public function testJsonResponseIsAStringBody(): void
    {
        $response = (new ResponseConverter())->toSpindle(new JsonResponse(['id' => 5, 'tags' => ['a']]), self::request());

        self::assertSame('{"id":5,"tags":["a"]}', $response->body);
        self::assertSame('application/json', self::header($response->headers, 'Content-Type'));
    }

    public function testHeadKeepsTheBodyForItsLengthWhenNotYetPrepared(): void
    {
        // Spindle sends Content-Length of the body, and no body, for HEAD.
        $response = (new ResponseConverter())->toSpindle(new SymfonyResponse('twelve bytes'), self::request('HEAD'));

        self::assertSame('twelve bytes', $response->body);
    }

    public function testHeadAfterTheFrameworkPreparedIsSentWithoutALength(): void
    {
        $request = self::request('HEAD');
        $symfony = new SymfonyResponse('twelve bytes');
        $symfony->prepare($request);

        $response = (new ResponseConverter())->toSpindle($symfony, $request);

        self::assertSame([], $response->body, 'an empty body of unknown length: no Content-Length');
    }

    public function testNoContentResponseLosesItsBodyHeaders(): void
    {
        $response = (new ResponseConverter())->toSpindle(new SymfonyResponse('ignored', 204, ['Content-Type' => 'text/plain']), self::request());

        self::assertSame(204, $response->status);
        self::assertSame('', $response->body);
        self::assertNull(self::header($response->headers, 'Content-Type'));
    }

    private function file(string $content): string
    {
        $path = \tempnam(\sys_get_temp_dir(), 'spindle-file-');
        self::assertIsString($path);
        \file_put_contents($path, $content);

        return $this->file = $path;
    }

    private static function fileResponse(string $path): BinaryFileResponse
    {
        // A Content-Type of its own: guessing it needs symfony/mime.
        return new BinaryFileResponse($path, 200, ['Content-Type' => 'text/plain'], true, null, true, true);
    }

    public function testFileResponseIsReadFromDiskWhileSent(): void
    {
        $path = $this->file('0123456789abcdef');
        $response = (new ResponseConverter())->toSpindle(self::fileResponse($path), self::request());

        self::assertSame(200, $response->status);
        self::assertInstanceOf(FileBody::class, $response->body);
        self::assertSame($path, $response->body->path);
        self::assertSame(0, $response->body->offset);
        self::assertSame(16, $response->body->length);
        self::assertSame('bytes', self::header($response->headers, 'Accept-Ranges'));
        self::assertNotNull(self::header($response->headers, 'Last-Modified'));
    }

    public function testRangeRequestGetsPartialContent(): void
    {
        $path = $this->file('0123456789abcdef');
        $converter = new ResponseConverter();

        $middle = $converter->toSpindle(self::fileResponse($path), self::request('GET', ['Range' => 'bytes=2-5']));
        self::assertSame(206, $middle->status);
        self::assertSame('bytes 2-5/16', self::header($middle->headers, 'Content-Range'));
        self::assertInstanceOf(FileBody::class, $middle->body);
        self::assertSame([2, 4], [$middle->body->offset, $middle->body->length]);

        $suffix = $converter->toSpindle(self::fileResponse($path), self::request('GET', ['Range' => 'bytes=-3']));
        self::assertSame(206, $suffix->status);
        self::assertInstanceOf(FileBody::class, $suffix->body);
        self::assertSame([13, 3], [$suffix->body->offset, $suffix->body->length]);

        $open = $converter->toSpindle(self::fileResponse($path), self::request('GET', ['Range' => 'bytes=10-']));
        self::assertInstanceOf(FileBody::class, $open->body);
        self::assertSame([10, 6], [$open->body->offset, $open->body->length]);

        $unsatisfiable = $converter->toSpindle(self::fileResponse($path), self::request('GET', ['Range' => 'bytes=100-200']));
        self::assertSame(416, $unsatisfiable->status);
        self::assertSame('bytes */16', self::header($unsatisfiable->headers, 'Content-Range'));
        self::assertSame('', $unsatisfiable->body);

        $stale = $converter->toSpindle(self::fileResponse($path), self::request('GET', ['Range' => 'bytes=2-5', 'If-Range' => '"not-the-etag"']));
        self::assertSame(200, $stale->status, 'If-Range does not match: the whole file');
        self::assertInstanceOf(FileBody::class, $stale->body);
        self::assertSame([0, 16], [$stale->body->offset, $stale->body->length]);
    }

    public function testHeadOfAFileHasItsLength(): void
    {
        $path = $this->file('0123456789');
        $response = (new ResponseConverter())->toSpindle(self::fileResponse($path), self::request('HEAD'));

        self::assertInstanceOf(FileBody::class, $response->body);
        self::assertSame(10, $response->body->length);
    }

    public function testUnsatisfiableRangeStillDeletesTheFile(): void
    {
        $path = $this->file('short');
        $symfony = self::fileResponse($path)->deleteFileAfterSend();
        $response = (new ResponseConverter())->toSpindle($symfony, self::request('GET', ['Range' => 'bytes=50-60']));

        self::assertSame(416, $response->status);
        self::assertFileDoesNotExist($path);
    }

    public function testFileIsDeletedOnceSpindleIsDoneWithTheBody(): void
    {
        $path = $this->file('temporary export');
        $symfony = self::fileResponse($path)->deleteFileAfterSend();
        $converter = new ResponseConverter();
        $response = $converter->toSpindle($symfony, self::request());
        unset($symfony);

        self::assertFileExists($path, 'still there while the body is being sent');
        $body = $response->body;
        self::assertInstanceOf(FileBody::class, $body);
        self::assertSame('temporary export', \file_get_contents($body->path, false, null, $body->offset, \max(0, $body->length)));

        unset($response, $body);
        self::assertFileDoesNotExist($path);
    }

    public function testConvertedResponseIsAPlainSpindleResponse(): void
    {
        self::assertInstanceOf(Response::class, (new ResponseConverter())->toSpindle(new SymfonyResponse(), self::request()));
    }
}
