<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\HttpClient;

use GuzzleHttp\Client;
use GuzzleHttp\Exception\ConnectException;
use GuzzleHttp\Exception\RequestException;
use GuzzleHttp\Handler\CurlHandler;
use GuzzleHttp\HandlerStack;
use GuzzleHttp\Middleware;
use GuzzleHttp\Pool;
use GuzzleHttp\Promise\Utils;
use GuzzleHttp\Psr7\Request as PsrRequest;
use GuzzleHttp\TransferStats;
use PHPUnit\Framework\TestCase;
use Spindle\HttpClient\Guzzle\SpindleHandler;
use Spindle\HttpClient\HttpClient;

/**
 * The same requests through Guzzle with its CurlHandler and with Spindle's handler, against the
 * fake server: status, headers, body, redirects, errors and stats must agree.
 */
final class GuzzleDifferentialTest extends TestCase
{
    private static ?FakeServer $server = null;

    public static function setUpBeforeClass(): void
    {
        if (!\extension_loaded('curl')) {
            self::markTestSkipped('php-curl is not installed');
        }
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

    private static function client(bool $spindle, ?HttpClient $ours = null): Client
    {
        $handler = $spindle ? new SpindleHandler($ours ?? new HttpClient()) : new CurlHandler();

        return new Client(['handler' => HandlerStack::create($handler), 'http_errors' => true, 'timeout' => 5]);
    }

    /** @return iterable<string, array{string, string, array<string, mixed>}> */
    public static function requests(): iterable
    {
        yield 'GET' => ['GET', '/hello', []];
        yield 'HEAD' => ['HEAD', '/hello', []];
        yield 'query and headers' => ['GET', '/echo', ['query' => ['a' => 'b c'], 'headers' => ['X-Test' => 'yes']]];
        yield 'json' => ['POST', '/echo', ['json' => ['name' => 'Ada']]];
        yield 'form_params' => ['POST', '/echo', ['form_params' => ['a' => '1', 'b' => 'two']]];
        yield 'multipart' => ['POST', '/echo', ['multipart' => [['name' => 'f', 'contents' => 'data', 'filename' => 'f.txt']]]];
        yield 'chunked' => ['GET', '/chunked', []];
        yield 'gzip' => ['GET', '/gzip', []];
        yield 'gzip undecoded' => ['GET', '/gzip', ['decode_content' => false]];
        yield 'deflate' => ['GET', '/deflate', []];
        yield 'redirects' => ['GET', '/redirect?n=3', []];
        yield '303 after POST' => ['POST', '/redirect?status=303', ['body' => 'x']];
        yield 'redirects off' => ['GET', '/redirect', ['allow_redirects' => false]];
        yield 'too many redirects' => ['GET', '/redirect?n=8', ['allow_redirects' => ['max' => 3]]];
        yield '404' => ['GET', '/status?code=404', []];
        yield '500 without http_errors' => ['GET', '/status?code=500', ['http_errors' => false]];
        yield 'until close' => ['GET', '/close', []];
        yield 'stall' => ['GET', '/stall', ['timeout' => 0.5]];
        yield 'mid-body close' => ['GET', '/mid-body', []];
        yield 'garbage' => ['GET', '/garbage', []];
        yield 'refused' => ['GET', 'http://127.0.0.1:1/', []];
    }

    /**
     * @dataProvider requests
     *
     * @param array<string, mixed> $options
     */
    public function testSpindleAgreesWithCurl(string $method, string $path, array $options): void
    {
        $url = \str_starts_with($path, 'http') ? $path : self::url($path);
        $curl = $this->outcome(self::client(false), $method, $url, $options);
        $spindle = $this->outcome(self::client(true), $method, $url, $options);
        self::assertSame($curl, $spindle);
    }

    /**
     * @param array<string, mixed> $options
     *
     * @return array<string, mixed>
     */
    private function outcome(Client $client, string $method, string $url, array $options): array
    {
        $stats = null;
        $options['on_stats'] = static function (TransferStats $s) use (&$stats): void {
            $stats = ['uri' => (string) $s->getEffectiveUri(), 'has_response' => $s->hasResponse(), 'time' => $s->getTransferTime() !== null];
        };
        try {
            $response = $client->request($method, $url, $options);
        } catch (ConnectException $e) {
            return ['error' => ConnectException::class, 'stats' => $stats];
        } catch (RequestException $e) {
            return ['error' => \get_class($e), 'status' => $e->getResponse()?->getStatusCode(), 'stats' => $stats];
        }
        $headers = $response->getHeaders();
        unset($headers['X-Connection'], $headers['Date']);
        $body = (string) $response->getBody();
        if (\str_contains($url, '/echo')) {
            $echo = \json_decode($body, true);
            self::assertIsArray($echo);
            // What each handler adds of its own (User-Agent, Accept-Encoding, Expect) is not compared.
            unset($echo['headers']['user-agent'], $echo['headers']['accept-encoding'], $echo['headers']['accept'], $echo['headers']['expect']);
            if (isset($echo['headers']['content-type'][0]) && \str_starts_with($echo['headers']['content-type'][0], 'multipart/')) {
                $echo['body'] = \strlen((string) $echo['body']) > 0;
                $echo['headers']['content-type'] = ['multipart'];
                unset($echo['headers']['content-length']);
            }
            \ksort($echo['headers']);
            $body = $echo;
        }

        return ['status' => $response->getStatusCode(), 'reason' => $response->getReasonPhrase(), 'headers' => $headers, 'body' => $body, 'stats' => $stats];
    }

    /** @return iterable<string, array{string, string, array<string, mixed>}> */
    public static function failures(): iterable
    {
        yield 'refused' => ['GET', 'http://127.0.0.1:1/', []];
        yield 'timeout before the head' => ['GET', '/stall', ['timeout' => 0.3]];
        yield 'timeout in the body' => ['GET', '/stall-body', ['timeout' => 0.3]];
        yield 'empty reply' => ['GET', '/empty', []];
        yield 'not HTTP' => ['GET', '/garbage', []];
        yield 'closed mid-body' => ['GET', '/mid-body', []];
        yield 'status 999' => ['GET', '/status?code=999', []];
        yield 'file: URL' => ['GET', 'file:///etc/passwd', []];
    }

    /**
     * What an app that catches Guzzle's exceptions sees: the same class, curl's error number in
     * the handler context and at the start of the message ("cURL error 7: …"), the response or none.
     *
     * @dataProvider failures
     *
     * @param array<string, mixed> $options
     */
    public function testFailuresAreGuzzlesAsCurlRaisesThem(string $method, string $path, array $options): void
    {
        $url = \str_contains($path, ':') ? $path : self::url($path);
        $outcome = static function (Client $client) use ($method, $url, $options): array {
            try {
                $client->request($method, $url, $options + ['http_errors' => false]);
            } catch (\Throwable $e) {
                $context = $e instanceof RequestException || $e instanceof ConnectException ? $e->getHandlerContext() : [];

                return [
                    'class' => $e::class,
                    'errno' => $context['errno'] ?? null,
                    'message' => \preg_match('/^(cURL error \d+: |An error was encountered while creating the response|The scheme)/', $e->getMessage(), $m) === 1 ? $m[1] : $e->getMessage(),
                    'response' => $e instanceof RequestException ? $e->getResponse()?->getStatusCode() : null,
                ];
            }

            return ['no exception'];
        };
        self::assertSame($outcome(self::client(false)), $outcome(self::client(true)));
    }

    public function testEmptyPostPutAndPatchBodiesSayContentLengthZero(): void
    {
        // curl sends it for POST and PUT, not PATCH; Spindle for all three (RFC 9110 §8.6: a
        // method that defines a meaning for a body says its length), as PHP's http wrapper does.
        foreach (['POST', 'PUT', 'PATCH'] as $method) {
            foreach ($method === 'PATCH' ? [true] : [false, true] as $spindle) {
                $echo = \json_decode((string) self::client($spindle)->request($method, self::url('/echo'))->getBody(), true);
                self::assertIsArray($echo);
                self::assertSame(['0'], $echo['headers']['content-length'] ?? null, "$method without a body" . ($spindle ? ' (Spindle)' : ' (curl)'));
            }
        }
    }

    public function testConcurrentRequestsOverlap(): void
    {
        $client = self::client(true);
        $started = \microtime(true);
        $promises = [];
        for ($i = 0; $i < 20; ++$i) {
            $promises[] = $client->getAsync(self::url('/delay?ms=500'));
        }
        $responses = Utils::all($promises)->wait();
        self::assertCount(20, $responses);
        self::assertLessThan(3.0, \microtime(true) - $started, '20 requests of 0.5 s waited together');

        $started = \microtime(true);
        $done = 0;
        $requests = static function (): \Generator {
            for ($i = 0; $i < 10; ++$i) {
                yield new PsrRequest('GET', self::url('/delay?ms=500'));
            }
        };
        (new Pool($client, $requests(), ['concurrency' => 5, 'fulfilled' => static function () use (&$done): void {
            ++$done;
        }]))->promise()->wait();
        self::assertSame(10, $done);
        self::assertLessThan(3.0, \microtime(true) - $started, '10 requests, 5 at a time: about 1 s');
    }

    public function testMiddlewareOnTop(): void
    {
        $history = [];
        $stack = HandlerStack::create(new SpindleHandler(new HttpClient()));
        $stack->push(Middleware::history($history));
        $attempts = 0;
        $stack->push(Middleware::retry(static function (int $retries, $request, $response) use (&$attempts): bool {
            ++$attempts;

            return $retries < 2 && $response?->getStatusCode() === 503;
        }, static fn (): int => 10));
        $client = new Client(['handler' => $stack, 'cookies' => true, 'http_errors' => false]);
        $client->get(self::url('/cookie'));
        self::assertSame('flavour=ginger', (string) $client->get(self::url('/cookie-check'))->getBody());
        self::assertSame(503, $client->get(self::url('/status?code=503'))->getStatusCode());
        self::assertSame(5, $attempts, 'two cookie requests, then the 503 tried three times (history sits outside retry, as with curl)');
        self::assertCount(3, $history, \implode(' ', \array_map(static fn (array $h): string => (string) $h['request']->getUri(), $history)));
    }

    public function testStreamedBodyAndSink(): void
    {
        $client = self::client(true);
        $response = $client->get(self::url('/chunked'), ['stream' => true]);
        self::assertSame('hello, world', $response->getBody()->getContents());
        $file = \tempnam(\sys_get_temp_dir(), 'spindle-sink');
        self::assertIsString($file);
        $client->get(self::url('/hello'), ['sink' => $file]);
        self::assertSame('hello', \file_get_contents($file));
        \unlink($file);
    }

    public function testOnHeadersCanRejectAResponse(): void
    {
        foreach ([false, true] as $spindle) {
            $seen = null;
            try {
                self::client($spindle)->get(self::url('/hello'), ['on_headers' => static function ($response) use (&$seen): void {
                    $seen = $response->getHeaderLine('Content-Length');

                    throw new \RuntimeException('too big');
                }]);
                self::fail('on_headers did not reject');
            } catch (RequestException $e) {
                self::assertSame('5', $seen);
                self::assertSame('An error was encountered during the on_headers event', $e->getMessage());
                self::assertSame('too big', $e->getPrevious()?->getMessage());
            }
        }
    }

    /** (Guzzle's CurlHandler would write the whole 2 GiB to php://temp: Spindle only.) */
    public function testAHugeBodyStreamsThroughGuzzle(): void
    {
        $ours = new HttpClient();
        $response = self::client(true, $ours)->get(self::url('/huge'), ['stream' => true]);
        self::assertSame('2147483648', $response->getHeaderLine('Content-Length'));
        $body = $response->getBody();
        $read = 0;
        $before = \memory_get_usage();
        while ($read < 16 << 20 && !$body->eof()) {
            $read += \strlen($body->read(1 << 20));
        }
        self::assertGreaterThanOrEqual(16 << 20, $read);
        self::assertLessThan(8 << 20, \memory_get_usage() - $before);
        $body->close();
        self::assertSame(['open' => 0, 'idle' => 0], $ours->pool->stats());
    }

    public function testKeepAliveReusesOneConnection(): void
    {
        $client = self::client(true);
        $ids = [];
        for ($i = 0; $i < 5; ++$i) {
            $ids[] = $client->get(self::url('/hello'))->getHeaderLine('X-Connection');
        }
        self::assertCount(1, \array_unique($ids));
    }
}
