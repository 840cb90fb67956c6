<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Http\Parser;

use PHPUnit\Framework\TestCase;
use Spindle\Http\HttpException;
use Spindle\Http\HttpLimits;
use Spindle\Http\Parser\RequestParser;

/**
 * RequestParser against RFC 9112 (HTTP/1.1 message syntax) and RFC 9110 (semantics).
 *
 * Every input is fed three ways: whole, byte by byte, and cut at 30 random points (mt_srand with
 * a fixed seed, named in failure messages); all three must give the same events or the same error.
 */
final class RequestParserTest extends TestCase
{
    private const SEED = 9112;
    private const RANDOM_CUTS = 30;

    /** Statuses the parser may answer with. */
    private const STATUSES = [400, 413, 414, 417, 431, 501, 505];

    // ---------------------------------------------------------------------------------------
    // Feeding helpers
    // ---------------------------------------------------------------------------------------

    /** @return list<string> */
    private static function randomPieces(string $input, int $cuts, int $seed): array
    {
        $length = \strlen($input);
        if ($length < 2) {
            return [$input];
        }
        \mt_srand($seed);
        $points = [];
        for ($i = 0; $i < $cuts; ++$i) {
            $points[] = \mt_rand(1, $length - 1);
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

        return $pieces;
    }

    private static function excerpt(string $input): string
    {
        $json = (string) \json_encode(\strlen($input) > 300 ? \substr($input, 0, 150) . '…' . \substr($input, -150) : $input, \JSON_INVALID_UTF8_SUBSTITUTE | \JSON_UNESCAPED_SLASHES | \JSON_UNESCAPED_UNICODE);

        return $json;
    }

    /** @return array<string, list<string>> how the input is fed => the pieces */
    private static function feedings(string $input): array
    {
        return [
            'whole' => [$input],
            'byte by byte' => $input === '' ? [] : \str_split($input),
            \sprintf('%d random split points, mt_srand seed %d', self::RANDOM_CUTS, self::SEED) => self::randomPieces($input, self::RANDOM_CUTS, self::SEED),
        ];
    }

    /**
     * Feeds the pieces to a fresh parser.
     *
     * @param list<string> $pieces
     *
     * @return array{requests: list<array{head: array<string, mixed>, body: string, complete: bool}>, idle: bool, readingHead: bool, error: array{status: int, close: bool}|null}
     */
    private static function feed(array $pieces, ?HttpLimits $limits, string $label): array
    {
        $recorder = new EventRecorder();
        $parser = $recorder->parser($limits);
        $error = null;
        foreach ($pieces as $piece) {
            try {
                $parser->push($piece);
            } catch (HttpException $e) {
                $error = ['status' => $e->status, 'close' => $e->closeConnection];
                // A failed parser stays failed (RFC 9112 §9.3: the connection cannot be reused).
                try {
                    $parser->push("GET / HTTP/1.1\r\nHost: a\r\n\r\n");
                    self::fail($label . ': push after a failure did not throw');
                } catch (HttpException $again) {
                    self::assertSame($e, $again, $label . ': a failed parser throws its failure again');
                }
                self::assertFalse($parser->isIdle(), $label . ': a failed parser is not idle');
                self::assertFalse($parser->isReadingHead(), $label . ': a failed parser is not reading a head');
                break;
            }
        }
        self::assertSame([], $recorder->violations, $label . ': callback order');

        return ['requests' => $recorder->requests(), 'idle' => $parser->isIdle(), 'readingHead' => $parser->isReadingHead(), 'error' => $error];
    }

    /**
     * Feeds the input whole, byte by byte and at random split points; all must agree.
     *
     * @return array{requests: list<array{head: array<string, mixed>, body: string, complete: bool}>, idle: bool, readingHead: bool, error: array{status: int, close: bool}|null}
     */
    private static function outcome(string $input, ?HttpLimits $limits = null): array
    {
        $first = null;
        foreach (self::feedings($input) as $label => $pieces) {
            $result = self::feed($pieces, $limits, $label);
            if ($first === null) {
                $first = $result;
            } else {
                self::assertSame($first, $result, \sprintf('fed %s, compared with fed whole; input (%d bytes) %s', $label, \strlen($input), self::excerpt($input)));
            }
        }
        \assert($first !== null);

        return $first;
    }

    /**
     * Parses a valid input (whole, byte by byte, random splits) and returns its requests.
     *
     * @return list<array{head: array<string, mixed>, body: string, complete: bool}>
     */
    private static function parse(string $input, ?HttpLimits $limits = null): array
    {
        $result = self::outcome($input, $limits);
        self::assertNull($result['error'], 'unexpected HttpException ' . \json_encode($result['error']));

        return $result['requests'];
    }

    /** Asserts the input is rejected with the status however it is fed. */
    private static function assertRejected(int $status, string $input, ?HttpLimits $limits = null): void
    {
        $result = self::outcome($input, $limits);
        self::assertNotNull($result['error'], \sprintf('expected %d, but the input was accepted: %s', $status, self::excerpt($input)));
        self::assertSame($status, $result['error']['status']);
        if ($status !== 417) {
            // Framing can no longer be trusted: the connection has to go.
            self::assertTrue($result['error']['close'], 'closeConnection');
        }
    }

    /** Pushes the pieces into a fresh parser and returns the exception the last one raises. */
    private static function pushUntilFailure(HttpLimits $limits, string ...$pieces): HttpException
    {
        $parser = (new EventRecorder())->parser($limits);
        $last = \array_pop($pieces);
        \assert($last !== null);
        foreach ($pieces as $piece) {
            $parser->push($piece);
        }
        try {
            $parser->push($last);
        } catch (HttpException $e) {
            return $e;
        }
        self::fail('the last piece was accepted');
    }

    private static function smallLimits(): HttpLimits
    {
        return new HttpLimits(maxRequestLine: 64, maxHeaderSize: 256, maxHeaderCount: 4, maxBodySize: 32);
    }

    // ---------------------------------------------------------------------------------------
    // Request line and header section
    // ---------------------------------------------------------------------------------------

    public function testGetWithHeaders(): void
    {
        $requests = self::parse(
            "GET /search/items?q=spindle&page=2 HTTP/1.1\r\n"
            . "Host: example.com\r\n"
            . "Accept: text/html\r\n"
            . "X-Multi: one\r\n"
            . "x-multi:   two  \r\n"
            . "X-MULTI:\tthree\t\r\n"
            . "X-Empty:\r\n"
            . "X-Inner:  a  b \t\r\n"
            . "User-Agent: test/1.0 (x; y)\r\n"
            . "\r\n",
        );

        self::assertCount(1, $requests);
        self::assertTrue($requests[0]['complete']);
        self::assertSame('', $requests[0]['body']);
        self::assertSame([
            'method' => 'GET',
            'target' => '/search/items?q=spindle&page=2',
            'path' => '/search/items',
            'query' => 'q=spindle&page=2',
            'protocolVersion' => '1.1',
            // Names are case-insensitive (RFC 9110 §5.1), repeated lines combine in order (§5.3),
            // OWS around the value is not part of it (RFC 9112 §5.1).
            'headers' => [
                'host' => ['example.com'],
                'accept' => ['text/html'],
                'x-multi' => ['one', 'two', 'three'],
                'x-empty' => [''],
                'x-inner' => ['a  b'],
                'user-agent' => ['test/1.0 (x; y)'],
            ],
            'keepAlive' => true,
            'expectsContinue' => false,
            'contentLength' => 0,
            'chunked' => false,
        ], $requests[0]['head']);
    }

    public function testTabsAndObsTextInAFieldValueAreKept(): void
    {
        // RFC 9110 §5.5: field-vchar = VCHAR / obs-text, with SP and HTAB inside a value.
        $requests = self::parse("GET / HTTP/1.1\r\nHost: a\r\nX-A: one\ttwo\r\nX-B: caf\xc3\xa9 \xff\r\n\r\n");
        self::assertSame(["one\ttwo"], $requests[0]['head']['headers']['x-a']);
        self::assertSame(["caf\xc3\xa9 \xff"], $requests[0]['head']['headers']['x-b']);
    }

    public function testRequestWithoutHeaderFieldsInHttp10(): void
    {
        // RFC 9112 §3.2: Host is required in HTTP/1.1 only.
        $requests = self::parse("GET / HTTP/1.0\r\n\r\n");
        self::assertCount(1, $requests);
        self::assertSame('1.0', $requests[0]['head']['protocolVersion']);
        self::assertSame([], $requests[0]['head']['headers']);
        self::assertSame('/', $requests[0]['head']['path']);
        self::assertTrue($requests[0]['complete']);
    }

    /** @return array<string, array{string, list<string>, bool}> */
    public static function connectionCases(): array
    {
        // RFC 9112 §9.3: HTTP/1.1 persists unless "close"; HTTP/1.0 only with "keep-alive";
        // "close" wins over anything else.
        return [
            '1.0 default' => ['1.0', [], false],
            '1.0 keep-alive' => ['1.0', ['keep-alive'], true],
            '1.0 Keep-Alive' => ['1.0', ['Keep-Alive'], true],
            '1.0 among other options' => ['1.0', ['foo, keep-alive'], true],
            '1.0 close' => ['1.0', ['close'], false],
            '1.0 close, keep-alive' => ['1.0', ['close, keep-alive'], false],
            '1.0 keep-alive, close' => ['1.0', ['keep-alive, close'], false],
            '1.0 close then keep-alive lines' => ['1.0', ['close', 'keep-alive'], false],
            '1.1 default' => ['1.1', [], true],
            '1.1 keep-alive' => ['1.1', ['keep-alive'], true],
            '1.1 other option' => ['1.1', ['upgrade'], true],
            '1.1 closed is not close' => ['1.1', ['closed'], true],
            '1.1 close' => ['1.1', ['close'], false],
            '1.1 CLOSE' => ['1.1', ['CLOSE'], false],
            '1.1 foo, close' => ['1.1', ['foo, close'], false],
            '1.1 foo ,close ' => ['1.1', ['foo ,close '], false],
            '1.1 close in a second line' => ['1.1', ['upgrade', 'close'], false],
        ];
    }

    /**
     * @dataProvider connectionCases
     *
     * @param list<string> $connection
     */
    public function testKeepAlive(string $version, array $connection, bool $keepAlive): void
    {
        $head = 'GET / HTTP/' . $version . "\r\nHost: a\r\n";
        foreach ($connection as $value) {
            $head .= 'Connection: ' . $value . "\r\n";
        }
        $requests = self::parse($head . "\r\n");
        self::assertSame($keepAlive, $requests[0]['head']['keepAlive']);
    }

    public function testPipelinedRequestsComeOutInOrder(): void
    {
        $input = "GET /one HTTP/1.1\r\nHost: a\r\n\r\n"
            . "POST /two HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello"
            . "POST /three HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nwiki\r\n5\r\npedia\r\n0\r\n\r\n"
            . "GET /four?x=1 HTTP/1.0\r\n\r\n"
            . "DELETE /five HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n"
            . "PUT /six HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nConnection: close\r\n\r\nend";
        $result = self::outcome($input);
        self::assertNull($result['error']);
        self::assertTrue($result['idle']);

        $summary = \array_map(static fn (array $r): array => [$r['head']['method'], $r['head']['path'], $r['body'], $r['complete']], $result['requests']);
        self::assertSame([
            ['GET', '/one', '', true],
            ['POST', '/two', 'hello', true],
            ['POST', '/three', 'wikipedia', true],
            ['GET', '/four', '', true],
            ['DELETE', '/five', '', true],
            ['PUT', '/six', 'end', true],
        ], $summary);
        self::assertSame(5, $result['requests'][1]['head']['contentLength']);
        self::assertNull($result['requests'][2]['head']['contentLength']);
        self::assertTrue($result['requests'][2]['head']['chunked']);
        self::assertFalse($result['requests'][5]['head']['keepAlive']);
    }

    // ---------------------------------------------------------------------------------------
    // Bodies
    // ---------------------------------------------------------------------------------------

    public function testContentLengthBody(): void
    {
        // RFC 9112 §6.2: exactly Content-Length octets; what follows is the next request, even when
        // the body looks like a request itself.
        $body = "GET /not-a-request HTTP/1.1\r\nHost: x\r\n\r\n\0\xff";
        $requests = self::parse(
            "POST /submit HTTP/1.1\r\nHost: a\r\nContent-Length: " . \strlen($body) . "\r\n\r\n" . $body
            . "GET /next HTTP/1.1\r\nHost: a\r\n\r\n",
        );
        self::assertCount(2, $requests);
        self::assertSame($body, $requests[0]['body']);
        self::assertSame(\strlen($body), $requests[0]['head']['contentLength']);
        self::assertFalse($requests[0]['head']['chunked']);
        self::assertSame('/next', $requests[1]['head']['path']);
    }

    public function testIdenticalDuplicateContentLengthsAreAccepted(): void
    {
        // RFC 9112 §6.3 (5): a list of identical values may be accepted as that value.
        foreach (["Content-Length: 5, 5\r\n", "Content-Length: 5\r\nContent-Length: 5\r\n", "Content-Length: 005\r\n"] as $field) {
            $requests = self::parse("POST / HTTP/1.1\r\nHost: a\r\n" . $field . "\r\nhello");
            self::assertSame(5, $requests[0]['head']['contentLength'], $field);
            self::assertSame('hello', $requests[0]['body'], $field);
        }
    }

    public function testChunkedBody(): void
    {
        // RFC 9112 §7.1: hex sizes in any case and with leading zeros, extensions ignored (§7.1.1),
        // trailer fields read and discarded (§7.1.2); the coding name is case-insensitive.
        $a = \str_repeat('a', 26);
        $b = "0123456789";
        $c = \str_repeat("\r\n", 7) . '!';
        $input = "POST /upload HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: Chunked\r\n\r\n"
            . "1A;name=value;quoted=\"a;b\"\r\n" . $a . "\r\n"
            . "0000a\r\n" . $b . "\r\n"
            . "00f ; ext\r\n" . $c . "\r\n"
            . "0;last=yes\r\nX-Checksum: abc\r\nX-Other: def\r\n\r\n"
            . "GET /after HTTP/1.1\r\nHost: a\r\n\r\n";
        $result = self::outcome($input);
        self::assertNull($result['error']);
        self::assertTrue($result['idle']);
        $requests = $result['requests'];
        self::assertCount(2, $requests);
        self::assertSame($a . $b . $c, $requests[0]['body']);
        self::assertTrue($requests[0]['head']['chunked']);
        self::assertNull($requests[0]['head']['contentLength']);
        self::assertArrayNotHasKey('x-checksum', $requests[0]['head']['headers']);
        self::assertSame('/after', $requests[1]['head']['path']);
        self::assertSame(['host' => ['a']], $requests[1]['head']['headers']);
    }

    public function testZeroLengthBodies(): void
    {
        $requests = self::parse(
            "POST /cl HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n"
            . "POST /chunked HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
            . "GET /last HTTP/1.1\r\nHost: a\r\n\r\n",
        );
        self::assertCount(3, $requests);
        foreach ($requests as $request) {
            self::assertTrue($request['complete']);
            self::assertSame('', $request['body']);
        }
        self::assertSame(0, $requests[0]['head']['contentLength']);
        self::assertTrue($requests[1]['head']['chunked']);
    }

    public function testEmptyLinesBeforeARequestLineAreIgnored(): void
    {
        // RFC 9112 §2.2: a server SHOULD ignore at least one empty line before the request-line.
        $requests = self::parse(
            "\r\n\r\n\r\nGET /first HTTP/1.1\r\nHost: a\r\n\r\n"
            . "\r\nPOST /second HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\nok\r\n"
            . "GET /third HTTP/1.1\r\nHost: a\r\n\r\n\r\n\r\n",
        );
        self::assertSame(['/first', '/second', '/third'], \array_map(static fn (array $r): string => $r['head']['path'], $requests));
        self::assertSame('ok', $requests[1]['body']);

        $recorder = new EventRecorder();
        $parser = $recorder->parser();
        $parser->push("\r\n\r\n");
        self::assertTrue($parser->isIdle(), 'empty lines alone leave the parser idle');
        self::assertSame([], $recorder->heads);
    }

    // ---------------------------------------------------------------------------------------
    // Request targets
    // ---------------------------------------------------------------------------------------

    /** @return array<string, array{string, string, string, string}> */
    public static function targetCases(): array
    {
        // RFC 9112 §3.2: origin-form, absolute-form (§3.2.2) and asterisk-form for OPTIONS (§3.2.4).
        return [
            'origin' => ['GET', '/a/b?c=d&e', '/a/b', 'c=d&e'],
            'origin with empty query' => ['GET', '/a?', '/a', ''],
            'origin with two question marks' => ['GET', '/a?b?c', '/a', 'b?c'],
            'absolute' => ['GET', 'http://example.com/a?b=1', '/a', 'b=1'],
            'absolute without path' => ['GET', 'http://example.com', '/', ''],
            'absolute without path, with query' => ['GET', 'http://example.com?x=1', '/', 'x=1'],
            'absolute with port, upper-case scheme' => ['GET', 'HTTP://Example.com:8080/x/y', '/x/y', ''],
            'absolute https' => ['POST', 'https://example.com/p/', '/p/', ''],
            'asterisk' => ['OPTIONS', '*', '*', ''],
            'OPTIONS with a path' => ['OPTIONS', '/x', '/x', ''],
        ];
    }

    /** @return array<string, array{string, string}> */
    public static function authorityCases(): array
    {
        // RFC 9112 §3.2.2: with an absolute-form target the server ignores Host and uses the
        // target's authority; with origin-form Host stays as it came.
        return [
            'absolute form' => ["GET http://example.com:81/abs?q=1 HTTP/1.1\r\nHost: other\r\n\r\n", 'example.com:81'],
            'absolute form without path' => ["GET https://[::1]:8443 HTTP/1.1\r\nHost: other\r\n\r\n", '[::1]:8443'],
            'origin form' => ["GET /abs HTTP/1.1\r\nHost: other:8080\r\n\r\n", 'other:8080'],
            'empty Host' => ["GET /abs HTTP/1.1\r\nHost:\r\n\r\n", ''],
        ];
    }

    /** @dataProvider authorityCases */
    public function testHostTheApplicationSees(string $input, string $host): void
    {
        $requests = self::parse($input);
        self::assertSame([$host], $requests[0]['head']['headers']['host']);
    }

    /** @dataProvider targetCases */
    public function testRequestTarget(string $method, string $target, string $path, string $query): void
    {
        $requests = self::parse($method . ' ' . $target . " HTTP/1.1\r\nHost: example.com\r\n\r\n");
        self::assertSame($method, $requests[0]['head']['method']);
        self::assertSame($target, $requests[0]['head']['target']);
        self::assertSame($path, $requests[0]['head']['path']);
        self::assertSame($query, $requests[0]['head']['query']);
    }

    // ---------------------------------------------------------------------------------------
    // Expect
    // ---------------------------------------------------------------------------------------

    /** @return array<string, array{string, bool}> */
    public static function expectCases(): array
    {
        // RFC 9110 §10.1.1: 100-continue is for HTTP/1.1 requests with content; an HTTP/1.0 client
        // does not understand 100 (Continue), and a request without content has nothing to wait for.
        return [
            '1.1 with Content-Length' => ["POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\nabc", true],
            '1.1 chunked' => ["POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n", true],
            '1.1, case-insensitive' => ["PUT / HTTP/1.1\r\nHost: a\r\nExpect: 100-Continue\r\nContent-Length: 3\r\n\r\nabc", true],
            '1.1 without Expect' => ["POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabc", false],
            '1.1 without content' => ["GET / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\n\r\n", false],
            '1.1 with Content-Length 0' => ["POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 0\r\n\r\n", false],
            '1.0 with Content-Length' => ["POST / HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\nabc", false],
        ];
    }

    /** @dataProvider expectCases */
    public function testExpectContinue(string $input, bool $expectsContinue): void
    {
        $requests = self::parse($input);
        self::assertSame($expectsContinue, $requests[0]['head']['expectsContinue']);
        self::assertTrue($requests[0]['complete']);
    }

    // ---------------------------------------------------------------------------------------
    // Errors
    // ---------------------------------------------------------------------------------------

    /** @return array<string, array{int, string}> */
    public static function rejectedCases(): array
    {
        $host = "Host: a\r\n";
        $post = "POST / HTTP/1.1\r\n" . $host;
        $chunkedPost = $post . "Transfer-Encoding: chunked\r\n\r\n";

        return [
            // RFC 9110 §7.2 / RFC 9112 §3.2: exactly one Host in HTTP/1.1.
            'HTTP/1.1 without Host' => [400, "GET / HTTP/1.1\r\nAccept: */*\r\n\r\n"],
            'two Host lines' => [400, "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"],
            'two identical Host lines' => [400, "GET / HTTP/1.1\r\nHost: a\r\nhost: a\r\n\r\n"],
            'two Host lines in HTTP/1.0' => [400, "GET / HTTP/1.0\r\nHost: a\r\nHost: b\r\n\r\n"],
            // RFC 9110 §7.2: Host = uri-host [ ":" port ]; anything else would change the URI the
            // application builds from it (RFC 9112 §3.2: 400 for an invalid Host field value).
            'Host with a slash' => [400, "GET /x HTTP/1.1\r\nHost: a/admin\r\n\r\n"],
            'Host with a question mark' => [400, "GET /x HTTP/1.1\r\nHost: a?debug=1\r\n\r\n"],
            'Host with a hash' => [400, "GET /x HTTP/1.1\r\nHost: a#x\r\n\r\n"],
            'Host with a space' => [400, "GET /x HTTP/1.1\r\nHost: a b\r\n\r\n"],
            'Host with user info' => [400, "GET /x HTTP/1.1\r\nHost: user@a\r\n\r\n"],
            'Host with a port that is not a number' => [400, "GET /x HTTP/1.1\r\nHost: a:8x\r\n\r\n"],
            'Host with an unclosed IP literal' => [400, "GET /x HTTP/1.1\r\nHost: [::1\r\n\r\n"],
            'absolute form with user info' => [400, "GET http://user@a/x HTTP/1.1\r\nHost: a\r\n\r\n"],

            // RFC 9112 §3: request-line = method SP request-target SP HTTP-version.
            'request line with two parts' => [400, "GET /\r\n" . $host . "\r\n"],
            'request line with four parts' => [400, "GET / HTTP/1.1 extra\r\n" . $host . "\r\n"],
            'space inside the target' => [400, "GET /a b HTTP/1.1\r\n" . $host . "\r\n"],
            'two spaces after the method' => [400, "GET  / HTTP/1.1\r\n" . $host . "\r\n"],
            'leading space' => [400, " GET / HTTP/1.1\r\n" . $host . "\r\n"],
            'tab as separator' => [400, "GET\t/ HTTP/1.1\r\n" . $host . "\r\n"],
            'empty method' => [400, " / HTTP/1.1\r\n" . $host . "\r\n"],
            'method with (' => [400, "GE(T / HTTP/1.1\r\n" . $host . "\r\n"],
            'method with @' => [400, "G@T / HTTP/1.1\r\n" . $host . "\r\n"],
            'method with a control character' => [400, "G\x01T / HTTP/1.1\r\n" . $host . "\r\n"],
            'method with a non-ASCII byte' => [400, "G\xc3\xa9T / HTTP/1.1\r\n" . $host . "\r\n"],
            'target with a control character' => [400, "GET /a\x01b HTTP/1.1\r\n" . $host . "\r\n"],
            // RFC 9112 §3.2.1: origin-form = absolute-path [ "?" query ], no fragment.
            'target with a fragment' => [400, "GET /a#frag HTTP/1.1\r\n" . $host . "\r\n"],
            'absolute target with a fragment' => [400, "GET http://a/b#frag HTTP/1.1\r\n" . $host . "\r\n"],
            'target with DEL' => [400, "GET /a\x7fb HTTP/1.1\r\n" . $host . "\r\n"],
            'target with a bare CR' => [400, "GET /a\rb HTTP/1.1\r\n" . $host . "\r\n"],
            'asterisk for GET' => [400, "GET * HTTP/1.1\r\n" . $host . "\r\n"],
            'authority form for GET' => [400, "GET example.com:80 HTTP/1.1\r\n" . $host . "\r\n"],
            'absolute form without host' => [400, "GET http:///a HTTP/1.1\r\n" . $host . "\r\n"],
            'relative target' => [400, "GET a/b HTTP/1.1\r\n" . $host . "\r\n"],

            // RFC 9112 §2.3: HTTP-version is case-sensitive "HTTP/" DIGIT "." DIGIT.
            'lower-case http/1.1' => [400, "GET / http/1.1\r\n" . $host . "\r\n"],
            'HTTP/1' => [400, "GET / HTTP/1\r\n" . $host . "\r\n"],
            'HTTP/1.10' => [400, "GET / HTTP/1.10\r\n" . $host . "\r\n"],
            'HTTPS/1.1' => [400, "GET / HTTPS/1.1\r\n" . $host . "\r\n"],
            // RFC 9110 §15.6.6: a major version we do not speak.
            'HTTP/2.0' => [505, "GET / HTTP/2.0\r\n" . $host . "\r\n"],
            'HTTP/1.2' => [505, "GET / HTTP/1.2\r\n" . $host . "\r\n"],
            'HTTP/0.9' => [505, "GET / HTTP/0.9\r\n" . $host . "\r\n"],

            // RFC 9112 §5: field-line = field-name ":" OWS field-value OWS.
            'header without colon' => [400, "GET / HTTP/1.1\r\n" . $host . "X-Foo bar\r\n\r\n"],
            'header with empty name' => [400, "GET / HTTP/1.1\r\n" . $host . ": bar\r\n\r\n"],
            // RFC 9112 §5.1: whitespace between name and colon MUST be rejected with 400.
            'space before colon' => [400, "GET / HTTP/1.1\r\nHost : a\r\n\r\n"],
            'tab before colon' => [400, "GET / HTTP/1.1\r\n" . $host . "X-Foo\t: bar\r\n\r\n"],
            'name with (' => [400, "GET / HTTP/1.1\r\n" . $host . "X(Foo): bar\r\n\r\n"],
            'name with a non-ASCII byte' => [400, "GET / HTTP/1.1\r\n" . $host . "X-F\xc3\xb6o: bar\r\n\r\n"],
            // RFC 9112 §5.2: obs-fold outside message/http is rejected (or replaced); §2.2:
            // whitespace before the first field line as well.
            'obs-fold with space' => [400, "GET / HTTP/1.1\r\n" . $host . "X-Foo: one\r\n two\r\n\r\n"],
            'obs-fold with tab' => [400, "GET / HTTP/1.1\r\n" . $host . "X-Foo: one\r\n\ttwo\r\n\r\n"],
            'obs-fold containing a colon' => [400, "GET / HTTP/1.1\r\n" . $host . "X-Foo: one\r\n two: three\r\n\r\n"],
            'whitespace before the first field' => [400, "GET / HTTP/1.1\r\n Host: a\r\n\r\n"],
            // RFC 9110 §5.5: CR, LF and NUL in a field value are invalid and dangerous.
            'NUL in a value' => [400, "GET / HTTP/1.1\r\n" . $host . "X-Foo: a\0b\r\n\r\n"],
            'bare CR in a value' => [400, "GET / HTTP/1.1\r\n" . $host . "X-Foo: a\rb\r\n\r\n"],
            'SOH in a value' => [400, "GET / HTTP/1.1\r\n" . $host . "X-Foo: a\x01b\r\n\r\n"],
            'ESC in a value' => [400, "GET / HTTP/1.1\r\n" . $host . "X-Foo: a\x1bb\r\n\r\n"],
            'DEL in a value' => [400, "GET / HTTP/1.1\r\n" . $host . "X-Foo: a\x7fb\r\n\r\n"],
            'bare LF in a value' => [400, "GET / HTTP/1.1\r\n" . $host . "X-Foo: a\nb\r\n\r\n"],
            'bare LF line ending' => [400, "GET / HTTP/1.1\r\nHost: a\nX-Foo: b\r\n\r\n"],
            // RFC 9112 §2.2: a bare LF as line terminator may be refused; it must not leave the
            // request waiting for a CRLF CRLF that never comes.
            'bare LF line endings throughout' => [400, "GET / HTTP/1.1\nHost: a\n\n"],
            'bare LF after the request line' => [400, "GET / HTTP/1.1\nHost: a\r\n\r\n"],
            'bare LF ending the head' => [400, "GET / HTTP/1.1\r\nHost: a\r\n\n"],

            // RFC 9112 §6.1: Transfer-Encoding and Content-Length together is a smuggling attempt.
            'Content-Length and Transfer-Encoding' => [400, $post . "Content-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n"],
            'Transfer-Encoding and Content-Length' => [400, $post . "Transfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n"],
            // RFC 9112 §6.3 (5): differing Content-Length values are unrecoverable.
            'Content-Length list with different values' => [400, $post . "Content-Length: 5, 6\r\n\r\nhello!"],
            'two different Content-Length lines' => [400, $post . "Content-Length: 5\r\nContent-Length: 6\r\n\r\nhello!"],
            'Content-Length abc' => [400, $post . "Content-Length: abc\r\n\r\n"],
            'Content-Length 5a' => [400, $post . "Content-Length: 5a\r\n\r\n"],
            'Content-Length 0x5' => [400, $post . "Content-Length: 0x5\r\n\r\n"],
            'Content-Length +5' => [400, $post . "Content-Length: +5\r\n\r\n"],
            'Content-Length -1' => [400, $post . "Content-Length: -1\r\n\r\n"],
            'Content-Length 1.5' => [400, $post . "Content-Length: 1.5\r\n\r\n"],
            'Content-Length 1 000' => [400, $post . "Content-Length: 1 000\r\n\r\n"],
            'empty Content-Length' => [400, $post . "Content-Length:\r\n\r\n"],
            'Content-Length list with an empty member' => [400, $post . "Content-Length: 5,\r\n\r\nhello"],
            'Content-Length beyond 64 bits' => [400, $post . "Content-Length: 99999999999999999999999\r\n\r\n"],
            // RFC 9110 §15.5.14: larger than the server is willing to process.
            'Content-Length over maxBodySize' => [413, $post . 'Content-Length: ' . (16 * 1024 * 1024 + 1) . "\r\n\r\n"],
            'Content-Length of 18 digits' => [413, $post . "Content-Length: 999999999999999999\r\n\r\n"],

            // RFC 9112 §6.1: unknown codings → 501; chunked must be last and only once (§7).
            'Transfer-Encoding gzip' => [501, $post . "Transfer-Encoding: gzip\r\n\r\n"],
            'Transfer-Encoding gzip, chunked' => [501, $post . "Transfer-Encoding: gzip, chunked\r\n\r\n"],
            'Transfer-Encoding gzip and chunked lines' => [501, $post . "Transfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n"],
            'Transfer-Encoding identity' => [501, $post . "Transfer-Encoding: identity\r\n\r\n"],
            'Transfer-Encoding chunked, chunked' => [400, $post . "Transfer-Encoding: chunked, chunked\r\n\r\n"],
            'two Transfer-Encoding chunked lines' => [400, $post . "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n"],
            'empty Transfer-Encoding' => [400, $post . "Transfer-Encoding:\r\n\r\n"],
            // RFC 9112 §6.1: Transfer-Encoding in HTTP/1.0 means the framing is faulty.
            'Transfer-Encoding in HTTP/1.0' => [400, "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"],

            // RFC 9112 §7.1: chunk-size = 1*HEXDIG, followed by CRLF; chunk-data followed by CRLF.
            'chunk size zz' => [400, $chunkedPost . "zz\r\n"],
            'empty chunk size' => [400, $chunkedPost . "\r\n"],
            'chunk size with leading space' => [400, $chunkedPost . " 5\r\nhello\r\n0\r\n\r\n"],
            'negative chunk size' => [400, $chunkedPost . "-5\r\nhello\r\n0\r\n\r\n"],
            'chunk size 0x5' => [400, $chunkedPost . "0x5\r\nhello\r\n0\r\n\r\n"],
            'whitespace after the chunk size' => [400, $chunkedPost . "5 \r\nhello\r\n0\r\n\r\n"],
            'tab after the chunk size' => [400, $chunkedPost . "5\t\r\nhello\r\n0\r\n\r\n"],
            'chunk size 5 5' => [400, $chunkedPost . "5 5\r\nhello\r\n0\r\n\r\n"],
            'chunk size beyond 64 bits' => [400, $chunkedPost . "10000000000000000\r\n"],
            'chunk data followed by X' => [400, $chunkedPost . "5\r\nhelloX\r\n0\r\n\r\n"],
            'chunk data followed by a bare LF' => [400, $chunkedPost . "5\r\nhello\n0\r\n\r\n"],
            'chunk size lines ended by bare LFs' => [400, $chunkedPost . "5\nhello\n0\n\n"],
            'trailer line ended by a bare LF' => [400, $chunkedPost . "0\r\nX-Sum: 1\n\n"],
            'last line ended by a bare LF' => [400, $chunkedPost . "0\r\n\n"],
            'chunk data longer than its size' => [400, $chunkedPost . "5\r\nhello world\r\n0\r\n\r\n"],
            'overlong chunk-size line' => [400, $chunkedPost . '5;' . \str_repeat('x', 5000) . "\r\nhello\r\n0\r\n\r\n"],
            'huge chunk over maxBodySize' => [413, $chunkedPost . "FFFFFFFFFFFFFFF\r\n"],

            // RFC 9110 §10.1.1: an expectation the server cannot meet → 417.
            'unsupported Expect' => [417, $post . "Expect: 200-ok\r\nContent-Length: 0\r\n\r\n"],
            'Expect with an extra member' => [417, $post . "Expect: 100-continue, foo\r\nContent-Length: 0\r\n\r\n"],

            // RFC 9110 §9.3.6: CONNECT is for proxies; Spindle is not one.
            'CONNECT' => [501, "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n"],

            // The error is in the second of two pipelined requests.
            'second pipelined request malformed' => [400, "GET / HTTP/1.1\r\n" . $host . "\r\nGET / HTTP/1.1\r\nX-Foo bar\r\n\r\n"],
        ];
    }

    /** @dataProvider rejectedCases */
    public function testRejected(int $status, string $input): void
    {
        self::assertRejected($status, $input);
    }

    public function testNoHeadIsEmittedForARejectedRequest(): void
    {
        $result = self::outcome("GET /ok HTTP/1.1\r\nHost: a\r\n\r\nGET /bad HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n");
        self::assertSame(400, $result['error']['status'] ?? null);
        self::assertCount(1, $result['requests']);
        self::assertSame('/ok', $result['requests'][0]['head']['path']);
    }

    public function testErrorInsideAChunkedBodyAfterTheHead(): void
    {
        $result = self::outcome("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\nzz\r\n");
        self::assertSame(400, $result['error']['status'] ?? null);
        self::assertCount(1, $result['requests']);
        self::assertSame('hello', $result['requests'][0]['body']);
        self::assertFalse($result['requests'][0]['complete']);
    }

    public function testStatusAndCloseFlagOfTheException(): void
    {
        $e = self::pushUntilFailure(new HttpLimits(), "GET / HTTP/2.0\r\nHost: a\r\n\r\n");
        self::assertSame(505, $e->status);
        self::assertSame(505, $e->getCode());
        self::assertTrue($e->closeConnection);
        self::assertNotSame('', $e->getMessage());
    }

    // ---------------------------------------------------------------------------------------
    // Limits
    // ---------------------------------------------------------------------------------------

    public function testRequestLineLongerThanTheLimit(): void
    {
        $limits = self::smallLimits();
        $line = 'GET /' . \str_repeat('a', 64) . ' HTTP/1.1';

        // RFC 9112 §3: a request-line longer than the server accepts → 414 (RFC 9110 §15.5.15).
        self::assertRejected(414, $line . "\r\nHost: a\r\n\r\n", $limits);
        // The CRLF has arrived, the head is not complete yet.
        self::assertSame(414, self::pushUntilFailure($limits, $line . "\r\nHost: a\r\n")->status);
        // No CRLF yet: the line is already too long.
        self::assertSame(414, self::pushUntilFailure($limits, $line)->status);
        self::assertSame(414, self::pushUntilFailure($limits, 'GET /', \str_repeat('a', 70))->status);
        // The limit also holds when the whole header section is too large.
        self::assertRejected(414, $line . "\r\nHost: a\r\nX-Pad: " . \str_repeat('p', 300) . "\r\n\r\n", $limits);
    }

    public function testHeaderSectionLargerThanTheLimit(): void
    {
        $limits = self::smallLimits();
        $input = "GET / HTTP/1.1\r\nHost: a\r\nX-Pad: " . \str_repeat('p', 250) . "\r\n\r\n";
        // RFC 6585 §5: 431 Request Header Fields Too Large.
        self::assertRejected(431, $input, $limits);
        // The end of the section has not arrived yet.
        self::assertSame(431, self::pushUntilFailure($limits, \substr($input, 0, 260))->status);
    }

    public function testTooManyHeaderFields(): void
    {
        $limits = self::smallLimits();
        $fields = "Host: a\r\nA: 1\r\nB: 2\r\nC: 3\r\n";
        self::parse("GET / HTTP/1.1\r\n" . $fields . "\r\n", $limits);
        self::assertRejected(431, "GET / HTTP/1.1\r\n" . $fields . "D: 4\r\n\r\n", $limits);
    }

    public function testBodyLimit(): void
    {
        $limits = self::smallLimits();
        $post = "POST / HTTP/1.1\r\nHost: a\r\n";
        $max = \str_repeat('b', 32);

        self::assertSame($max, self::parse($post . "Content-Length: 32\r\n\r\n" . $max, $limits)[0]['body']);
        self::assertRejected(413, $post . "Content-Length: 33\r\n\r\n" . $max . 'b', $limits);

        $chunked = $post . "Transfer-Encoding: chunked\r\n\r\n";
        self::assertSame($max, self::parse($chunked . "10\r\n" . \substr($max, 0, 16) . "\r\n10\r\n" . \substr($max, 16) . "\r\n0\r\n\r\n", $limits)[0]['body']);
        // The total of the chunks counts, not the size of each one.
        self::assertRejected(413, $chunked . "10\r\n" . \substr($max, 0, 16) . "\r\n11\r\n" . \substr($max, 16) . "b\r\n0\r\n\r\n", $limits);
        // Each request has its own budget.
        $requests = self::parse(\str_repeat($chunked . "20\r\n" . $max . "\r\n0\r\n\r\n", 3), $limits);
        self::assertCount(3, $requests);
    }

    public function testOverlongChunkSizeLineBeforeItsCrlf(): void
    {
        $head = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n";
        self::assertSame(400, self::pushUntilFailure(new HttpLimits(), $head, '5;' . \str_repeat('x', 5000))->status);
    }

    public function testTrailerSectionLargerThanTheHeaderLimit(): void
    {
        $limits = self::smallLimits();
        $chunked = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\n";
        self::assertSame('x', self::parse($chunked . "X-T: " . \str_repeat('t', 100) . "\r\n\r\n", $limits)[0]['body']);
        self::assertRejected(431, $chunked . "X-T: " . \str_repeat('t', 300) . "\r\n\r\n", $limits);
    }

    // ---------------------------------------------------------------------------------------
    // Chunk extensions and trailer fields (RFC 9112 §7.1.1, §7.1.2)
    // ---------------------------------------------------------------------------------------

    /** @return array<string, array{string}> chunk-size lines (without CRLF) that follow the grammar */
    public static function validChunkLines(): array
    {
        return [
            'name only' => ['5;a'],
            'name and token value' => ['5;a=b'],
            'several extensions' => ['5;a;b=c;d="e"'],
            'BWS around ";" and "="' => ["5 ; a = b"],
            'tabs as BWS' => ["5\t;\ta\t=\tb"],
            'empty quoted string' => ['5;a=""'],
            'quoted string with separators' => ['5;a="x;y=z, (w)"'],
            'quoted-pair' => ['5;a="x\\"y\\\\z"'],
            'tab and space in a quoted string' => ["5;a=\"tab\there and there\""],
            'obs-text in a quoted string' => ["5;a=\"caf\xc3\xa9\""],
            'every tchar in a name' => ["5;!#$%&'*+-.^_`|~09azAZ=!#$%&'*+-.^_`|~09azAZ"],
            'size with leading zeros' => ['0005;x=1'],
        ];
    }

    /** @dataProvider validChunkLines */
    public function testChunkExtensionsThatFollowTheGrammarAreAcceptedAndIgnored(string $line): void
    {
        $requests = self::parse("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n" . $line . "\r\nhello\r\n0" . \substr($line, \strspn($line, '0123456789abcdefABCDEF')) . "\r\n\r\n");
        self::assertSame('hello', $requests[0]['body']);
        self::assertTrue($requests[0]['complete']);
    }

    /** @return array<string, array{string}> chunk-size lines (without CRLF) refused with 400 */
    public static function malformedChunkLines(): array
    {
        $cases = [
            'empty extension' => ['5;'],
            'extension without a name' => ['5;=b'],
            'empty value' => ['5;a='],
            'trailing ";"' => ['5;a=b;'],
            'space inside a name' => ['5;a b'],
            'space inside a token value' => ['5;a=b c'],
            'separator in a name' => ['5;a@b'],
            'separator in a token value' => ['5;a=b/c'],
            'comma instead of ";"' => ['5,a'],
            'quoted name' => ['5;"a"=b'],
            'unterminated quoted string' => ['5;a="b'],
            'backslash escaping the closing quote' => ['5;a="b\\"'],
            'text after a quoted string' => ['5;a="b"c'],
            'whitespace at the end' => ['5;a=b '],
            'whitespace after the size without extension' => ['5 '],
            'bare CR in a name' => ["5;a\rb"],
            'bare CR in a quoted string' => ["5;a=\"b\rc\""],
            'bare LF in a quoted string' => ["5;a=\"b\nc\""],
            'NUL in a quoted-pair' => ["5;a=\"\\\0\""],
            'DEL in a name' => ["5;a\x7f"],
            'obs-text in a token' => ["5;caf\xc3\xa9"],
        ];
        // Every control character but HTAB, in a name, a token value and a quoted string.
        foreach ([...\range(0, 8), ...\range(10, 31), 127] as $byte) {
            $c = \chr($byte);
            $cases[\sprintf('0x%02x in a name', $byte)] = ['5;a' . $c . 'b'];
            $cases[\sprintf('0x%02x in a token value', $byte)] = ['5;a=b' . $c];
            $cases[\sprintf('0x%02x in a quoted string', $byte)] = ['5;a="b' . $c . 'c"'];
            $cases[\sprintf('0x%02x as BWS', $byte)] = ['5' . $c . ';a'];
        }

        return $cases;
    }

    /** @dataProvider malformedChunkLines */
    public function testMalformedChunkExtensionsAreRefused(string $line): void
    {
        $chunkedPost = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n";
        self::assertRejected(400, $chunkedPost . $line . "\r\nhello\r\n0\r\n\r\n");
        // In the last chunk's line too.
        self::assertRejected(400, $chunkedPost . "5\r\nhello\r\n0" . \substr($line, 1) . "\r\n\r\n");
        // Nothing of a refused request's body after the bad line reaches the application.
        $result = self::outcome($chunkedPost . "5\r\nhello\r\n" . $line . "\r\nworld\r\n0\r\n\r\n");
        self::assertSame('hello', $result['requests'][0]['body']);
        self::assertFalse($result['requests'][0]['complete']);
    }

    public function testALongQuotedExtensionIsJudgedInOnePass(): void
    {
        $chunkedPost = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n";
        $value = \str_repeat('a\\"b ', 800);
        self::assertSame('x', self::parse($chunkedPost . '1;n="' . $value . "\"\r\nx\r\n0\r\n\r\n")[0]['body']);
        // The same line without its closing quote: refused (not a PCRE failure taken for a match).
        self::assertRejected(400, $chunkedPost . '1;n="' . $value . "\r\nx\r\n0\r\n\r\n");
        self::assertRejected(400, $chunkedPost . '1' . \str_repeat(';n', 2000) . "\x01\r\nx\r\n0\r\n\r\n");
    }

    public function testEveryControlCharacterButTabIsRefusedInAHeaderValue(): void
    {
        // RFC 9110 §5.5: field-value = *field-content, VCHAR, SP, HTAB and obs-text only.
        foreach ([...\range(0, 8), ...\range(10, 31), 127] as $byte) {
            foreach (['a' . \chr($byte) . 'b', \chr($byte) . 'b', 'a' . \chr($byte)] as $value) {
                self::assertRejected(400, "GET / HTTP/1.1\r\nHost: a\r\nX-Foo: " . $value . "\r\n\r\n");
            }
        }
        self::assertSame(["a\tb"], self::parse("GET / HTTP/1.1\r\nHost: a\r\nX-Foo: a\tb\r\n\r\n")[0]['head']['headers']['x-foo']);
    }

    /** @return array<string, array{string}> trailer sections (each line with its CRLF) that are accepted */
    public static function validTrailers(): array
    {
        return [
            'one field' => ["X-Sum: abc\r\n"],
            'several fields' => ["X-A: 1\r\nX-B: 2\r\nX-A: 3\r\n"],
            'empty value' => ["X-Empty:\r\n"],
            'whitespace around the value' => ["X-Ws: \t v \t\r\n"],
            'tab and obs-text in the value' => ["X-Text: a\tcaf\xc3\xa9\r\n"],
            'every tchar in a name' => ["!#$%&'*+-.^_`|~09azAZ: v\r\n"],
            'framing field names, read and discarded' => ["Content-Length: 5\r\nTransfer-Encoding: chunked\r\n"],
        ];
    }

    /** @dataProvider validTrailers */
    public function testTrailerFieldsThatFollowTheGrammarAreAcceptedAndDiscarded(string $trailers): void
    {
        $result = self::outcome("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n" . $trailers . "\r\nGET /next HTTP/1.1\r\nHost: a\r\n\r\n");
        self::assertNull($result['error']);
        self::assertCount(2, $result['requests']);
        self::assertSame('abc', $result['requests'][0]['body']);
        self::assertSame(['host' => ['a'], 'transfer-encoding' => ['chunked']], $result['requests'][0]['head']['headers']);
        self::assertSame('/next', $result['requests'][1]['head']['path']);
    }

    /** @return array<string, array{string}> trailer lines (without CRLF) refused with 400 */
    public static function malformedTrailerLines(): array
    {
        $cases = [
            'no colon' => ['X-Sum abc'],
            'empty name' => [': abc'],
            'space before the colon' => ['X-Sum : abc'],
            'separator in the name' => ['X[1]: abc'],
            'obs-fold' => [' folded'],
            'obs-fold with a tab' => ["\tfolded"],
            'bare CR in the value' => ["X-Sum: a\rb"],
            'bare CR at the end of the value' => ["X-Sum: ab\r"],
            'bare LF in the value' => ["X-Sum: a\nb"],
            'NUL in the name' => ["X\0: a"],
        ];
        foreach ([...\range(0, 8), ...\range(10, 31), 127] as $byte) {
            $cases[\sprintf('0x%02x in the value', $byte)] = ['X-Sum: a' . \chr($byte) . 'b'];
        }

        return $cases;
    }

    /** @dataProvider malformedTrailerLines */
    public function testMalformedTrailerFieldsAreRefused(string $line): void
    {
        $chunked = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n";
        self::assertRejected(400, $chunked . $line . "\r\n\r\nGET /next HTTP/1.1\r\nHost: a\r\n\r\n");
        self::assertRejected(400, $chunked . "X-Ok: 1\r\n" . $line . "\r\nX-Ok: 2\r\n\r\n");
        // The request is not completed: the application never sees it.
        $result = self::outcome($chunked . $line . "\r\n\r\n");
        self::assertFalse($result['requests'][0]['complete']);
    }

    public function testTrailerFieldsCountAgainstTheHeaderCountLimit(): void
    {
        $limits = self::smallLimits();
        $chunked = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\n";
        self::assertSame('x', self::parse($chunked . "A: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\n\r\n", $limits)[0]['body']);
        self::assertRejected(431, $chunked . "A: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\nE: 5\r\n\r\n", $limits);
    }

    /**
     * Inputs right at a limit must be judged the same whatever the split: a limit check on an
     * incomplete line must not count a CR whose LF is still to come.
     */
    public function testLimitBoundariesDoNotDependOnHowBytesArrive(): void
    {
        $limits = self::smallLimits();
        for ($extra = -3; $extra <= 3; ++$extra) {
            // Request line of 64 + $extra bytes.
            $line = 'GET /' . \str_repeat('a', 64 + $extra - 14) . ' HTTP/1.1';
            self::assertSame(64 + $extra, \strlen($line));
            $result = self::outcome($line . "\r\nHost: a\r\n\r\n", $limits);
            self::assertSame($extra <= 0 ? null : 414, $result['error']['status'] ?? null, 'request line of ' . \strlen($line) . ' bytes');

            // Header section of 256 + $extra bytes, CRLFCRLF included.
            $head = "GET / HTTP/1.1\r\nHost: a\r\nX-Pad: ";
            $head .= \str_repeat('p', 256 + $extra - \strlen($head) - 4) . "\r\n\r\n";
            self::assertSame(256 + $extra, \strlen($head));
            $result = self::outcome($head, $limits);
            self::assertSame($extra <= 0 ? null : 431, $result['error']['status'] ?? null, 'header section of ' . \strlen($head) . ' bytes');

            // Trailer section of 256 + $extra bytes, without the final empty line.
            $trailer = 'X-T: ' . \str_repeat('t', 256 + $extra - 7) . "\r\n";
            self::assertSame(256 + $extra, \strlen($trailer));
            $result = self::outcome("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n" . $trailer . "\r\n", $limits);
            self::assertSame($extra <= 0 ? null : 431, $result['error']['status'] ?? null, 'trailer section of ' . \strlen($trailer) . ' bytes');
        }

        // The chunk-size line limit is internal; whatever it is, the verdict must not depend on splits.
        $chunked = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n";
        $verdicts = [];
        foreach ([1000, 2040, 2048, 2050, 4090, 4094, 4095, 4096, 4097, 4098, 4100, 8191, 8192, 8193] as $length) {
            $line = '1;' . \str_repeat('e', $length - 2);
            $result = self::outcome($chunked . $line . "\r\nx\r\n0\r\n\r\n");
            $verdicts[$length] = $result['error']['status'] ?? null;
        }
        // Longer lines are never accepted when a shorter one is refused.
        $refused = false;
        foreach ($verdicts as $length => $verdict) {
            if ($refused) {
                self::assertSame(400, $verdict, 'chunk-size line of ' . $length . ' bytes');
            }
            $refused = $verdict !== null;
        }
        self::assertSame(null, $verdicts[1000]);
        self::assertSame(400, $verdicts[8193]);
    }

    // ---------------------------------------------------------------------------------------
    // State
    // ---------------------------------------------------------------------------------------

    public function testIdleAndReadingHeadTransitions(): void
    {
        $recorder = new EventRecorder();
        $parser = $recorder->parser();
        $state = static fn (): array => ['idle' => $parser->isIdle(), 'readingHead' => $parser->isReadingHead()];
        $idle = ['idle' => true, 'readingHead' => false];
        $head = ['idle' => false, 'readingHead' => true];
        $body = ['idle' => false, 'readingHead' => false];

        self::assertSame($idle, $state(), 'new parser');
        $parser->push('G');
        self::assertSame($head, $state(), 'first byte of a head');
        $parser->push("ET / HTTP/1.1\r\nHost: a\r\n\r");
        self::assertSame($head, $state(), 'head almost complete');
        $parser->push("\n");
        self::assertSame($idle, $state(), 'bodiless request complete');

        $parser->push("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\n\r\n");
        self::assertSame($body, $state(), 'waiting for a Content-Length body');
        $parser->push('ab');
        self::assertSame($body, $state(), 'part of the body');
        $parser->push('cd');
        self::assertSame($idle, $state(), 'body complete');

        $parser->push("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n");
        self::assertSame($body, $state(), 'waiting for the first chunk');
        $parser->push("2\r\nab\r\n0\r\n");
        self::assertSame($body, $state(), 'in the trailer section');
        $parser->push("\r\nGET");
        self::assertSame($head, $state(), 'next request started in the same push');
        $parser->push(" / HTTP/1.1\r\nHost: a\r\n\r\n\r\n");
        self::assertSame($idle, $state(), 'a trailing empty line does not start a request');
        self::assertSame(4, $recorder->completed);

        try {
            $parser->push("BAD\r\n\r\n");
            self::fail('malformed request line accepted');
        } catch (HttpException $e) {
            self::assertSame(400, $e->status);
        }
        self::assertSame(['idle' => false, 'readingHead' => false], $state(), 'failed');
    }

    // ---------------------------------------------------------------------------------------
    // Garbage
    // ---------------------------------------------------------------------------------------

    /** @return list<string> valid inputs that the garbage test mutates */
    private static function validCorpus(): array
    {
        return [
            "GET /search?q=1 HTTP/1.1\r\nHost: example.com\r\nAccept: */*\r\nConnection: keep-alive\r\n\r\n",
            "POST /form HTTP/1.1\r\nHost: a\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 11\r\n\r\na=1&b=2&c=3",
            "PUT /up HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nExpect: 100-continue\r\n\r\n5;x=y\r\nhello\r\nA\r\n0123456789\r\n0\r\nT: v\r\n\r\n",
            "GET http://example.com/a?b=1 HTTP/1.0\r\nConnection: keep-alive\r\n\r\nOPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: a\r\n\r\nPOST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabcDELETE /y HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nz\r\n0\r\n\r\n",
        ];
    }

    /** Random bytes from mt_rand, so that a failing case can be reproduced from the seed. */
    private static function randomBytes(int $length): string
    {
        $bytes = '';
        while (\strlen($bytes) < $length) {
            $bytes .= \pack('N', \mt_rand(0, 0xFFFFFFFF));
        }

        return \substr($bytes, 0, $length);
    }

    private static function garbage(int $i): string
    {
        $corpus = self::validCorpus();
        switch ($i % 4) {
            case 0:
                // Random bytes.
                return self::randomBytes(\mt_rand(1, 4096));
            case 1:
                // A plausible request line prefix, then random bytes.
                $prefixes = ['GET / HTTP/1.1', "GET / HTTP/1.1\r\n", "POST /x HTTP/1.1\r\nHost: a\r\n", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n", "PUT / HTTP/1.1\r\nHost: a\r\nContent-Length: 100\r\n\r\n", 'G', "\r\n"];
                $prefix = $prefixes[\mt_rand(0, \count($prefixes) - 1)];

                return $prefix . self::randomBytes(\mt_rand(0, 4096 - \strlen($prefix)));
            default:
                // Mutations of valid requests, possibly several in a row.
                $input = '';
                do {
                    $input .= $corpus[\mt_rand(0, \count($corpus) - 1)];
                } while (\mt_rand(0, 2) === 0 && \strlen($input) < 3000);
                $specials = ["\r", "\n", "\0", ' ', ':', "\t", "\r\n", ';', ',', '0', 'F', "\xff"];
                for ($m = \mt_rand(1, 6); $m > 0; --$m) {
                    $at = \mt_rand(0, \strlen($input) - 1);
                    switch (\mt_rand(0, 4)) {
                        case 0:
                            $input[$at] = \chr(\ord($input[$at]) ^ (1 << \mt_rand(0, 7)));
                            break;
                        case 1:
                        case 2:
                            $input = \substr($input, 0, $at) . $specials[\mt_rand(0, \count($specials) - 1)] . \substr($input, $at);
                            break;
                        case 3:
                            $input = \substr($input, 0, $at) . \substr($input, $at + 1);
                            break;
                        default:
                            $input = \substr($input, 0, $at) . \substr($input, $at, \mt_rand(1, 40)) . \substr($input, $at);
                    }
                }

                return \substr($input, 0, 4096);
        }
    }

    public function testGarbageOnlyEverRaisesHttpException(): void
    {
        \mt_srand(self::SEED);
        $cases = [];
        for ($i = 0; $i < 500; ++$i) {
            $cases[] = self::garbage($i);
        }

        $default = new HttpLimits();
        $small = new HttpLimits(maxRequestLine: 100, maxHeaderSize: 300, maxHeaderCount: 5, maxBodySize: 64);
        $started = \microtime(true);
        $guard = \function_exists('pcntl_alarm') && \function_exists('pcntl_async_signals');
        if ($guard) {
            $async = \pcntl_async_signals(true);
            \pcntl_signal(\SIGALRM, static function (): void {
                throw new \RuntimeException('the garbage test did not finish within 20 seconds (endless loop in push?)');
            });
            \pcntl_alarm(20);
        }
        \set_error_handler(static function (int $severity, string $message, string $file, int $line): bool {
            throw new \ErrorException($message, 0, $severity, $file, $line);
        });
        $rejected = 0;
        try {
            foreach ($cases as $i => $input) {
                // Each kind of garbage meets both the default and the small limits.
                $limits = \intdiv($i, 4) % 2 === 0 ? $default : $small;
                $pieces = self::randomPieces($input, \mt_rand(0, 40), self::SEED + $i);
                $context = \sprintf('garbage case %d (mt_srand seed %d, pieces from seed %d), input base64 %s', $i, self::SEED, self::SEED + $i, \base64_encode($input));
                $recorder = new EventRecorder();
                $parser = $recorder->parser($limits);
                try {
                    foreach ($pieces as $piece) {
                        $parser->push($piece);
                    }
                } catch (HttpException $e) {
                    ++$rejected;
                    self::assertContains($e->status, self::STATUSES, $context);
                    if ($e->status !== 417) {
                        self::assertTrue($e->closeConnection, $context);
                    }
                    try {
                        $parser->push("GET / HTTP/1.1\r\nHost: a\r\n\r\n");
                        self::fail('push after a failure did not throw; ' . $context);
                    } catch (HttpException $again) {
                        self::assertSame($e, $again, $context);
                    }
                } catch (\Throwable $e) {
                    self::fail(\sprintf('%s escaped: %s; %s', \get_class($e), $e->getMessage(), $context));
                }
                self::assertSame([], $recorder->violations, $context);
                foreach ($recorder->heads as $n => $head) {
                    if ($n >= $recorder->completed) {
                        break;
                    }
                    if ($head->chunked) {
                        self::assertLessThanOrEqual($limits->maxBodySize, \strlen($recorder->bodies[$n]), $context);
                    } else {
                        self::assertSame($head->contentLength, \strlen($recorder->bodies[$n]), $context);
                    }
                }
            }
        } finally {
            \restore_error_handler();
            if ($guard) {
                \pcntl_alarm(0);
                \pcntl_signal(\SIGALRM, \SIG_DFL);
                \pcntl_async_signals($async);
            }
        }
        self::assertGreaterThan(250, $rejected, 'most garbage is rejected');
        self::assertLessThan(15.0, \microtime(true) - $started, 'no input made the parser hang');
    }
}
