<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Bridge\HttpFoundation;

use PHPUnit\Framework\TestCase;
use Spindle\Bridge\HttpFoundation\RequestConverter;
use Spindle\Bridge\HttpFoundation\ServerParams;
use Spindle\Http\HttpException;
use Spindle\Http\Request;
use Spindle\Http\UploadedFile;
use Symfony\Component\HttpFoundation\File\UploadedFile as SymfonyUploadedFile;
use Symfony\Component\HttpFoundation\Request as SymfonyRequest;

final class RequestConverterTest extends TestCase
{
    /** @var list<string> */
    private array $tempFiles = [];
    private ?string $moveDir = null;

    protected function tearDown(): void
    {
        SymfonyRequest::setTrustedProxies([], -1);
        foreach ($this->tempFiles as $path) {
            if (\is_file($path)) {
                \unlink($path);
            }
        }
        if ($this->moveDir !== null) {
            foreach (\glob($this->moveDir . '/*') ?: [] as $file) {
                \unlink($file);
            }
            \rmdir($this->moveDir);
        }
    }

    private static function converter(bool $https = false): RequestConverter
    {
        return new RequestConverter(new ServerParams(
            '/srv/app/public/index.php',
            '/srv/app/public',
            '/index.php',
            $https,
            'Spindle',
            ['APP_ENV' => 'prod', 'REQUEST_URI' => 'must be overridden'],
        ));
    }

    /**
     * @param array<string, list<string>> $headers
     * @param array<string, mixed> $parsedBody
     * @param array<string, mixed> $files
     */
    private static function request(
        string $method = 'GET',
        string $target = '/',
        array $headers = ['host' => ['example.com']],
        string $body = '',
        array $parsedBody = [],
        array $files = [],
        string $protocol = '1.1',
    ): Request {
        $question = \strpos($target, '?');
        $path = $question === false ? $target : \substr($target, 0, $question);
        $query = $question === false ? '' : \substr($target, $question + 1);

        return new Request($method, $target, $path, $query, $protocol, $headers, $body, $parsedBody, $files, '10.1.2.3', 40123, '127.0.0.1', 8080);
    }

    public function testMethodUriQueryAndPathComeFromTheRequestLine(): void
    {
        $symfony = self::converter()->toSymfony(self::request('PUT', '/shop/items?id=5&tags[]=a&tags[]=b&q=x+y%21', ['host' => ['shop.example:8443']]));

        self::assertSame('PUT', $symfony->getMethod());
        self::assertSame('/shop/items', $symfony->getPathInfo());
        self::assertSame('', $symfony->getBaseUrl());
        self::assertSame('shop.example', $symfony->getHost());
        self::assertSame(8443, (int) $symfony->getPort());
        self::assertSame('/shop/items?id=5&tags[]=a&tags[]=b&q=x+y%21', $symfony->getRequestUri());
        self::assertSame(['id' => '5', 'tags' => ['a', 'b'], 'q' => 'x y!'], $symfony->query->all());
        self::assertSame('http://shop.example:8443/shop/items?id=5&q=x%20y%21&tags%5B0%5D=a&tags%5B1%5D=b', $symfony->getUri());
        self::assertFalse($symfony->isSecure());
    }

    public function testServerVariablesMatchWhatPhpFpmBehindNginxGives(): void
    {
        $before = \microtime(true);
        $server = self::converter()->toSymfony(self::request('POST', '/form?x=1', [
            'host' => ['example.com'],
            'content-type' => ['application/x-www-form-urlencoded'],
            'content-length' => ['3'],
            'x-request-id' => ['abc'],
            'accept' => ['text/html', 'application/json'],
        ], 'a=b', ['a' => 'b']))->server->all();

        self::assertSame('POST', $server['REQUEST_METHOD']);
        self::assertSame('/form?x=1', $server['REQUEST_URI']);
        self::assertSame('x=1', $server['QUERY_STRING']);
        self::assertSame('HTTP/1.1', $server['SERVER_PROTOCOL']);
        self::assertSame('example.com', $server['SERVER_NAME']);
        self::assertSame('8080', $server['SERVER_PORT'], 'no port in Host: the local port, as nginx gives it');
        self::assertSame('127.0.0.1', $server['SERVER_ADDR']);
        self::assertSame('10.1.2.3', $server['REMOTE_ADDR']);
        self::assertSame('40123', $server['REMOTE_PORT']);
        self::assertSame('/index.php', $server['SCRIPT_NAME']);
        self::assertSame('/index.php', $server['PHP_SELF']);
        self::assertSame('/srv/app/public/index.php', $server['SCRIPT_FILENAME']);
        self::assertSame('/srv/app/public', $server['DOCUMENT_ROOT']);
        self::assertSame('Spindle', $server['SERVER_SOFTWARE']);
        self::assertSame('http', $server['REQUEST_SCHEME']);
        self::assertSame('prod', $server['APP_ENV']);
        self::assertSame('application/x-www-form-urlencoded', $server['CONTENT_TYPE']);
        self::assertSame('3', $server['CONTENT_LENGTH']);
        self::assertSame('application/x-www-form-urlencoded', $server['HTTP_CONTENT_TYPE']);
        self::assertSame('abc', $server['HTTP_X_REQUEST_ID']);
        self::assertSame('text/html, application/json', $server['HTTP_ACCEPT'], 'repeated headers are folded with ", "');
        self::assertSame('example.com', $server['HTTP_HOST']);
        self::assertIsInt($server['REQUEST_TIME']);
        self::assertIsFloat($server['REQUEST_TIME_FLOAT']);
        self::assertGreaterThanOrEqual($before, $server['REQUEST_TIME_FLOAT']);
        self::assertSame((int) $server['REQUEST_TIME_FLOAT'], $server['REQUEST_TIME']);
        self::assertArrayNotHasKey('HTTPS', $server);
        self::assertArrayNotHasKey('GATEWAY_INTERFACE', $server);
        self::assertArrayNotHasKey('argv', $server);
    }

    public function testContentHeadersAreAbsentWithoutABody(): void
    {
        $server = self::converter()->toSymfony(self::request())->server->all();

        self::assertArrayNotHasKey('CONTENT_TYPE', $server);
        self::assertArrayNotHasKey('CONTENT_LENGTH', $server);
        self::assertSame('', $server['QUERY_STRING']);
    }

    public function testHeaderNamesWithUnderscoresAreDroppedSoTheyCannotPassForOthers(): void
    {
        $symfony = self::converter()->toSymfony(self::request('GET', '/', [
            'host' => ['example.com'],
            'x-forwarded-for' => ['1.1.1.1'],
            'x_forwarded_for' => ['6.6.6.6'],
        ]));

        self::assertSame('1.1.1.1', $symfony->server->get('HTTP_X_FORWARDED_FOR'));
        self::assertSame('1.1.1.1', $symfony->headers->get('X-Forwarded-For'));
    }

    public function testHttpsIsOnOnlyWhenConfigured(): void
    {
        $plain = self::converter()->toSymfony(self::request());
        $secure = self::converter(https: true)->toSymfony(self::request());

        self::assertFalse($plain->isSecure());
        self::assertTrue($secure->isSecure());
        self::assertSame('on', $secure->server->get('HTTPS'));
        self::assertSame('https', $secure->server->get('REQUEST_SCHEME'));
        self::assertSame('https://example.com/', $secure->getUri());
    }

    public function testWithoutAHostHeaderTheLocalAddressNamesTheServer(): void
    {
        $symfony = self::converter()->toSymfony(self::request('GET', '/x', [], protocol: '1.0'));

        self::assertSame('127.0.0.1', $symfony->server->get('SERVER_NAME'));
        self::assertSame('8080', $symfony->server->get('SERVER_PORT'));
        self::assertSame('HTTP/1.0', $symfony->server->get('SERVER_PROTOCOL'));
        self::assertSame('http://127.0.0.1:8080/x', $symfony->getUri());
    }

    public function testIpv6HostWithPort(): void
    {
        $symfony = self::converter()->toSymfony(self::request('GET', '/', ['host' => ['[::1]:9000']]));

        self::assertSame('[::1]', $symfony->server->get('SERVER_NAME'));
        self::assertSame('9000', $symfony->server->get('SERVER_PORT'));
        self::assertSame('[::1]', $symfony->getHost());
    }

    public function testAnInvalidHostIsABadRequest(): void
    {
        try {
            self::converter()->toSymfony(self::request('GET', '/', ['host' => ['evil.com/path?']]));
            self::fail('an invalid Host was accepted');
        } catch (HttpException $e) {
            self::assertSame(400, $e->status);
        }
    }

    public function testAsteriskFormKeepsItsTarget(): void
    {
        $request = new Request('OPTIONS', '*', '*', '', '1.1', ['host' => ['example.com']], remoteAddress: '10.0.0.1');
        $symfony = self::converter()->toSymfony($request);

        self::assertSame('OPTIONS', $symfony->getMethod());
        self::assertSame('*', $symfony->server->get('REQUEST_URI'));
    }

    public function testABodyInATemporaryFileIsTheContentAsAStream(): void
    {
        $path = (string) \tempnam(\sys_get_temp_dir(), 'spindle-test-body-');
        $this->tempFiles[] = $path;
        $body = \json_encode(['name' => 'spindle', 'pad' => \str_repeat('p', 100000)], \JSON_THROW_ON_ERROR);
        \file_put_contents($path, $body);
        $request = (new Request('POST', '/', '/', '', '1.1', ['host' => ['a'], 'content-type' => ['application/json']], '', [], [], '10.1.2.3', 40123, '127.0.0.1', 8080))->withBodyFile($path);

        $symfony = self::converter()->toSymfony($request);
        self::assertSame($body, $symfony->getContent());
        self::assertSame(['name' => 'spindle', 'pad' => \str_repeat('p', 100000)], $symfony->toArray());
        $stream = $symfony->getContent(true);
        self::assertIsResource($stream);
        self::assertSame($path, \stream_get_meta_data($stream)['uri']);
        self::assertSame($body, \stream_get_contents($stream));
        self::assertSame($body, $symfony->getContent(), 'read again');
    }

    public function testUrlencodedFormFieldsAreTheRequestBag(): void
    {
        $symfony = self::converter()->toSymfony(self::request('POST', '/', ['host' => ['a'], 'content-type' => ['application/x-www-form-urlencoded']], 'name=Ann&tags%5B%5D=x', ['name' => 'Ann', 'tags' => ['x']]));

        self::assertSame(['name' => 'Ann', 'tags' => ['x']], $symfony->request->all());
        self::assertSame('Ann', $symfony->get('name'));
        self::assertSame('name=Ann&tags%5B%5D=x', $symfony->getContent());
    }

    public function testJsonBodyStaysRawContent(): void
    {
        $json = '{"title":"Hello","tags":["a"]}';
        $symfony = self::converter()->toSymfony(self::request('POST', '/api', ['host' => ['a'], 'content-type' => ['application/json']], $json));

        self::assertSame([], $symfony->request->all());
        self::assertSame($json, $symfony->getContent());
        self::assertSame(['title' => 'Hello', 'tags' => ['a']], \json_decode($symfony->getContent(), true));
        self::assertSame('application/json', $symfony->headers->get('Content-Type'));
    }

    public function testCookiesAreDecodedAsPhpFillsCookieSuperglobal(): void
    {
        // What PHP-FPM gave for "a.b=1; c=%20x+y; a.b=2": the name mangled, the first one kept, "+" not decoded.
        $symfony = self::converter()->toSymfony(self::request('GET', '/', [
            'host' => ['a'],
            'cookie' => ['a.b=1; c=%20x+y; a.b=2', 'session=abc%3D%3D; list[k]=v'],
        ]));

        self::assertSame(['a_b' => '1', 'c' => ' x+y', 'session' => 'abc==', 'list' => ['k' => 'v']], $symfony->cookies->all());
        self::assertSame('a.b=1; c=%20x+y; a.b=2; session=abc%3D%3D; list[k]=v', $symfony->server->get('HTTP_COOKIE'));
    }

    public function testBasicCredentialsAreServerVariablesAsPhpSetsThem(): void
    {
        $symfony = self::converter()->toSymfony(self::request('GET', '/', [
            'host' => ['a'],
            'authorization' => ['Basic ' . \base64_encode('ann:se:cret')],
        ]));

        self::assertSame('ann', $symfony->server->get('PHP_AUTH_USER'));
        self::assertSame('se:cret', $symfony->server->get('PHP_AUTH_PW'));
        self::assertSame('ann', $symfony->getUser());
        self::assertSame('se:cret', $symfony->getPassword());
        self::assertSame('Basic ' . \base64_encode('ann:se:cret'), $symfony->headers->get('Authorization'));
    }

    public function testBearerTokenReachesTheHeaders(): void
    {
        $symfony = self::converter()->toSymfony(self::request('GET', '/', ['host' => ['a'], 'authorization' => ['Bearer t0k3n']]));

        self::assertSame('Bearer t0k3n', $symfony->headers->get('Authorization'));
        self::assertFalse($symfony->server->has('PHP_AUTH_USER'));
    }

    public function testRequestSubclassIsBuilt(): void
    {
        $symfony = self::converter()->toSymfony(self::request('GET', '/?a=1'), AppRequest::class);

        self::assertInstanceOf(AppRequest::class, $symfony);
        self::assertSame('1', $symfony->query->get('a'));
    }

    public function testTrustedProxyConfigurationDecidesAboutForwardedHeaders(): void
    {
        $headers = [
            'host' => ['internal:8080'],
            'x-forwarded-for' => ['203.0.113.7, 10.1.2.3'],
            'x-forwarded-proto' => ['https'],
            'x-forwarded-host' => ['shop.example'],
            'x-forwarded-port' => ['443'],
        ];

        // Nothing trusted: the peer is the client.
        $untrusted = self::converter()->toSymfony(self::request('GET', '/', $headers));
        self::assertSame('10.1.2.3', $untrusted->getClientIp());
        self::assertFalse($untrusted->isSecure());
        self::assertSame('internal', $untrusted->getHost());

        // The peer (10.1.2.3) is a trusted proxy: the framework believes its headers.
        SymfonyRequest::setTrustedProxies(['10.0.0.0/8'], SymfonyRequest::HEADER_X_FORWARDED_FOR | SymfonyRequest::HEADER_X_FORWARDED_PROTO | SymfonyRequest::HEADER_X_FORWARDED_HOST | SymfonyRequest::HEADER_X_FORWARDED_PORT);
        $trusted = self::converter()->toSymfony(self::request('GET', '/', $headers));
        self::assertSame('10.1.2.3', $trusted->server->get('REMOTE_ADDR'));
        self::assertSame('203.0.113.7', $trusted->getClientIp());
        self::assertTrue($trusted->isSecure());
        self::assertSame('shop.example', $trusted->getHost());
        self::assertSame('https://shop.example/', $trusted->getUri());

        // A proxy that is not trusted cannot forge the client address.
        SymfonyRequest::setTrustedProxies(['192.168.0.1'], SymfonyRequest::HEADER_X_FORWARDED_FOR);
        self::assertSame('10.1.2.3', self::converter()->toSymfony(self::request('GET', '/', $headers))->getClientIp());
    }

    private function tempFile(string $content): string
    {
        $path = \tempnam(\sys_get_temp_dir(), 'spindle-upload-');
        self::assertIsString($path);
        \file_put_contents($path, $content);
        $this->tempFiles[] = $path;

        return $path;
    }

    private function upload(string $content, string $name, string $type = 'text/plain'): UploadedFile
    {
        return new UploadedFile($this->tempFile($content), \strlen($content), \UPLOAD_ERR_OK, $name, $type);
    }

    public function testUploadedFilesNestLikeTheirFieldNames(): void
    {
        $files = [
            'avatar' => $this->upload('png bytes', 'me.png', 'image/png'),
            'files' => [
                'a' => ['b' => $this->upload('deep', 'deep.txt')],
                0 => $this->upload('first', 'one.txt'),
                1 => $this->upload('second', 'two.txt'),
            ],
            'empty' => new UploadedFile('', 0, \UPLOAD_ERR_NO_FILE, '', null),
            'nested' => ['none' => new UploadedFile('', 0, \UPLOAD_ERR_NO_FILE, '', null)],
            'huge' => new UploadedFile('', 0, \UPLOAD_ERR_INI_SIZE, 'huge.bin', 'application/octet-stream'),
        ];
        $symfony = self::converter()->toSymfony(self::request('POST', '/upload', ['host' => ['a'], 'content-type' => ['multipart/form-data; boundary=x']], '', ['title' => 'T'], $files));

        self::assertSame(['title' => 'T'], $symfony->request->all());
        $avatar = $symfony->files->get('avatar');
        self::assertInstanceOf(SymfonyUploadedFile::class, $avatar);
        self::assertTrue($avatar->isValid());
        self::assertSame('me.png', $avatar->getClientOriginalName());
        self::assertSame('image/png', $avatar->getClientMimeType());
        self::assertSame(9, $avatar->getSize());
        self::assertSame('png bytes', $avatar->getContent());

        $nested = $symfony->files->all('files');
        self::assertSame(['a', 0, 1], \array_keys($nested));
        self::assertInstanceOf(SymfonyUploadedFile::class, $nested['a']['b']);
        self::assertSame('deep.txt', $nested['a']['b']->getClientOriginalName());
        self::assertSame('first', $nested[0]->getContent());
        self::assertSame('two.txt', $nested[1]->getClientOriginalName());

        // As FileBag makes them from $_FILES: no file chosen is null, an error is an invalid file.
        self::assertNull($symfony->files->get('empty'));
        self::assertSame(['none' => null], $symfony->files->all('nested'));
        $huge = $symfony->files->get('huge');
        self::assertInstanceOf(SymfonyUploadedFile::class, $huge);
        self::assertFalse($huge->isValid());
        self::assertSame(\UPLOAD_ERR_INI_SIZE, $huge->getError());
        self::assertStringContainsString('upload_max_filesize', $huge->getErrorMessage());
    }

    public function testAnUploadCanBeMovedAndItsTemporaryFileIsThenGone(): void
    {
        $upload = $this->upload('report body', 'report.pdf', 'application/pdf');
        $symfony = self::converter()->toSymfony(self::request('POST', '/', ['host' => ['a']], '', [], ['doc' => $upload]));
        $file = $symfony->files->get('doc');
        self::assertInstanceOf(SymfonyUploadedFile::class, $file);

        $this->moveDir = \sys_get_temp_dir() . '/spindle-moved-' . \bin2hex(\random_bytes(4));
        $moved = $file->move($this->moveDir, 'kept.pdf');

        self::assertSame('report body', \file_get_contents($moved->getPathname()));
        self::assertFileDoesNotExist($upload->tmpPath, 'the upload was renamed, not copied');
        // Spindle removes the temporary files after the request: one already gone is fine.
        self::assertFalse(\is_file($upload->tmpPath));
    }
}

/** A framework's own request class (Laravel's Illuminate\Http\Request is one). */
final class AppRequest extends SymfonyRequest
{
}
