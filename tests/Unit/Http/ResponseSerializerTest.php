<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Http;

use PHPUnit\Framework\TestCase;
use Spindle\Http\ResponseSerializer;

/** ResponseSerializer against RFC 9112 §4 (status line), §6 (framing) and RFC 9110 §6.6.1 (Date). */
final class ResponseSerializerTest extends TestCase
{
    private const IMF_FIXDATE = '/^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/D';

    /**
     * @param array<string, string|list<string>> $headers
     */
    private static function head(
        int $status = 200,
        string $reason = '',
        array $headers = [],
        string $protocolVersion = '1.1',
        bool $keepAlive = true,
        ?int $contentLength = 0,
    ): string {
        return (new ResponseSerializer())->head($status, $reason, $headers, $protocolVersion, $keepAlive, $contentLength);
    }

    /**
     * Splits a serialized head into its status line and field lines, checking the framing.
     *
     * @return array{string, list<array{string, string}>}
     */
    private static function lines(string $head): array
    {
        self::assertStringEndsWith("\r\n\r\n", $head);
        $lines = \explode("\r\n", \substr($head, 0, -4));
        foreach ($lines as $line) {
            self::assertStringNotContainsString("\n", $line);
            self::assertStringNotContainsString("\r", $line);
            self::assertNotSame('', $line, 'no empty line inside the head');
        }
        $statusLine = \array_shift($lines);
        $fields = [];
        foreach ($lines as $line) {
            $colon = \strpos($line, ': ');
            self::assertNotFalse($colon, 'field line ' . $line);
            $fields[] = [\substr($line, 0, $colon), \substr($line, $colon + 2)];
        }

        return [$statusLine, $fields];
    }

    /** @return list<string> the values of one field, case-insensitive name */
    private static function values(string $head, string $name): array
    {
        $values = [];
        foreach (self::lines($head)[1] as [$field, $value]) {
            if (\strcasecmp($field, $name) === 0) {
                $values[] = $value;
            }
        }

        return $values;
    }

    // ---------------------------------------------------------------------------------------
    // Status line
    // ---------------------------------------------------------------------------------------

    /** @return array<string, array{int, string, string, string}> */
    public static function statusLines(): array
    {
        return [
            '200 default reason' => [200, '', '1.1', 'HTTP/1.1 200 OK'],
            '404 default reason' => [404, '', '1.1', 'HTTP/1.1 404 Not Found'],
            '431 default reason' => [431, '', '1.1', 'HTTP/1.1 431 Request Header Fields Too Large'],
            'HTTP/1.0' => [503, '', '1.0', 'HTTP/1.0 503 Service Unavailable'],
            'custom reason' => [200, 'Fine, Thanks', '1.1', 'HTTP/1.1 200 Fine, Thanks'],
            'custom reason for an unknown status' => [299, 'Custom', '1.1', 'HTTP/1.1 299 Custom'],
            // RFC 9112 §4: the reason-phrase may be empty, the SP before it may not.
            'unknown status without reason' => [599, '', '1.1', 'HTTP/1.1 599 '],
            'lowest status' => [100, '', '1.1', 'HTTP/1.1 100 Continue'],
            'highest status' => [999, '', '1.1', 'HTTP/1.1 999 '],
        ];
    }

    /** @dataProvider statusLines */
    public function testStatusLine(int $status, string $reason, string $version, string $expected): void
    {
        [$statusLine] = self::lines(self::head($status, $reason, [], $version));
        self::assertSame($expected, $statusLine);
    }

    /** @return array<string, array{int}> */
    public static function invalidStatuses(): array
    {
        return ['status -1' => [-1], 'status 0' => [0], 'status 99' => [99], 'status 1000' => [1000], 'status 2000' => [2000]];
    }

    /** @dataProvider invalidStatuses */
    public function testStatusOutsideThreeDigitsThrows(int $status): void
    {
        $this->expectException(\UnexpectedValueException::class);
        self::head($status);
    }

    // ---------------------------------------------------------------------------------------
    // Date
    // ---------------------------------------------------------------------------------------

    public function testDateIsAddedInImfFixdateFormat(): void
    {
        $before = \time();
        $dates = self::values(self::head(), 'Date');
        $after = \time();

        // RFC 9110 §6.6.1: an origin server with a clock MUST send Date; §5.6.7: IMF-fixdate.
        self::assertCount(1, $dates);
        self::assertMatchesRegularExpression(self::IMF_FIXDATE, $dates[0]);
        $time = \DateTimeImmutable::createFromFormat('D, d M Y H:i:s \G\M\T', $dates[0], new \DateTimeZone('UTC'));
        self::assertNotFalse($time);
        self::assertGreaterThanOrEqual($before, $time->getTimestamp());
        self::assertLessThanOrEqual($after, $time->getTimestamp());
    }

    public function testDateOfTheApplicationIsKeptAndNotDuplicated(): void
    {
        foreach (['Date', 'date', 'DATE'] as $name) {
            $head = self::head(200, '', [$name => 'Tue, 14 Nov 2023 22:13:20 GMT']);
            self::assertSame(['Tue, 14 Nov 2023 22:13:20 GMT'], self::values($head, 'Date'), $name);
        }
    }

    public function testSerializerReusedAcrossCallsKeepsOneDate(): void
    {
        $serializer = new ResponseSerializer();
        for ($i = 0; $i < 3; ++$i) {
            $head = $serializer->head(200, '', ['X-I' => (string) $i], '1.1', true, 0);
            self::assertCount(1, self::values($head, 'Date'));
            self::assertSame([(string) $i], self::values($head, 'X-I'));
        }
    }

    // ---------------------------------------------------------------------------------------
    // Framing
    // ---------------------------------------------------------------------------------------

    /** @return array<string, array{string, ?int, list<string>, list<string>}> */
    public static function framing(): array
    {
        // RFC 9112 §6: Content-Length when the length is known, chunked for HTTP/1.1 otherwise;
        // an HTTP/1.0 client does not understand chunked (§7), so the body ends with the connection.
        return [
            '1.1 length 0' => ['1.1', 0, ['0'], []],
            '1.1 length 1234' => ['1.1', 1234, ['1234'], []],
            '1.0 length 5' => ['1.0', 5, ['5'], []],
            '1.1 unknown length' => ['1.1', null, [], ['chunked']],
            '1.0 unknown length' => ['1.0', null, [], []],
            '1.1 no body' => ['1.1', -1, [], []],
            '1.0 no body' => ['1.0', -1, [], []],
        ];
    }

    /**
     * @dataProvider framing
     *
     * @param list<string> $contentLength
     * @param list<string> $transferEncoding
     */
    public function testFraming(string $version, ?int $length, array $contentLength, array $transferEncoding): void
    {
        $head = self::head(200, '', [], $version, $version === '1.1', $length);
        self::assertSame($contentLength, self::values($head, 'Content-Length'));
        self::assertSame($transferEncoding, self::values($head, 'Transfer-Encoding'));
    }

    /** @return array<string, array{string, bool, list<string>}> */
    public static function connection(): array
    {
        // RFC 9112 §9.3, §9.6: "close" announces the end; an HTTP/1.0 client needs "keep-alive"
        // to know the connection persists; HTTP/1.1 persists by default.
        return [
            '1.1 keep-alive' => ['1.1', true, []],
            '1.1 close' => ['1.1', false, ['close']],
            '1.0 keep-alive' => ['1.0', true, ['keep-alive']],
            '1.0 close' => ['1.0', false, ['close']],
        ];
    }

    /**
     * @dataProvider connection
     *
     * @param list<string> $expected
     */
    public function testConnectionHeader(string $version, bool $keepAlive, array $expected): void
    {
        self::assertSame($expected, self::values(self::head(200, '', [], $version, $keepAlive, 3), 'Connection'));
    }

    public function testFramingHeadersOfTheApplicationAreDropped(): void
    {
        $head = self::head(200, '', [
            'Content-Length' => '999',
            'transfer-encoding' => 'gzip',
            'CONNECTION' => 'upgrade',
            'Keep-Alive' => 'timeout=5',
            'Content-Type' => 'text/plain',
        ], '1.1', false, 12);

        self::assertSame(['12'], self::values($head, 'Content-Length'));
        self::assertSame([], self::values($head, 'Transfer-Encoding'));
        self::assertSame(['close'], self::values($head, 'Connection'));
        self::assertSame([], self::values($head, 'Keep-Alive'));
        self::assertSame(['text/plain'], self::values($head, 'Content-Type'));

        $chunked = self::head(200, '', ['Content-Length' => '999', 'Transfer-Encoding' => ['gzip', 'chunked']], '1.1', true, null);
        self::assertSame([], self::values($chunked, 'Content-Length'));
        self::assertSame(['chunked'], self::values($chunked, 'Transfer-Encoding'));
        self::assertSame([], self::values($chunked, 'Connection'));
    }

    public function testConnectionCloseOfTheApplicationClosesTheConnection(): void
    {
        $serializer = new ResponseSerializer();
        foreach ([['Connection' => 'close'], ['connection' => ['keep-alive', 'Close']], ['CONNECTION' => 'foo, close']] as $headers) {
            $closing = false;
            $head = $serializer->head(200, '', $headers, '1.1', true, 0, $closing);
            self::assertTrue($closing, \json_encode($headers, \JSON_THROW_ON_ERROR));
            self::assertSame(['close'], self::values($head, 'Connection'));
        }
        foreach ([['Connection' => 'keep-alive'], ['Connection' => 'closed'], ['X-Connection' => 'close']] as $headers) {
            $closing = false;
            $head = $serializer->head(200, '', $headers, '1.1', true, 0, $closing);
            self::assertFalse($closing, \json_encode($headers, \JSON_THROW_ON_ERROR));
            self::assertSame([], self::values($head, 'Connection'));
        }
    }

    // ---------------------------------------------------------------------------------------
    // Fields
    // ---------------------------------------------------------------------------------------

    public function testFieldsAreWrittenInOrderAndListsGiveOneLineEach(): void
    {
        $head = self::head(201, '', [
            'Content-Type' => 'application/json',
            'Set-Cookie' => ['a=1; Path=/', 'b=2; HttpOnly', 'c=3, d=4'],
            'X-Empty-List' => [],
            'X-Empty' => '',
            'Location' => '/items/1',
        ], '1.1', true, 2);

        [$statusLine, $fields] = self::lines($head);
        self::assertSame('HTTP/1.1 201 Created', $statusLine);
        // RFC 9110 §5.3: Set-Cookie cannot be combined into one line.
        self::assertSame([
            ['Content-Type', 'application/json'],
            ['Set-Cookie', 'a=1; Path=/'],
            ['Set-Cookie', 'b=2; HttpOnly'],
            ['Set-Cookie', 'c=3, d=4'],
            ['X-Empty', ''],
            ['Location', '/items/1'],
        ], \array_values(\array_filter($fields, static fn (array $f): bool => !\in_array($f[0], ['Date', 'Content-Length'], true))));
        self::assertSame(['2'], self::values($head, 'Content-Length'));
    }

    /** @return array<string, array{array<string, string|list<string>>, string}> */
    public static function injections(): array
    {
        // RFC 9110 §5.5, RFC 9112 §5: CR and LF would end the field (response splitting), NUL is
        // never valid; names are tokens, so no colon or whitespace either.
        return [
            'CRLF in a value' => [['X-A' => "a\r\nSet-Cookie: evil=1"], ''],
            'LF in a value' => [['X-A' => "a\nb"], ''],
            'CR in a value' => [['X-A' => "a\rb"], ''],
            'NUL in a value' => [['X-A' => "a\0b"], ''],
            'CRLF in a list value' => [['Set-Cookie' => ['a=1', "b=2\r\n\r\n<html>"]], ''],
            'CRLF in a name' => [["X-A\r\nSet-Cookie" => 'evil=1'], ''],
            'LF in a name' => [["X-A\nB" => 'v'], ''],
            'CR in a name' => [["X-A\rB" => 'v'], ''],
            'NUL in a name' => [["X-A\0" => 'v'], ''],
            'colon in a name' => [['X-A: b' => 'v'], ''],
            'space in a name' => [['X A' => 'v'], ''],
            'tab in a name' => [["X\tA" => 'v'], ''],
            'empty name' => [['' => 'v'], ''],
            'CRLF in the reason' => [[], "OK\r\nSet-Cookie: evil=1"],
            'LF in the reason' => [[], "OK\nX"],
            'CR in the reason' => [[], "OK\rX"],
            'CRLF in a dropped framing field' => [['Content-Length' => '5', "X\r\n" => 'v'], ''],
            'CR at the end of a value' => [['X-A' => "ab\r"], ''],
            'LF at the start of a value' => [['X-A' => "\nab"], ''],
            'CR in a value followed by a value ending in LF' => [['X-A' => "a\r", 'X-B' => "\nb"], ''],
        ];
    }

    /**
     * RFC 9110 §5.5 (field-value: VCHAR, SP, HTAB, obs-text) and RFC 9112 §4 (reason-phrase: the
     * same): every other control character, in every place an application can put one.
     *
     * @return array<string, array{array<string, string|list<string>>, string}>
     */
    public static function controlCharacters(): array
    {
        $cases = [];
        foreach ([...\range(0, 8), ...\range(10, 31), 127] as $byte) {
            $c = \chr($byte);
            $hex = \sprintf('0x%02x', $byte);
            $cases[$hex . ' inside a value'] = [['X-A' => 'a' . $c . 'b'], ''];
            $cases[$hex . ' ending a value'] = [['X-A' => 'ab' . $c], ''];
            $cases[$hex . ' in the second value of a list'] = [['Set-Cookie' => ['a=1', 'b=' . $c]], ''];
            $cases[$hex . ' in a value after a good field'] = [['Content-Type' => 'text/plain', 'X-A' => $c], ''];
            $cases[$hex . ' in a Date value'] = [['Date' => 'Mon' . $c], ''];
            $cases[$hex . ' in a name'] = [['X-' . $c . 'A' => 'v'], ''];
            $cases[$hex . ' in the reason'] = [[], 'O' . $c . 'K'];
            $cases[$hex . ' ending the reason'] = [[], 'OK' . $c];
        }

        return $cases;
    }

    /**
     * @dataProvider controlCharacters
     *
     * @param array<string, string|list<string>> $headers
     */
    public function testControlCharactersAreRefused(array $headers, string $reason): void
    {
        $serializer = new ResponseSerializer();
        try {
            $serializer->head(200, $reason, $headers, '1.1', true, 0);
            self::fail('accepted');
        } catch (\UnexpectedValueException $e) {
            self::assertStringNotContainsString("\r", $e->getMessage());
        }
        // The serializer is not left in a state that lets the next response through unchecked,
        // nor one that refuses a good response.
        self::assertStringContainsString("X-Ok: fine\r\n", $serializer->head(200, '', ['X-Ok' => 'fine'], '1.1', true, 0));
        $this->expectException(\UnexpectedValueException::class);
        $serializer->head(200, $reason, $headers, '1.1', true, 0);
    }

    public function testTabAndObsTextAreKeptInValuesAndTheReason(): void
    {
        $head = self::head(200, "Fine\tand d\xc3\xa9j\xc3\xa0 vu", ['X-A' => "a\tb", 'Content-Disposition' => "attachment; filename=\"r\xc3\xa9sum\xc3\xa9.pdf\""]);
        self::assertStringStartsWith("HTTP/1.1 200 Fine\tand d\xc3\xa9j\xc3\xa0 vu\r\n", $head);
        self::assertSame(["a\tb"], self::values($head, 'X-A'));
        self::assertSame(["attachment; filename=\"r\xc3\xa9sum\xc3\xa9.pdf\""], self::values($head, 'Content-Disposition'));
    }

    /**
     * @dataProvider injections
     *
     * @param array<string, string|list<string>> $headers
     */
    public function testHeaderInjectionThrows(array $headers, string $reason): void
    {
        $this->expectException(\UnexpectedValueException::class);
        self::head(200, $reason, $headers);
    }

    public function testChunksOfABody(): void
    {
        $serializer = new ResponseSerializer();
        self::assertSame("5\r\nhello\r\n", $serializer->chunk('hello'));
        self::assertSame("1a\r\n" . \str_repeat('x', 26) . "\r\n", $serializer->chunk(\str_repeat('x', 26)));
        self::assertSame("0\r\n\r\n", $serializer->lastChunk());
    }

    public function testOneSerializerFollowsTheHeadersOfEachResponse(): void
    {
        $serializer = new ResponseSerializer();
        $headers = ['Content-Type' => 'text/plain', 'X-Tag' => ['a', 'b']];
        $first = $serializer->head(200, '', $headers, '1.1', true, 2);
        self::assertSame($first, $serializer->head(200, '', $headers, '1.1', true, 2));
        self::assertStringContainsString("X-Tag: a\r\nX-Tag: b\r\n", $first);

        $other = $serializer->head(200, '', ['Content-Type' => 'text/html'] + $headers, '1.1', true, 2);
        self::assertStringContainsString("Content-Type: text/html\r\n", $other);
        self::assertStringNotContainsString('text/plain', $other);

        $closing = false;
        $serializer->head(200, '', ['Connection' => 'close'], '1.1', true, 0, $closing);
        self::assertTrue($closing);
        $closing = false;
        $again = $serializer->head(200, '', ['Connection' => 'close'], '1.1', true, 0, $closing);
        self::assertTrue($closing, 'a repeated "Connection: close" closes the connection again');
        self::assertStringContainsString("Connection: close\r\n", $again);

        $this->expectException(\UnexpectedValueException::class);
        $serializer->head(200, '', ['Content-Type' => "text/plain\r\nSet-Cookie: x=1"], '1.1', true, 2);
    }

    public function testAValueThatIsAnObjectIsTurnedIntoAStringForEachResponse(): void
    {
        $value = new class () implements \Stringable {
            public int $calls = 0;

            public function __toString(): string
            {
                return 'v' . ++$this->calls;
            }
        };
        $serializer = new ResponseSerializer();
        $headers = ['X-Version' => [$value]];

        self::assertStringContainsString("X-Version: v1\r\n", $serializer->head(200, '', $headers, '1.1', true, 0));
        self::assertStringContainsString("X-Version: v2\r\n", $serializer->head(200, '', $headers, '1.1', true, 0));
    }
}
