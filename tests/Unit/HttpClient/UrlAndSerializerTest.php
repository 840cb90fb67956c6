<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\HttpClient;

use PHPUnit\Framework\TestCase;
use Spindle\HttpClient\Decoder;
use Spindle\HttpClient\HttpClientError;
use Spindle\HttpClient\HttpClientException;
use Spindle\HttpClient\Protocol\RequestSerializer;
use Spindle\HttpClient\Url;

final class UrlAndSerializerTest extends TestCase
{
    public function testParse(): void
    {
        $url = Url::parse('HTTPS://User:p%40ss@Example.COM/a/b?x=1#frag');
        self::assertSame(['https', 'example.com', 443, '/a/b?x=1', 'User:p%40ss'], [$url->scheme, $url->host, $url->port, $url->target, $url->userInfo]);
        self::assertSame('https://example.com:443', $url->origin());
        self::assertSame('example.com', $url->authority());
        self::assertSame('[::1]:8080', Url::parse('http://[::1]:8080/')->authority());
        $this->expectException(HttpClientError::class);
        Url::parse('ftp://example.com/');
    }

    /** @return iterable<array{string, string}> */
    public static function references(): iterable
    {
        yield ['/x', 'http://h/x'];
        yield ['y', 'http://h/a/y'];
        yield ['../y?q=1', 'http://h/y?q=1'];
        yield ['./y', 'http://h/a/y'];
        yield ['?q=2', 'http://h/a/b?q=2'];
        yield ['//other:81/z', 'http://other:81/z'];
        yield ['https://secure/', 'https://secure/'];
        yield ['', 'http://h/a/b?q=1'];
    }

    /** @dataProvider references */
    public function testResolve(string $reference, string $expected): void
    {
        self::assertSame($expected, (string) Url::parse('http://h/a/b?q=1')->resolve($reference));
    }

    public function testSerializer(): void
    {
        $serializer = new RequestSerializer();
        self::assertSame("GET /a?b HTTP/1.1\r\nHost: h\r\nX-A: 1\r\n\r\n", $serializer->head('GET', '/a?b', [['Host', 'h'], ['X-A', '1']]));
        self::assertSame("5\r\nhello\r\n", $serializer->chunk('hello'));
        self::assertSame('', $serializer->chunk(''));
        self::assertSame("0\r\n\r\n", $serializer->lastChunk());
        foreach ([['GET', '/a b', []], ['G T', '/', []], ['GET', '/', [['X', "a\r\nInjected: 1"]]], ['GET', '/', [['X Y', 'a']]]] as [$method, $target, $headers]) {
            try {
                $serializer->head($method, $target, $headers);
                self::fail('accepted ' . \json_encode([$method, $target, $headers]));
            } catch (HttpClientError) {
            }
        }
    }

    public function testDecoderAtEverySplit(): void
    {
        $text = \str_repeat('Spindle decodes gzip and deflate. ', 50);
        foreach (['gzip' => \gzencode($text), 'deflate' => \gzcompress($text), 'raw deflate' => \gzdeflate($text)] as $name => $encoded) {
            self::assertIsString($encoded);
            foreach ([1, 2, 7, 100, \strlen($encoded)] as $size) {
                $decoder = Decoder::for($name === 'gzip' ? 'gzip' : 'deflate');
                self::assertNotNull($decoder);
                $out = '';
                foreach (\str_split($encoded, $size) as $piece) {
                    $out .= $decoder->push($piece);
                }
                self::assertSame($text, $out . $decoder->finish(), $name . ' in pieces of ' . $size);
            }
        }
        self::assertNull(Decoder::for('br'));
        self::assertNull(Decoder::for(null));
        $this->expectException(HttpClientException::class);
        Decoder::for('gzip')?->push("\x1f\x8b\x08\x00garbage that is not deflate at all");
    }
}
