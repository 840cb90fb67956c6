<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\HttpClient;

use PHPUnit\Framework\TestCase;
use Random\Engine\Mt19937;
use Random\Randomizer;
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
        // Whole, byte by byte, then split at random points: seeds 1 to 20, named on failure.
        $splits = ['whole' => [$bytes], 'byte by byte' => \str_split($bytes)];
        for ($seed = 1; $seed <= 20; ++$seed) {
            $random = new Randomizer(new Mt19937($seed));
            $pieces = [];
            $rest = $bytes;
            while ($rest !== '') {
                $n = $random->getInt(1, \max(1, \strlen($rest)));
                $pieces[] = \substr($rest, 0, $n);
                $rest = (string) \substr($rest, $n);
            }
            $splits["seed {$seed}"] = $pieces;
        }
        foreach ($splits as $split => $pieces) {
            $parser = new ResponseParser($head);
            $got = '';
            foreach ($pieces as $piece) {
                $parser->push($piece);
                $got .= $parser->takeBody();
            }
            if (!$parser->isComplete()) {
                $parser->close();
            }
            self::assertTrue($parser->isComplete(), $split);
            self::assertSame($status, $parser->head()?->status, $split);
            self::assertSame($body, $got, $split);
            self::assertSame($trailers, $parser->trailers(), $split);
            self::assertSame($reusable, $parser->isReusable(), $split);
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
        // Seeds 0 to 1999, one a parser, named on failure.
        for ($seed = 0; $seed < 2000; ++$seed) {
            $random = new Randomizer(new Mt19937($seed));
            $parser = new ResponseParser($random->getInt(0, 5) === 0);
            try {
                $parser->push($prefixes[$seed % 4]);
                for ($j = $random->getInt(1, 6); $j > 0; --$j) {
                    $parser->push($random->getBytes($random->getInt(1, 200)));
                    $parser->takeBody();
                    $parser->takeInterim();
                }
                $parser->close();
            } catch (ResponseParseException) {
                // the only acceptable failure
            } catch (\Throwable $e) {
                self::fail(\sprintf('seed %d: %s: %s', $seed, $e::class, $e->getMessage()));
            }
            $this->addToAssertionCount(1);
        }
    }
}
