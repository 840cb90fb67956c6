<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\RawClient;
use Spindle\Tests\E2E\Support\RawResponse;
use Spindle\Tests\E2E\Support\ServerProcess;
use Spindle\Tests\E2E\Support\SymfonyFixtureTestCase;

/**
 * `bin/spindle serve tests/fixtures/symfony-app`: the Symfony fixture detected, its kernels
 * pooled per worker, fetched with curl and raw sockets.
 *
 * @group frameworks
 */
class SymfonyAppTest extends SymfonyFixtureTestCase
{
    private static function server(): ServerProcess
    {
        return self::sharedServer(static::app(), ['--workers=1']);
    }

    public function testDetectsTheAppAndSaysHello(): void
    {
        $result = self::curl(['-s', '-i', self::server()->url('/hello')]);
        self::assertSame(0, $result['code'], $result['err']);
        $response = self::parseCurlResponse($result['out']);
        self::assertSame(200, $response['status']);
        self::assertSame('Hello World', $response['body']);
        self::assertStringStartsWith('text/plain', $response['headers']['content-type'][0] ?? '');
        self::assertSame(['11'], $response['headers']['content-length'] ?? null);
        self::assertStringContainsString('Booting the Symfony app', self::server()->stderr());
    }

    public function testUserFromTheDatabaseAsJson(): void
    {
        foreach (self::USERS as $id => $user) {
            $result = self::curl(['-s', '-i', self::server()->url("/users/{$id}")]);
            $response = self::parseCurlResponse($result['out']);
            self::assertSame(200, $response['status'], $response['body']);
            self::assertSame('application/json', $response['headers']['content-type'][0] ?? null);
            self::assertSame(['id' => $id] + $user, \json_decode($response['body'], true));
        }
        $missing = self::parseCurlResponse(self::curl(['-s', '-i', self::server()->url('/users/999')])['out']);
        self::assertSame(404, $missing['status']);
    }

    public function testUnknownRouteIsTheKernels404(): void
    {
        $response = self::parseCurlResponse(self::curl(['-s', '-i', self::server()->url('/no/such/page')])['out']);
        self::assertSame(404, $response['status']);
        self::assertStringContainsString('Not Found', $response['body']);
    }

    public function testExceptionIsA500PageWithoutTheTrace(): void
    {
        $response = self::parseCurlResponse(self::curl(['-s', '-i', self::server()->url('/boom')])['out']);
        self::assertSame(500, $response['status']);
        self::assertStringContainsString('Internal Server Error', $response['body']);
        self::assertStringNotContainsString('s3cr3t-in-exception', $response['body']);
        self::assertStringNotContainsString('AppController.php', $response['body']);
        self::assertStringNotContainsString('#0 ', $response['body']);
        // The worker goes on serving.
        self::assertServerAnswers(self::server(), '/hello');
    }

    /**
     * Symfony's SessionListener gives every request a session factory, a closure that holds the
     * request. A finished request lets go of it (Bridge\HttpFoundation\FinishedRequest), so PHP
     * frees the request at once: nothing piles up for the cycle collector between requests.
     */
    public function testFinishedRequestsLeaveNothingForTheCycleCollector(): void
    {
        $client = new RawClient(self::server()->port());
        $get = static function (string $path) use ($client): RawResponse {
            $client->send(self::get($path));

            return $client->readResponse();
        };
        for ($i = 0; $i < 50; ++$i) {
            $get('/hello');
        }
        $before = $get('/memory')->json();
        for ($i = 0; $i < 300; ++$i) {
            self::assertSame(200, $get('/hello')->status);
        }
        $after = $get('/memory')->json();
        // Nodes the collector holds or freed meanwhile: with the requests' cycles, some 12 a
        // request on Symfony 7.4 and 37 on 5.4.
        $left = $after['roots'] + $after['collected'] - $before['roots'] - $before['collected'];
        self::assertLessThan(300, $left, 'fewer than one a request: ' . \json_encode([$before, $after]));
    }

    public function testServicesAreResetBetweenRequestsOnOneKernel(): void
    {
        $server = self::server();
        $first = self::rawRequest($server, self::get('/visits', "Connection: close\r\n"))->json();
        $second = self::rawRequest($server, self::get('/visits', "Connection: close\r\n"))->json();
        // The same kernel served both (an idle one is reused) and its ResetInterface service
        // forgot the first visit.
        self::assertSame($first['kernel'], $second['kernel']);
        self::assertSame(['/visits'], $first['paths']);
        self::assertSame(['/visits'], $second['paths']);
    }

    public function testOverlappingRequestsEachGetTheirOwnKernelAndRequest(): void
    {
        $server = self::server();
        self::assertServerAnswers($server, '/hello');
        $clients = [];
        for ($i = 0; $i < 5; ++$i) {
            $client = new RawClient($server->port());
            $client->send(self::get("/wait?ms=400&tag=t{$i}", "X-Tag: h{$i}\r\nConnection: close\r\n"));
            $clients[$i] = $client;
        }
        $kernels = [];
        $pids = [];
        foreach ($clients as $i => $client) {
            $response = $client->readResponse();
            self::assertSame(200, $response->status, $response->raw);
            $data = $response->json();
            // After the wait, the request, the kernel's request stack and the headers are still this request's.
            self::assertSame("t{$i}", $data['tag']);
            self::assertSame("t{$i}", $data['current']);
            self::assertSame("h{$i}", $data['header']);
            $kernels[$data['kernel']] = true;
            $pids[$data['pid']] = true;
        }
        self::assertCount(1, $pids, 'one worker');
        // All five were in flight at once, so each borrowed a kernel of its own.
        self::assertCount(5, $kernels);
    }

    public function testUploadedFileIsMovedByTheApp(): void
    {
        $file = \tempnam(\sys_get_temp_dir(), 'spindle-symfony-upload-');
        self::assertIsString($file);
        $content = \random_bytes(200000);
        \file_put_contents($file, $content);
        try {
            $result = self::curl(['-s', '-F', 'title=A title', '-F', 'file=@' . $file . ';filename=photo.jpg', self::server()->url('/upload')]);
        } finally {
            \unlink($file);
        }
        self::assertSame(0, $result['code'], $result['err']);
        self::assertSame(
            ['name' => 'photo.jpg', 'size' => 200000, 'sha1' => \sha1($content), 'title' => 'A title'],
            \json_decode($result['out'], true),
        );
    }

    public function testStreamedResponseArrivesChunked(): void
    {
        $server = self::server();
        $response = self::rawRequest($server, self::get('/stream?count=4', "Connection: close\r\n"));
        self::assertSame(200, $response->status);
        self::assertSame('chunked', $response->header('transfer-encoding'));
        self::assertSame("piece 1\npiece 2\npiece 3\npiece 4\n", $response->body);
        // Nothing of the stream went to the server's own output.
        self::assertStringNotContainsString('piece', $server->stdout());
        // The kernel came back after the stream: the next request is served as usual.
        self::assertSame(['/visits'], self::rawRequest($server, self::get('/visits', "Connection: close\r\n"))->json()['paths']);
    }

    public function testBinaryFileResponseIsSentFromDiskWithRanges(): void
    {
        $file = static::app() . '/var/download.bin';
        @\mkdir(\dirname($file), 0777, true);
        $content = \random_bytes(3 * 1024 * 1024 + 17);
        \file_put_contents($file, $content);
        $url = self::server()->url('/download');
        try {
            $whole = self::parseCurlResponse(self::curl(['-s', '-i', $url])['out']);
            self::assertSame(200, $whole['status']);
            self::assertSame([(string) \strlen($content)], $whole['headers']['content-length'] ?? null);
            self::assertArrayNotHasKey('transfer-encoding', $whole['headers']);
            self::assertSame(['bytes'], $whole['headers']['accept-ranges'] ?? null);
            self::assertStringStartsWith('attachment; filename=download.bin', $whole['headers']['content-disposition'][0] ?? '');
            self::assertSame(\sha1($content), \sha1($whole['body']));

            $part = self::parseCurlResponse(self::curl(['-s', '-i', '-r', '100-199', $url])['out']);
            self::assertSame(206, $part['status']);
            self::assertSame(['bytes 100-199/' . \strlen($content)], $part['headers']['content-range'] ?? null);
            self::assertSame(['100'], $part['headers']['content-length'] ?? null);
            self::assertSame(\substr($content, 100, 100), $part['body']);

            $tail = self::parseCurlResponse(self::curl(['-s', '-i', '-r', '-10', $url])['out']);
            self::assertSame(206, $tail['status']);
            self::assertSame(\substr($content, -10), $tail['body']);

            $outside = self::parseCurlResponse(self::curl(['-s', '-i', '-r', \strlen($content) . '-' . (\strlen($content) + 10), $url])['out']);
            self::assertSame(416, $outside['status']);
            self::assertSame(['bytes */' . \strlen($content)], $outside['headers']['content-range'] ?? null);

            // A stale If-Range gets the whole file.
            $stale = self::parseCurlResponse(self::curl(['-s', '-i', '-r', '0-9', '-H', 'If-Range: "stale"', $url])['out']);
            self::assertSame(200, $stale['status']);
            self::assertSame(\strlen($content), \strlen($stale['body']));
        } finally {
            \unlink($file);
        }
    }
}
