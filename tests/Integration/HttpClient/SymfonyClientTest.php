<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\HttpClient;

use PHPUnit\Framework\TestCase;
use Spindle\HttpClient\HttpClient;
use Spindle\HttpClient\Symfony\SpindleHttpClient;
use Symfony\Component\HttpClient\Exception\ClientException;
use Symfony\Component\HttpClient\Exception\TransportException;
use Symfony\Component\HttpClient\HttpClient as SymfonyHttpClient;
use Symfony\Contracts\HttpClient\HttpClientInterface;

/**
 * Symfony's HttpClientInterface on Spindle's client (Symfony 5.4 from Debian's
 * php-symfony-http-client), compared with Symfony's own client on the same requests.
 */
final class SymfonyClientTest extends TestCase
{
    private static ?FakeServer $server = null;

    public static function setUpBeforeClass(): void
    {
        if (!\is_file('/usr/share/php/Symfony/Component/HttpClient/autoload.php')) {
            self::markTestSkipped('php-symfony-http-client is not installed');
        }
        require_once '/usr/share/php/Symfony/Component/HttpClient/autoload.php';
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

    /**
     * @param array<string, mixed> $options
     *
     * @return array<string, mixed>
     */
    private static function outcome(HttpClientInterface $client, string $method, string $path, array $options = []): array
    {
        try {
            $response = $client->request($method, self::url($path), $options);
            $content = $response->getContent();
            $echo = \json_decode($content, true);
            if (\is_array($echo)) {
                // What each client adds of its own is not compared.
                $echo['headers'] = \array_intersect_key($echo['headers'], ['content-type' => 1, 'x-a' => 1, 'authorization' => 1]);
                $content = $echo;
            }

            return ['status' => $response->getStatusCode(), 'content' => $content, 'type' => $response->getHeaders()['content-type'] ?? null, 'redirects' => $response->getInfo('redirect_count')];
        } catch (ClientException $e) {
            return ['error' => ClientException::class, 'status' => $e->getResponse()->getStatusCode()];
        } catch (TransportException $e) {
            return ['error' => TransportException::class];
        }
    }

    public function testSameOutcomesAsSymfonysClient(): void
    {
        $cases = [
            ['GET', '/hello', []],
            ['POST', '/echo', ['json' => ['a' => 1], 'headers' => ['X-A' => 'b']]],
            ['GET', '/echo', ['auth_bearer' => 'token', 'query' => ['q' => 'x y']]],
            ['GET', '/redirect?n=2', []],
            ['GET', '/status?code=404', []],
            ['GET', '/gzip', []],
            ['GET', '/chunked', []],
        ];
        $symfony = SymfonyHttpClient::create();
        $spindle = new SpindleHttpClient([], new HttpClient());
        foreach ($cases as [$method, $path, $options]) {
            self::assertSame(self::outcome($symfony, $method, $path, $options), self::outcome($spindle, $method, $path, $options), $method . ' ' . $path);
        }
        self::assertSame(['error' => TransportException::class], self::outcome($spindle, 'GET', '/garbage'));
    }

    public function testResponsesAreInFlightTogether(): void
    {
        $client = new SpindleHttpClient([], new HttpClient());
        $started = \microtime(true);
        $responses = [];
        for ($i = 0; $i < 5; ++$i) {
            $responses[] = $client->request('GET', self::url('/delay?ms=500'));
        }
        $bodies = [];
        foreach ($client->stream($responses) as $response => $chunk) {
            if ($chunk->isLast()) {
                $bodies[] = $response->getContent();
            }
        }
        self::assertSame(\array_fill(0, 5, 'done'), $bodies);
        self::assertLessThan(2.0, \microtime(true) - $started, 'five requests of 0.5 s overlapped');
        self::assertSame('{"a":1}', $client->request('POST', self::url('/echo'), ['json' => ['a' => 1]])->toArray()['body']);
    }
}
