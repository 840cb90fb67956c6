<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\HttpClient;

use GuzzleHttp\Client;
use GuzzleHttp\Exception\ConnectException as GuzzleConnectException;
use GuzzleHttp\Handler\CurlHandler;
use GuzzleHttp\HandlerStack;
use PHPUnit\Framework\TestCase;
use GuzzleHttp\Exception\RequestException;
use Spindle\HttpClient\CertificateException;
use Spindle\HttpClient\ConnectException;
use Spindle\HttpClient\Guzzle\SpindleHandler;
use Spindle\HttpClient\HttpClient;
use Spindle\HttpClient\Options;
use Spindle\HttpClient\Request;
use Spindle\HttpClient\Stream\StreamWrappers;
use Spindle\HttpClient\TlsOptions;

/**
 * HTTPS against nginx with a certificate from a CA the test makes: verification is on by
 * default (the system store does not know that CA), a CA file, verify=false, a client
 * certificate, SNI, host-name checks, keep-alive; Guzzle's CurlHandler and PHP's wrapper agree.
 */
final class TlsTest extends TestCase
{
    private static ?TlsNginx $nginx = null;

    public static function setUpBeforeClass(): void
    {
        if (TlsNginx::binary() === null) {
            self::markTestSkipped('nginx is not installed');
        }
        self::$nginx = TlsNginx::start();
    }

    public static function tearDownAfterClass(): void
    {
        StreamWrappers::uninstall();
        self::$nginx?->stop();
        self::$nginx = null;
    }

    private static function nginx(): TlsNginx
    {
        return self::$nginx ?? throw new \LogicException('nginx is not running');
    }

    private static function ca(): string
    {
        return self::nginx()->dir . '/ca.pem';
    }

    public function testVerificationIsOnByDefault(): void
    {
        $this->expectException(CertificateException::class);
        $this->expectExceptionMessageMatches('/certificate verify failed/');
        (new HttpClient())->request(Request::create('GET', self::nginx()->url()));
    }

    public function testACaFileVerifiesAndSniNamesTheHost(): void
    {
        $client = new HttpClient();
        $options = new Options(tls: new TlsOptions(caFile: self::ca()));
        $response = $client->request(Request::create('GET', self::nginx()->url('localhost')), $options);
        self::assertSame('tls ok', $response->body->contents());
        self::assertSame('localhost', $response->header('x-sni'));
        self::assertSame('NONE', $response->header('x-client-verify'));
        $connections = [$response->header('x-connection')];
        for ($i = 0; $i < 3; ++$i) {
            $connections[] = $client->request(Request::create('GET', self::nginx()->url('localhost')), $options)->header('x-connection');
        }
        self::assertCount(1, \array_unique($connections), 'one kept-alive TLS connection');
    }

    public function testTheHostNameIsChecked(): void
    {
        $this->expectException(CertificateException::class);
        $this->expectExceptionMessageMatches('/did not match expected CN|peer_name|match/i');
        (new HttpClient())->request(Request::create('GET', self::nginx()->url()), new Options(tls: new TlsOptions(caFile: self::ca(), peerName: 'example.com')));
    }

    public function testVerifyFalseAndAClientCertificate(): void
    {
        $client = new HttpClient();
        $insecure = new TlsOptions(verifyPeer: false, verifyPeerName: false, allowSelfSigned: true);
        self::assertSame('tls ok', $client->request(Request::create('GET', self::nginx()->url()), new Options(tls: $insecure))->body->contents());
        $dir = self::nginx()->dir;
        $withCert = new TlsOptions(caFile: self::ca(), certFile: $dir . '/client.pem', keyFile: $dir . '/client.key');
        self::assertSame('SUCCESS', $client->request(Request::create('GET', self::nginx()->url()), new Options(tls: $withCert))->header('x-client-verify'));
    }

    /** @return iterable<string, array{array<string, mixed>}> */
    public static function guzzleOptions(): iterable
    {
        yield 'default verification' => [[]];
        yield 'CA file' => [['verify' => 'CA']];
        yield 'verify false' => [['verify' => false]];
        yield 'client certificate' => [['verify' => 'CA', 'cert' => 'client.pem', 'ssl_key' => 'client.key']];
    }

    /**
     * @dataProvider guzzleOptions
     *
     * @param array<string, mixed> $options
     */
    public function testGuzzleHandlerAgreesWithCurl(array $options): void
    {
        if (!\extension_loaded('curl')) {
            self::markTestSkipped('php-curl is not installed');
        }
        $dir = self::nginx()->dir;
        $options = \array_map(static fn (mixed $v): mixed => match ($v) {
            'CA' => $dir . '/ca.pem',
            'client.pem', 'client.key' => $dir . '/' . $v,
            default => $v,
        }, $options);
        $outcomes = [];
        foreach ([new CurlHandler(), new SpindleHandler(new HttpClient())] as $handler) {
            $client = new Client(['handler' => HandlerStack::create($handler)]);
            try {
                $response = $client->get(self::nginx()->url('localhost'), $options);
                $outcomes[] = [$response->getStatusCode(), (string) $response->getBody(), $response->getHeaderLine('X-Client-Verify'), $response->getHeaderLine('X-Sni')];
            } catch (GuzzleConnectException) {
                $outcomes[] = 'ConnectException';
            } catch (RequestException $e) {
                $outcomes[] = [RequestException::class, $e->hasResponse()];
            }
        }
        self::assertSame($outcomes[0], $outcomes[1]);
    }

    public function testStreamWrapperAgreesWithPhps(): void
    {
        $outcomes = [];
        foreach ([false, true] as $spindle) {
            if ($spindle) {
                StreamWrappers::install();
            }
            foreach ([[], ['cafile' => self::ca()], ['verify_peer' => false, 'verify_peer_name' => false]] as $ssl) {
                $context = \stream_context_create(['ssl' => $ssl]);
                $outcomes[$spindle ? 'spindle' : 'php'][] = @\file_get_contents(self::nginx()->url('localhost'), false, $context);
            }
        }
        self::assertSame([false, 'tls ok', 'tls ok'], $outcomes['php']);
        self::assertSame($outcomes['php'], $outcomes['spindle']);
    }

    public function testThroughAProxy(): void
    {
        $proxy = FakeServer::start();
        try {
            $client = new HttpClient();
            $tls = new TlsOptions(caFile: self::ca());
            // https: a CONNECT tunnel, TLS with the target through it.
            $response = $client->request(Request::create('GET', self::nginx()->url('localhost')), new Options(tls: $tls, proxy: 'http://u:p@127.0.0.1:' . $proxy->port));
            self::assertSame(['tls ok', 'localhost'], [$response->body->contents(), $response->header('x-sni')]);
            try {
                $client->request(Request::create('GET', self::nginx()->url('localhost')), new Options(tls: $tls, proxy: 'http://u:wrong@127.0.0.1:' . $proxy->port));
                self::fail('the proxy let a wrong password through');
            } catch (ConnectException $e) {
                self::assertStringContainsString('407', $e->getMessage());
            }
            // http: the absolute URL in the request line, credentials in Proxy-Authorization.
            $echo = \json_decode($client->request(Request::create('GET', 'http://example.test/echo'), new Options(proxy: 'http://u:p@127.0.0.1:' . $proxy->port))->body->contents(), true);
            self::assertIsArray($echo);
            self::assertSame(['http://example.test/echo', ['Basic dTpw']], [$echo['target'], $echo['headers']['proxy-authorization']]);
            // Guzzle's proxy option goes the same way.
            $guzzle = new Client(['handler' => HandlerStack::create(new SpindleHandler($client))]);
            self::assertSame('tls ok', (string) $guzzle->get(self::nginx()->url('localhost'), ['verify' => self::ca(), 'proxy' => ['https' => 'http://127.0.0.1:' . $proxy->port]])->getBody());
        } finally {
            $proxy->stop();
        }
    }
}
