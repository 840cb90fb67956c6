<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Http\Parser;

use PHPUnit\Framework\TestCase;
use Random\Engine\Mt19937;
use Random\Randomizer;
use Spindle\Http\HttpException;
use Spindle\Http\HttpLimits;
use Spindle\Http\Parser\ChunkedDecoder;

/**
 * ChunkedDecoder in both modes. Every input is fed whole, byte by byte and cut at random points
 * (mt_srand with a fixed seed, named in failure messages): all give the same data, trailers and
 * rest, or the same error.
 */
final class ChunkedDecoderTest extends TestCase
{
    private const SEED = 7112;

    /** @return array<string, array{string, string, list<array{string, string}>, string}> body, data, lenient trailers, rest */
    public static function validBodies(): array
    {
        return [
            'one chunk' => ["5\r\nhello\r\n0\r\n\r\n", 'hello', [], ''],
            'several chunks, hex sizes' => ["3\r\nabc\r\nA\r\n0123456789\r\n1\r\nz\r\n0\r\n\r\n", 'abc0123456789z', [], ''],
            'upper and lower hex, leading zeros' => ["0000000000000b\r\nhello world\r\n1F\r\n" . \str_repeat('x', 31) . "\r\n0\r\n\r\n", 'hello world' . \str_repeat('x', 31), [], ''],
            'empty body' => ["0\r\n\r\n", '', [], ''],
            'extensions' => ["4;name\r\ndata\r\n2 ; a=b ;c=\"q \\\" d\"\r\nok\r\n0;last\r\n\r\n", 'dataok', [], ''],
            'trailers' => ["2\r\nab\r\n0\r\nX-Sum: 42\r\nX-Other:\tv w \r\n\r\n", 'ab', [['X-Sum', '42'], ['X-Other', 'v w']], ''],
            'rest: a pipelined request' => ["1\r\na\r\n0\r\n\r\nGET / HTTP/1.1\r\n\r\n", 'a', [], "GET / HTTP/1.1\r\n\r\n"],
            'rest after trailers' => ["1\r\na\r\n0\r\nA: b\r\n\r\nHTTP/1.1 200 OK\r\n", 'a', [['A', 'b']], "HTTP/1.1 200 OK\r\n"],
            'CRLF inside the data' => ["4\r\n\r\n\r\n\r\n0\r\n\r\n", "\r\n\r\n", [], ''],
        ];
    }

    /**
     * @param list<array{string, string}> $trailers
     *
     * @dataProvider validBodies
     */
    public function testBothModesDecodeAValidBodyHoweverItIsSplit(string $body, string $data, array $trailers, string $rest): void
    {
        foreach (['strict' => false, 'lenient' => true] as $mode => $lenient) {
            foreach (self::splits($body) as $how => $pieces) {
                $result = self::decode($lenient ? ChunkedDecoder::forResponses(65536) : ChunkedDecoder::forRequests(new HttpLimits()), $pieces);
                $where = \sprintf('%s, %s', $mode, $how);
                self::assertSame($data, $result['data'], $where);
                self::assertTrue($result['complete'], $where);
                self::assertSame($lenient ? $trailers : [], $result['trailers'], $where);
                self::assertSame($rest, $result['rest'], $where);
            }
        }
    }

    public function testDataComesOutAsSoonAsItArrives(): void
    {
        $decoder = ChunkedDecoder::forRequests(new HttpLimits());
        $pieces = [];
        $onData = static function (string $piece) use (&$pieces): void {
            $pieces[] = $piece;
        };
        self::assertNull($decoder->decode("a\r\n0123", $onData));
        self::assertSame(['0123'], $pieces);
        self::assertNull($decoder->decode('456789', $onData));
        self::assertSame(['0123', '456789'], $pieces);
        self::assertFalse($decoder->isComplete());
        self::assertSame('next', $decoder->decode("\r\n2\r\nab\r\n1\r\nc\r\n0\r\n\r\nnext", $onData), 'what follows the body');
        self::assertSame(['0123', '456789', 'ab', 'c'], $pieces, 'one piece per chunk');
        self::assertTrue($decoder->isComplete());
        self::assertSame('more', $decoder->decode('more', $onData), 'bytes after the end come back as they are');
        self::assertSame(['0123', '456789', 'ab', 'c'], $pieces);
    }

    public function testStartMakesItReadyForTheNextBody(): void
    {
        $decoder = ChunkedDecoder::forResponses(100);
        $data = '';
        $onData = static function (string $piece) use (&$data): void {
            $data .= $piece;
        };
        self::assertSame('', $decoder->decode("1\r\na\r\n0\r\nA: 1\r\n\r\n", $onData));
        self::assertSame([['A', '1']], $decoder->trailers());
        $decoder->start();
        self::assertFalse($decoder->isComplete());
        self::assertSame([], $decoder->trailers());
        self::assertSame('', $decoder->decode("2\r\nbc\r\n0\r\n\r\n", $onData));
        self::assertSame('abc', $data);
    }

    /** @return array<string, array{string, int, string}> body, status, message */
    public static function strictRefusals(): array
    {
        return [
            'not hex' => ["g\r\n", 400, 'Malformed chunk size'],
            'empty size' => ["\r\n", 400, 'Malformed chunk size'],
            'negative' => ["-1\r\n", 400, 'Malformed chunk size'],
            'space before the size' => [" 5\r\nhello\r\n0\r\n\r\n", 400, 'Malformed chunk size'],
            'space after the size, no extension' => ["5 \r\nhello\r\n0\r\n\r\n", 400, 'Malformed chunk size'],
            '0x prefix' => ["0x5\r\nhello\r\n0\r\n\r\n", 400, 'Malformed chunk size'],
            '16 significant digits' => ["1000000000000000\r\n", 400, 'Malformed chunk size'],
            'bare LF after the size' => ["5\nhello", 400, 'Chunk size line must end with CRLF'],
            'bare CR in an extension' => ["5;a\rb\r\nhello\r\n0\r\n\r\n", 400, 'Invalid character in a chunk extension'],
            'extension without a name' => ["5;\r\nhello\r\n0\r\n\r\n", 400, 'Malformed chunk extension'],
            'unclosed quoted extension' => ["5;a=\"b\r\nhello\r\n0\r\n\r\n", 400, 'Malformed chunk extension'],
            'size line too long' => ['5;a=' . \str_repeat('b', 5000) . "\r\n", 400, 'Chunk size line too long'],
            'size line too long, no end yet' => ['5;a=' . \str_repeat('b', 5000), 400, 'Chunk size line too long'],
            'data not followed by CRLF' => ["5\r\nhelloXY0\r\n\r\n", 400, 'Chunk data is not followed by CRLF'],
            'data followed by a bare LF' => ["5\r\nhello\n0\r\n\r\n", 400, 'Chunk data is not followed by CRLF'],
            'trailer with a bare LF' => ["0\r\nA: b\n", 400, 'Trailer lines must end with CRLF'],
            'trailer without a colon' => ["0\r\nnot a field\r\n\r\n", 400, 'Malformed trailer field line'],
            'folded trailer' => ["0\r\nA: b\r\n  c\r\n\r\n", 400, 'Obsolete line folding is not accepted in the trailer section'],
            'control character in a trailer' => ["0\r\nA: b\x01c\r\n\r\n", 400, 'Invalid character in a trailer field value'],
            'body over the limit' => ["400\r\n" . \str_repeat('x', 1024) . "\r\n1\r\n", 413, 'Request body larger than 1024 bytes'],
            'trailer section over the limit' => ["0\r\nA: " . \str_repeat('b', 300) . "\r\n\r\n", 431, 'Trailer section too large'],
            'trailer section over the limit, no end yet' => ["0\r\nA: " . \str_repeat('b', 300), 431, 'Trailer section too large'],
            'too many trailer fields' => ["0\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\n\r\n", 431, 'More than 3 trailer fields'],
        ];
    }

    /** @dataProvider strictRefusals */
    public function testStrictModeRefusesWithTheStatusToAnswer(string $body, int $status, string $message): void
    {
        $limits = new HttpLimits(maxHeaderSize: 256, maxHeaderCount: 3, maxBodySize: 1024);
        foreach (self::splits($body) as $how => $pieces) {
            $error = self::failure(ChunkedDecoder::forRequests($limits), $pieces);
            self::assertNotNull($error, $how);
            self::assertSame([$status, $message], [$error->status, $error->getMessage()], $how);
        }
    }

    /** @return array<string, array{string, string}> body, message */
    public static function lenientRefusals(): array
    {
        return [
            'not hex' => ["g\r\n", 'invalid chunk size: "g"'],
            'empty size' => ["\r\n", 'invalid chunk size: ""'],
            '16 hex digits' => ["1000000000000000\r\n", 'invalid chunk size: "1000000000000000"'],
            'more than 15 digits, leading zeros counted' => ["00000000000000005\r\nhello\r\n0\r\n\r\n", 'invalid chunk size: "00000000000000005"'],
            'size line too long' => [\str_repeat('1', 5000), 'the chunk size line is too long'],
            'data not followed by a line end' => ["5\r\nhelloXY0\r\n\r\n", 'chunk data is not followed by CRLF'],
            'CR then something else' => ["5\r\nhello\rX", 'chunk data is not followed by CRLF'],
            'trailer without a colon' => ["0\r\nnot a field\r\n\r\n", 'invalid trailer line: "not a field\r\n"'],
            'trailers over the limit' => ["0\r\nA: " . \str_repeat('b', 300) . "\r\n\r\n", 'the trailers exceed 256 bytes'],
            'trailers over the limit, no end yet' => ["0\r\nA: " . \str_repeat('b', 300), 'the trailers exceed 256 bytes'],
        ];
    }

    /** @dataProvider lenientRefusals */
    public function testLenientModeRefusesWhatIsNoChunkedBody(string $body, string $message): void
    {
        foreach (self::splits($body) as $how => $pieces) {
            $error = self::failure(ChunkedDecoder::forResponses(256), $pieces);
            self::assertNotNull($error, $how);
            self::assertSame([502, $message], [$error->status, $error->getMessage()], $how);
        }
    }

    /** @return array<string, array{string, string}> body, data */
    public static function lenientOnly(): array
    {
        return [
            'bare LF line ends' => ["5\nhello\n0\n\n", 'hello'],
            'spaces around the size' => ["5 \r\nhello\r\n 3\t\r\nabc\r\n0\r\n\r\n", 'helloabc'],
            'any bytes after ;' => ["5;\x01 junk \"\r\nhello\r\n0;\r\n\r\n", 'hello'],
            'a trailer with a bare LF' => ["1\r\na\r\n0\r\nA: b\n\n", 'a'],
        ];
    }

    /** @dataProvider lenientOnly */
    public function testLenientModeAcceptsWhatStrictModeRefuses(string $body, string $data): void
    {
        foreach (self::splits($body) as $how => $pieces) {
            $result = self::decode(ChunkedDecoder::forResponses(65536), $pieces);
            self::assertSame($data, $result['data'], $how);
            self::assertTrue($result['complete'], $how);
            $error = self::failure(ChunkedDecoder::forRequests(new HttpLimits()), $pieces);
            self::assertNotNull($error, 'strict, ' . $how);
            self::assertSame(400, $error->status, 'strict, ' . $how);
        }
    }

    public function testAnIncompleteBodyWaitsForMoreBytes(): void
    {
        foreach (["5\r\nhel", "5\r\nhello", "5\r\nhello\r", "5\r\nhello\r\n0\r\n", "5\r\nhello\r\n0\r\nA: b\r\n", '5;ext'] as $partial) {
            foreach ([ChunkedDecoder::forRequests(new HttpLimits()), ChunkedDecoder::forResponses(65536)] as $decoder) {
                $result = self::decode($decoder, [$partial]);
                self::assertFalse($result['complete'], \json_encode($partial) . ' is not a whole body');
            }
        }
    }

    /** Random bytes, and valid bodies with bytes changed: a body, a wait, or an HttpException; never anything else. */
    public function testGarbageIsABodyAWaitOrAnHttpException(): void
    {
        \mt_srand(self::SEED);
        $valid = \array_column(self::validBodies(), 0);
        for ($i = 0; $i < 400; ++$i) {
            if ($i % 2 === 0) {
                $input = (new Randomizer(new Mt19937(\mt_rand())))->getBytes(\mt_rand(1, 64));
            } else {
                $input = $valid[$i % \count($valid)];
                for ($j = \mt_rand(1, 3); $j > 0; --$j) {
                    $input[\mt_rand(0, \strlen($input) - 1)] = \chr(\mt_rand(0, 255));
                }
            }
            foreach (['strict' => [400, 413, 431], 'lenient' => [502]] as $mode => $statuses) {
                $outcomes = [];
                foreach (self::splits($input, 3) as $pieces) {
                    $decoder = $mode === 'strict' ? ChunkedDecoder::forRequests(new HttpLimits()) : ChunkedDecoder::forResponses(65536);
                    try {
                        $outcomes[] = self::decode($decoder, $pieces);
                    } catch (HttpException $e) {
                        self::assertContains($e->status, $statuses, $mode . ': ' . \json_encode($input, \JSON_INVALID_UTF8_SUBSTITUTE));
                        // Where a line is refused may depend on how much of it has arrived (a bare
                        // LF is seen before or after a CRLF further on), so only the status is compared.
                        $outcomes[] = $e->status;
                    }
                }
                self::assertCount(1, \array_unique(\array_map('serialize', $outcomes)), $mode . ': the same outcome however split: ' . \json_encode($input, \JSON_INVALID_UTF8_SUBSTITUTE));
            }
        }
    }

    /**
     * The input whole, byte by byte, and cut at random points.
     *
     * @return array<string, list<string>>
     */
    private static function splits(string $input, int $randomSplits = 10): array
    {
        $splits = ['whole' => [$input], 'byte by byte' => $input === '' ? [] : \str_split($input)];
        for ($i = 0; $i < $randomSplits && \strlen($input) > 1; ++$i) {
            $seed = self::SEED + $i;
            \mt_srand($seed);
            $points = [];
            for ($j = \mt_rand(1, 6); $j > 0; --$j) {
                $points[] = \mt_rand(1, \strlen($input) - 1);
            }
            $points = \array_values(\array_unique($points));
            \sort($points);
            $pieces = [];
            $at = 0;
            foreach ($points as $point) {
                $pieces[] = \substr($input, $at, $point - $at);
                $at = $point;
            }
            $pieces[] = \substr($input, $at);
            $splits['random cuts, seed ' . $seed] = $pieces;
        }

        return $splits;
    }

    /**
     * @param list<string> $pieces
     *
     * @return array{data: string, complete: bool, trailers: list<array{string, string}>, rest: string}
     */
    private static function decode(ChunkedDecoder $decoder, array $pieces): array
    {
        $data = '';
        $rest = null;
        foreach ($pieces as $piece) {
            $result = $decoder->decode($piece, static function (string $read) use (&$data): void {
                self::assertNotSame('', $read, 'no empty pieces');
                $data .= $read;
            });
            self::assertTrue($rest === null || $result === $piece, 'after the end, bytes come back as they are');
            $rest = $rest === null ? $result : $rest . $result;
        }
        self::assertSame($rest !== null, $decoder->isComplete());

        return ['data' => $data, 'complete' => $rest !== null, 'trailers' => $decoder->trailers(), 'rest' => (string) $rest];
    }

    /** @param list<string> $pieces */
    private static function failure(ChunkedDecoder $decoder, array $pieces): ?HttpException
    {
        try {
            self::decode($decoder, $pieces);
        } catch (HttpException $e) {
            return $e;
        }

        return null;
    }
}
