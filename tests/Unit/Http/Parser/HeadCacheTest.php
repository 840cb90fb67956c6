<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Http\Parser;

use PHPUnit\Framework\TestCase;
use Spindle\Http\HttpException;
use Spindle\Http\HttpLimits;
use Spindle\Http\Parser\HeadCache;
use Spindle\Http\Parser\RequestHead;
use Spindle\Http\Parser\RequestParser;

final class HeadCacheTest extends TestCase
{
    private HttpLimits $limits;
    private HeadCache $cache;
    /** @var list<RequestHead> */
    private array $heads = [];

    protected function setUp(): void
    {
        $this->limits = new HttpLimits();
        $this->cache = new HeadCache($this->limits, 4);
    }

    private function parser(): RequestParser
    {
        return new RequestParser($this->limits, function (RequestHead $head): void {
            $this->heads[] = $head;
        }, static fn () => null, static fn () => null, $this->cache);
    }

    public function testTheSameBytesOnAnotherConnectionGiveTheHeadParsedTheFirstTime(): void
    {
        $request = "GET /a?b=1 HTTP/1.1\r\nHost: example.test\r\nCookie: x=1\r\n\r\n";
        $this->parser()->push($request);
        $this->parser()->push($request . $request);

        self::assertCount(3, $this->heads);
        self::assertSame($this->heads[0], $this->heads[1]);
        self::assertSame($this->heads[0], $this->heads[2]);
        self::assertSame('/a', $this->heads[2]->path);
        self::assertSame(['x=1'], $this->heads[2]->headers['cookie']);
        self::assertSame(1, $this->cache->count());
    }

    public function testHeadsThatDifferInOneByteAreParsedApart(): void
    {
        $parser = $this->parser();
        $parser->push("GET /a HTTP/1.1\r\nHost: example.test\r\n\r\n");
        $parser->push("GET /a HTTP/1.1\r\nHost: example.tesT\r\n\r\n");

        self::assertNotSame($this->heads[0], $this->heads[1]);
        self::assertSame(['example.tesT'], $this->heads[1]->headers['host']);
    }

    public function testTheOldestHeadGoesWhenTheCacheIsFull(): void
    {
        $parser = $this->parser();
        for ($i = 0; $i < 6; ++$i) {
            $parser->push("GET /$i HTTP/1.1\r\nHost: example.test\r\n\r\n");
        }
        self::assertSame(4, $this->cache->count());
        self::assertNull($this->cache->get("GET /0 HTTP/1.1\r\nHost: example.test\r\n"));
        self::assertNull($this->cache->get("GET /1 HTTP/1.1\r\nHost: example.test\r\n"));
        self::assertSame($this->heads[5], $this->cache->get("GET /5 HTTP/1.1\r\nHost: example.test\r\n"));
    }

    public function testALongHeadIsParsedEveryTimeAndNotKept(): void
    {
        $request = "GET / HTTP/1.1\r\nHost: example.test\r\nCookie: " . \str_repeat('c', HeadCache::MAX_HEAD) . "\r\n\r\n";
        $parser = $this->parser();
        $parser->push($request . $request);

        self::assertNotSame($this->heads[0], $this->heads[1]);
        self::assertEquals($this->heads[0], $this->heads[1]);
        self::assertSame(0, $this->cache->count());
    }

    public function testAHeadThatFailsIsRefusedAgainAndNotKept(): void
    {
        $request = "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n";
        for ($i = 0; $i < 2; ++$i) {
            try {
                $this->parser()->push($request);
                self::fail('A request with two Host fields was accepted');
            } catch (HttpException $e) {
                self::assertSame(400, $e->status);
            }
        }
        self::assertSame(0, $this->cache->count());
    }

    public function testAParserWithOtherLimitsCannotShareTheCache(): void
    {
        $this->expectException(\InvalidArgumentException::class);
        new RequestParser(new HttpLimits(maxHeaderCount: 2), static fn () => null, static fn () => null, static fn () => null, $this->cache);
    }
}
