<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\HttpClient;

use PHPUnit\Framework\TestCase;
use Spindle\HttpClient\Protocol\ResponseParseException;
use Spindle\HttpClient\Protocol\ResponseParser;

final class ResponseParserTest extends TestCase
{
    /** @return iterable<string, array{string, bool, int, string, list<array{string, string}>, bool}> bytes, HEAD?, status, body, trailers, reusable */
    public static function responses(): iterable
    {
        yield 'content-length' => ["HTTP/1.1 200 OK\r\nContent-Length: 5\r\nX-A: 1\r\n\r\nhello", false, 200, 'hello', [], true];
        yield 'chunked with trailers' => ["HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;x=y\r\nhello\r\n7\r\n, world\r\n0\r\nX-Sum: 12\r\n\r\n", false, 200, 'hello, world', [['X-Sum', '12']], true];
        yield 'until close' => ["HTTP/1.1 200 OK\r\n\r\nto the end", false, 200, 'to the end', [], false];
        yield 'interim heads' => ["HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok", false, 201, 'ok', [], true];
        yield 'HEAD' => ["HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n", true, 200, '', [], true];
        yield '204' => ["HTTP/1.1 204 No Content\r\nContent-Length: 10\r\n\r\n", false, 204, '', [], true];
        yield '304' => ["HTTP/1.1 304 Not Modified\r\nTransfer-Encoding: chunked\r\n\r\n", false, 304, '', [], true];
        yield 'connection close' => ["HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok", false, 200, 'ok', [], false];
        yield 'HTTP/1.0 keep-alive' => ["HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 2\r\n\r\nok", false, 200, 'ok', [], true];
        yield 'HTTP/1.0' => ["HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok", false, 200, 'ok', [], false];
        yield 'bare LF, no reason' => ["HTTP/1.1 404\nContent-Length: 3\n\nnot", false, 404, 'not', [], true];
        yield 'empty body' => ["HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", false, 200, '', [], true];
    }

    /**
     * @dataProvider responses
     *
     * @param list<array{string, string}> $trailers
     */
    public function testWholeByteByByteAndAtRandomSplits(string $bytes, bool $head, int $status, string $body, array $trailers, bool $reusable): void
    {
        $splits = [[$bytes], \str_split($bytes)];
        for ($i = 0; $i < 20; ++$i) {
            $pieces = [];
            $rest = $bytes;
            while ($rest !== '') {
                $n = \random_int(1, \max(1, \strlen($rest)));
                $pieces[] = \substr($rest, 0, $n);
                $rest = (string) \substr($rest, $n);
            }
            $splits[] = $pieces;
        }
        foreach ($splits as $pieces) {
            $parser = new ResponseParser($head);
            $got = '';
            foreach ($pieces as $piece) {
                $parser->push($piece);
                $got .= $parser->takeBody();
            }
            if (!$parser->isComplete()) {
                $parser->close();
            }
            self::assertTrue($parser->isComplete());
            self::assertSame($status, $parser->head()?->status);
            self::assertSame($body, $got);
            self::assertSame($trailers, $parser->trailers());
            self::assertSame($reusable, $parser->isReusable());
        }
    }

    public function testInterimHeadsAreTakenApart(): void
    {
        $parser = new ResponseParser();
        $parser->push("HTTP/1.1 103 Early Hints\r\nLink: </style.css>\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
        $interim = $parser->takeInterim();
        self::assertCount(1, $interim);
        self::assertSame('</style.css>', $interim[0]->first('link'));
        self::assertSame(200, $parser->head()?->status);
    }

    public function testATwoGibibyteBodyIsCountedNotHeld(): void
    {
        $parser = new ResponseParser();
        $parser->push("HTTP/1.1 200 OK\r\nContent-Length: 2147483648\r\n\r\n");
        $chunk = \str_repeat("\0", 1 << 20);
        $before = \memory_get_usage();
        for ($i = 0; $i < 64; ++$i) {
            $parser->push($chunk);
            self::assertSame(1 << 20, \strlen($parser->takeBody()));
        }
        self::assertLessThan(4 << 20, \memory_get_usage() - $before);
        self::assertFalse($parser->isComplete());
        $this->expectException(ResponseParseException::class);
        $this->expectExceptionMessage('2080374784 bytes of the body still to come');
        $parser->close();
    }

    public function testBytesAfterTheResponseMakeTheConnectionUnusable(): void
    {
        $parser = new ResponseParser();
        $parser->push("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokHTTP/1.1 200 OK\r\n");
        self::assertTrue($parser->isComplete());
        self::assertFalse($parser->isReusable());
    }

    /** @return iterable<string, array{string, string}> */
    public static function invalid(): iterable
    {
        yield 'not HTTP' => ["SSH-2.0-OpenSSH\r\n", 'does not start with a status line'];
        yield 'bad status' => ["HTTP/1.1 2000 OK\r\n\r\n", 'invalid status line'];
        yield 'bad header' => ["HTTP/1.1 200 OK\r\nNo colon here\r\n\r\n", 'invalid header line'];
        yield 'bad length' => ["HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", 'invalid Content-Length'];
        yield 'two lengths' => ["HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", 'invalid Content-Length'];
        yield 'bad chunk size' => ["HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 'invalid chunk size'];
        yield 'chunk without CRLF' => ["HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nab\r\n", 'not followed by CRLF'];
        yield 'switching protocols' => ["HTTP/1.1 101 Switching Protocols\r\n\r\n", 'switched protocols'];
        yield 'head too big' => ["HTTP/1.1 200 OK\r\nX: " . \str_repeat('a', 70000), 'exceeds 65536 bytes'];
    }

    /** @dataProvider invalid */
    public function testInvalidResponsesRaiseTheParsersException(string $bytes, string $message): void
    {
        $parser = new ResponseParser();
        try {
            $parser->push($bytes);
            self::fail('no exception');
        } catch (ResponseParseException $e) {
            self::assertStringContainsString($message, $e->getMessage());
        }
        $this->expectException(ResponseParseException::class);
        $parser->push("HTTP/1.1 200 OK\r\n\r\n");
    }

    public function testClosedEarly(): void
    {
        $parser = new ResponseParser();
        $parser->push("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel");
        $this->expectException(ResponseParseException::class);
        $this->expectExceptionMessage('in the middle of the chunked body');
        $parser->close();
    }

    public function testRandomGarbageOnlyRaisesTheParsersException(): void
    {
        $prefixes = ['', "HTTP/1.1 200 OK\r\n", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n"];
        for ($i = 0; $i < 2000; ++$i) {
            $parser = new ResponseParser(\random_int(0, 5) === 0);
            try {
                $parser->push($prefixes[$i % 4]);
                for ($j = \random_int(1, 6); $j > 0; --$j) {
                    $parser->push(\random_bytes(\random_int(1, 200)));
                    $parser->takeBody();
                    $parser->takeInterim();
                }
                $parser->close();
            } catch (ResponseParseException) {
                // the only acceptable failure
            }
            self::assertTrue(true);
        }
    }
}
