<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\HttpClient;

use Nyholm\Psr7\Factory\Psr17Factory;
use PHPUnit\Framework\TestCase;
use Psr\Http\Client\ClientExceptionInterface;
use Psr\Http\Client\NetworkExceptionInterface;
use Psr\Http\Client\RequestExceptionInterface;
use Revolt\EventLoop;
use Spindle\HttpClient\ConnectionPool;
use Spindle\HttpClient\HttpClient;
use Spindle\HttpClient\Options;
use Spindle\HttpClient\Psr18\Psr18Client;
use Spindle\HttpClient\Request;
use Spindle\HttpClient\TooManyRedirects;

/** Spindle's client against the fake server: bodies, redirects, the pool, PSR-18. */
final class ClientTest extends TestCase
{
    private static ?FakeServer $server = null;

    public static function setUpBeforeClass(): void
    {
        self::$server = FakeServer::start();
    }

    public static function tearDownAfterClass(): void
    {
        self::$server?->stop();
        self::$server = null;
    }

    private static function url(string $path): string
    {
        return self::$server?->url($path) ?? '';
    }

    /** @return array<string, mixed> */
    private static function echo(HttpClient $client, Request $request, Options $options = new Options()): array
    {
        $data = \json_decode($client->request($request, $options)->body->contents(), true);
        self::assertIsArray($data);

        return $data;
    }

    public function testRequestBodies(): void
    {
        $client = new HttpClient();
        $echo = self::echo($client, Request::create('POST', self::url('/echo'), [], 'a string'));
        self::assertSame(['a string', ['8']], [$echo['body'], $echo['headers']['content-length']]);

        $stream = \fopen('php://temp', 'r+');
        self::assertIsResource($stream);
        \fwrite($stream, \str_repeat('x', 200000));
        \rewind($stream);
        $echo = self::echo($client, Request::create('PUT', self::url('/echo'), [], $stream));
        self::assertSame([200000, ['200000']], [\strlen($echo['body']), $echo['headers']['content-length']]);

        $pieces = (static function (): \Generator {
            yield 'one,';
            yield '';
            yield 'two';
        })();
        $echo = self::echo($client, Request::create('POST', self::url('/echo'), [], $pieces));
        self::assertSame(['one,two', ['chunked']], [$echo['body'], $echo['headers']['transfer-encoding']]);

        $response = $client->request(Request::create('HEAD', self::url('/hello')));
        self::assertSame(['5', ''], [$response->header('content-length'), $response->body->contents()]);
        self::assertSame('hello', $client->request(Request::create('GET', self::url('/hello')))->body->contents(), 'the connection is fine after HEAD');
    }

    public function testRedirects(): void
    {
        $client = new HttpClient();
        $options = new Options(maxRedirects: 5);
        $echo = self::echo($client, Request::create('POST', self::url('/redirect?status=303'), ['Authorization' => 'Bearer t'], 'body'), $options);
        self::assertSame(['GET', '', ['Bearer t']], [$echo['method'], $echo['body'], $echo['headers']['authorization']], '303: GET, same origin keeps credentials');

        $echo = self::echo($client, Request::create('POST', self::url('/redirect?status=307'), [], 'body'), $options);
        self::assertSame(['POST', 'body'], [$echo['method'], $echo['body']], '307 keeps the method and body');

        // Another origin (localhost is not 127.0.0.1): credentials and cookies stay behind.
        $other = \str_replace('127.0.0.1', 'localhost', self::url('/echo'));
        $echo = self::echo($client, Request::create('GET', self::url('/redirect?to=' . \rawurlencode($other)), ['Authorization' => 'Bearer t', 'Cookie' => 'a=b', 'X-Keep' => '1']), $options);
        self::assertArrayNotHasKey('authorization', $echo['headers']);
        self::assertArrayNotHasKey('cookie', $echo['headers']);
        self::assertSame(['1'], $echo['headers']['x-keep']);

        $response = $client->request(Request::create('GET', self::url('/redirect?n=2')), $options);
        self::assertCount(2, $response->history);
        self::assertSame(302, $response->history[0]->status);
        $response->body->close();

        $this->expectException(TooManyRedirects::class);
        $client->request(Request::create('GET', self::url('/redirect?n=9')), new Options(maxRedirects: 3));
    }

    public function testThePoolLimitsConnectionsPerOriginAndReusesOnlyWholeResponses(): void
    {
        $client = new HttpClient(new ConnectionPool(maxPerOrigin: 2, maxTotal: 10));
        $started = \microtime(true);
        $connections = [];
        for ($i = 0; $i < 6; ++$i) {
            EventLoop::queue(static function () use ($client, &$connections): void {
                $response = $client->request(Request::create('GET', self::url('/delay?ms=300')));
                $connections[] = $response->header('x-connection');
                $response->body->contents();
            });
        }
        EventLoop::run();
        $elapsed = \microtime(true) - $started;
        self::assertCount(2, \array_unique($connections), 'two connections, each reused');
        self::assertGreaterThan(0.85, $elapsed, 'three rounds of two');
        self::assertSame(['open' => 2, 'idle' => 2], $client->pool->stats());

        // A response dropped before its body was read closes its connection.
        $client->request(Request::create('GET', self::url('/stall-body')));
        self::assertSame(['open' => 1, 'idle' => 1], $client->pool->stats());
        $client->pool->closeIdle();
    }

    public function testAnIdleConnectionIsClosedAfterTheIdleTimeout(): void
    {
        $client = new HttpClient(new ConnectionPool(idleTimeout: 0.2));
        $first = $client->request(Request::create('GET', self::url('/hello')))->header('x-connection');
        \usleep(300000);
        $second = $client->request(Request::create('GET', self::url('/hello')))->header('x-connection');
        self::assertNotSame($first, $second);
    }

    public function testAConnectionTheServerClosedIsNotReusedOrIsRetried(): void
    {
        $client = new HttpClient();
        $ids = [];
        for ($i = 0; $i < 20; ++$i) {
            $response = $client->request(Request::create('GET', self::url('/sneaky-close')));
            self::assertSame('sneaky', $response->body->contents());
            $ids[] = $response->header('x-connection');
            // Sometimes the next request goes out before the close has arrived: it is retried on a new connection.
            $posted = $client->request(Request::create('POST', self::url('/sneaky-close'), [], 'again'));
            self::assertSame('sneaky', $posted->body->contents());
        }
        self::assertCount(20, \array_unique($ids), 'a new connection each time');

        // The server drops the kept-alive connection when the next request arrives: that request
        // is sent again on a new connection (once, and only before any byte of a response).
        $first = $client->request(Request::create('GET', self::url('/once')));
        self::assertSame('once', $first->body->contents());
        $second = $client->request(Request::create('GET', self::url('/hello')));
        self::assertSame('hello', $second->body->contents());
        self::assertNotSame($first->header('x-connection'), $second->header('x-connection'));
    }

    public function testPsr18(): void
    {
        $factory = new Psr17Factory();
        $client = new Psr18Client(new HttpClient());
        $response = $client->sendRequest($factory->createRequest('POST', self::url('/echo'))->withHeader('X-A', 'b')->withBody($factory->createStream('psr')));
        $echo = \json_decode((string) $response->getBody(), true);
        self::assertIsArray($echo);
        self::assertSame(['psr', ['b']], [$echo['body'], $echo['headers']['x-a']]);
        self::assertSame(404, $client->sendRequest($factory->createRequest('GET', self::url('/status?code=404')))->getStatusCode());
        self::assertSame(302, $client->sendRequest($factory->createRequest('GET', self::url('/redirect')))->getStatusCode(), 'PSR-18 does not follow redirects');
        try {
            $client->sendRequest($factory->createRequest('GET', self::url('/garbage')));
            self::fail('no exception');
        } catch (NetworkExceptionInterface $e) {
            self::assertStringContainsString('invalid status line', $e->getMessage());
        }
        // Every failure is the client's exception (a status PSR-7 cannot hold too; nyholm/psr7 takes 999).
        foreach (['/empty', '/mid-body'] as $path) {
            try {
                $client->sendRequest($factory->createRequest('GET', self::url($path)));
                self::fail("no exception for $path");
            } catch (NetworkExceptionInterface $e) {
                self::assertInstanceOf(ClientExceptionInterface::class, $e);
            }
        }
        $echo = \json_decode((string) $client->sendRequest($factory->createRequest('POST', self::url('/echo')))->getBody(), true);
        self::assertIsArray($echo);
        self::assertSame(['0'], $echo['headers']['content-length'] ?? null, 'a POST without a body says Content-Length: 0');
        $this->expectException(RequestExceptionInterface::class);
        $client->sendRequest($factory->createRequest('GET', '/relative'));
    }
}
