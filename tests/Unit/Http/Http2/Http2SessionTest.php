<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Http\Http2;

use PHPUnit\Framework\TestCase;
use Spindle\Http\Http2\ErrorCode;
use Spindle\Http\Http2\Event\ConnectionError;
use Spindle\Http\Http2\Event\DataReceived;
use Spindle\Http\Http2\Event\GoAwayReceived;
use Spindle\Http\Http2\Event\StreamOpened;
use Spindle\Http\Http2\Event\StreamReset;
use Spindle\Http\Http2\Event\TrailersReceived;
use Spindle\Http\Http2\Event\WindowOpened;
use Spindle\Http\Http2\FrameWriter;
use Spindle\Http\Http2\Http2Session;
use Spindle\Http\Http2\Http2Settings;

/** The server session, frame by frame: preface, streams, validation, flow control both ways, trailers, GOAWAY. */
final class Http2SessionTest extends TestCase
{
    private static function events(array $events, string $class): array
    {
        return array_values(array_filter($events, static fn (object $e): bool => $e instanceof $class));
    }

    public function testOurSettingsComeFirstAndTheClientsAreAcknowledged(): void
    {
        $session = new Http2Session(new Http2Settings(maxConcurrentStreams: 7));
        $peer = new Peer();
        $frames = $peer->read($session);
        self::assertSame(0x4, $frames[0]['type']);
        $settings = [];
        for ($o = 0; $o < \strlen($frames[0]['payload']); $o += 6) {
            $s = unpack('nid/Nvalue', $frames[0]['payload'], $o);
            $settings[$s['id']] = $s['value'];
        }
        self::assertSame([0x2 => 0, 0x3 => 7, 0x4 => 65535, 0x5 => 16384, 0x6 => 65536], $settings);
        self::assertSame([], $session->push(Peer::preface([0x4 => 1000]) . FrameWriter::ping('12345678', false)));
        $frames = $peer->read($session);
        self::assertSame([[0x4, 0x1], [0x6, 0x1]], array_map(static fn (array $f): array => [$f['type'], $f['flags']], $frames));
        self::assertSame('12345678', $frames[1]['payload']);
    }

    public function testThePrefaceIsToldFromHttp11(): void
    {
        self::assertNull(Http2Session::startsWithPreface(''));
        self::assertNull(Http2Session::startsWithPreface('PRI * HTTP/2'));
        self::assertTrue(Http2Session::startsWithPreface(Http2Session::PREFACE . "\0\0"));
        self::assertFalse(Http2Session::startsWithPreface('GET / HTTP/1.1'));
        self::assertFalse(Http2Session::startsWithPreface('POST /x HTTP/1.1'));
        self::assertFalse(Http2Session::startsWithPreface('PRI * HTTP/1.1'));
    }

    public function testABadPrefaceEndsTheConnection(): void
    {
        $session = new Http2Session();
        $events = $session->push("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
        self::assertInstanceOf(ConnectionError::class, $events[0]);
        self::assertSame(ErrorCode::ProtocolError, $events[0]->code);
        $peer = new Peer();
        $peer->read($session);
        self::assertSame(ErrorCode::ProtocolError->value, $peer->goAwayCode());
        self::assertTrue($session->isClosed());
        self::assertSame([], $session->push(Peer::preface()));
    }

    public function testThePrefaceMustBeFollowedBySettings(): void
    {
        $session = new Http2Session();
        $events = $session->push(Http2Session::PREFACE . FrameWriter::ping('12345678', false));
        self::assertInstanceOf(ConnectionError::class, $events[0]);
    }

    public function testAGetIsAnsweredWithHeadersAndData(): void
    {
        $session = new Http2Session();
        $peer = new Peer();
        $events = $session->push(Peer::preface() . $peer->get(1, '/hello', [['accept', '*/*']]));
        self::assertEquals([new StreamOpened(1, [[':method', 'GET'], [':scheme', 'https'], [':path', '/hello'], [':authority', 'example.com'], ['accept', '*/*']], true)], $events);
        $session->sendHeaders(1, 200, [['Content-Type', 'text/plain'], ['Connection', 'close']]);
        $session->sendData(1, 'Hello', true);
        $peer->read($session);
        self::assertSame([[':status', '200'], ['content-type', 'text/plain']], $peer->ofType(0x1, 1)[0]['headers']);
        self::assertSame('Hello', $peer->body(1));
        self::assertTrue($peer->ended(1));
        self::assertSame(0, $session->activeStreams());
    }

    public function testResponseFieldsThatCouldNotBeSentAreRefusedAsInHttp11(): void
    {
        $session = new Http2Session();
        $peer = new Peer();
        $session->push(Peer::preface() . $peer->get(1, '/', [], false));
        foreach ([[['x-a', "a\r\nx-b: b"]], [['x a', 'b']], [[':path', '/']], [['x-a', "\0"]]] as $headers) {
            try {
                $session->sendHeaders(1, 200, $headers);
                self::fail('sent ' . json_encode($headers));
            } catch (\UnexpectedValueException) {
            }
        }
        try {
            $session->sendHeaders(1, 200, []);
            $session->sendTrailers(1, [['x-t', "bad\n"]]);
            self::fail('trailers sent');
        } catch (\UnexpectedValueException) {
        }
        $peer->read($session);
        self::assertCount(1, $peer->ofType(0x1, 1), 'only the valid head went out');
    }

    public function testEventsAreTheSameWhateverTheSplitPoints(): void
    {
        $peer = new Peer();
        $bytes = Peer::preface() . $peer->get(1) . $peer->headers(3, [[':method', 'POST'], [':scheme', 'http'], [':path', '/p'], [':authority', 'a'], ['content-length', '11']], false)
            . FrameWriter::data(3, 'hello ', false) . FrameWriter::data(3, 'world', false, 10)
            . $peer->headers(3, [['x-checksum', 'abc']], true) . $peer->get(5, '/x', [['cookie', 'a=1'], ['cookie', 'b=2']]);
        $whole = (new Http2Session())->push($bytes);
        self::assertCount(6, $whole);
        self::assertEquals(new DataReceived(3, 'hello ', false), $whole[2]);
        self::assertEquals(new DataReceived(3, 'world', false), $whole[3], 'padding removed');
        self::assertEquals(new TrailersReceived(3, [['x-checksum', 'abc']]), $whole[4]);
        $session = new Http2Session();
        $events = [];
        foreach (str_split($bytes) as $byte) {
            array_push($events, ...$session->push($byte));
        }
        self::assertEquals($whole, $events);
        mt_srand(3);
        for ($round = 0; $round < 20; $round++) {
            $session = new Http2Session();
            $events = [];
            for ($o = 0; $o < \strlen($bytes); $o += $n) {
                $n = mt_rand(1, 40);
                array_push($events, ...$session->push(substr($bytes, $o, $n)));
            }
            self::assertEquals($whole, $events);
        }
    }

    public function testGarbageAfterThePrefaceOnlyEverEndsTheConnection(): void
    {
        mt_srand(5);
        for ($i = 0; $i < 300; $i++) {
            $session = new Http2Session();
            $garbage = '';
            for ($n = mt_rand(1, 200); $n > 0; $n--) {
                $garbage .= \chr(mt_rand(0, 255));
            }
            $peer = new Peer();
            $events = $session->push(Peer::preface() . ($i % 2 ? $peer->get(1, '/', [], false) : '') . $garbage);
            foreach ($events as $event) {
                self::assertContains($event::class, [ConnectionError::class, StreamOpened::class, DataReceived::class, StreamReset::class, TrailersReceived::class, GoAwayReceived::class]);
            }
            $session->takeOutput();
        }
    }

    /** @return iterable<string, array{list<array{string, string}>}> */
    public static function malformedRequests(): iterable
    {
        $base = [[':method', 'GET'], [':scheme', 'https'], [':path', '/'], [':authority', 'a']];
        yield 'upper-case name' => [[...$base, ['X-Foo', '1']]];
        yield 'connection-specific field' => [[...$base, ['connection', 'keep-alive']]];
        yield 'transfer-encoding' => [[...$base, ['transfer-encoding', 'chunked']]];
        yield 'te other than trailers' => [[...$base, ['te', 'gzip']]];
        yield 'no :path' => [[[':method', 'GET'], [':scheme', 'https'], [':authority', 'a']]];
        yield 'empty :path' => [[[':method', 'GET'], [':scheme', 'https'], [':path', ''], [':authority', 'a']]];
        yield 'pseudo after regular' => [[[':method', 'GET'], ['accept', '*/*'], [':scheme', 'https'], [':path', '/']]];
        yield 'repeated pseudo' => [[...$base, [':path', '/again']]];
        yield ':status in a request' => [[...$base, [':status', '200']]];
        yield 'unknown pseudo' => [[...$base, [':protocol', 'websocket']]];
        yield 'empty name' => [[...$base, ['', 'x']]];
        yield 'newline in value' => [[...$base, ['x-a', "a\nb"]]];
        yield 'leading space in value' => [[...$base, ['x-a', ' a']]];
        yield 'two content-lengths' => [[...$base, ['content-length', '1'], ['content-length', '2']]];
        yield 'CONNECT with :path' => [[[':method', 'CONNECT'], [':authority', 'a:443'], [':path', '/']]];
    }

    /**
     * @dataProvider malformedRequests
     * @param list<array{string, string}> $headers
     */
    public function testMalformedRequestsAreResetAndNeverReachTheApp(array $headers): void
    {
        $session = new Http2Session();
        $peer = new Peer();
        self::assertSame([], $session->push(Peer::preface() . $peer->headers(1, $headers)));
        $peer->read($session);
        self::assertSame([1 => ErrorCode::ProtocolError->value], $peer->resets());
        // The connection goes on.
        self::assertCount(1, $session->push($peer->get(3)));
    }

    public function testContentLengthIsCheckedAgainstTheData(): void
    {
        $session = new Http2Session();
        $peer = new Peer();
        $post = static fn (int $id, string $length): string => $peer->headers($id, [[':method', 'POST'], [':scheme', 'https'], [':path', '/'], [':authority', 'a'], ['content-length', $length]], false);
        $events = $session->push(Peer::preface() . $post(1, '3') . FrameWriter::data(1, 'abcd', true));
        self::assertInstanceOf(StreamReset::class, $events[1]);
        $events = $session->push($post(3, '5') . FrameWriter::data(3, 'abc', true));
        self::assertEquals(new StreamReset(3, ErrorCode::ProtocolError, false), $events[1]);
        $events = $session->push($post(5, '3') . FrameWriter::data(5, 'abc', true));
        self::assertEquals(new DataReceived(5, 'abc', true), $events[1]);
    }

    public function testFramesOnIdleAndHalfClosedStreams(): void
    {
        $session = new Http2Session();
        $peer = new Peer();
        $events = $session->push(Peer::preface() . $peer->get(1) . FrameWriter::data(1, 'x', false));
        self::assertEquals(new StreamReset(1, ErrorCode::StreamClosed, false), $events[1]);
        $events = $session->push(FrameWriter::data(9, 'x', false));
        self::assertInstanceOf(ConnectionError::class, $events[0]);
        self::assertSame(ErrorCode::ProtocolError, $events[0]->code);
    }

    public function testFramesOnClosedStreams(): void
    {
        // Closed by both END_STREAMs: DATA from the peer is a connection error; WINDOW_UPDATE is not.
        $session = new Http2Session();
        $peer = new Peer();
        $session->push(Peer::preface() . $peer->get(1));
        $session->sendHeaders(1, 200, [], true);
        self::assertSame([], $session->push(FrameWriter::windowUpdate(1, 100) . FrameWriter::rstStream(1, ErrorCode::Cancel)));
        $events = $session->push(FrameWriter::data(1, 'x', true));
        self::assertEquals([new ConnectionError(ErrorCode::StreamClosed, 'DATA on stream 1 after its END_STREAM')], $events);

        // Reset by the peer: a stream error.
        $session = new Http2Session();
        $peer = new Peer();
        $session->push(Peer::preface() . $peer->get(1, '/', [], false) . FrameWriter::rstStream(1, ErrorCode::Cancel));
        self::assertSame([], $session->push(FrameWriter::data(1, 'x', false)));
        $peer->read($session);
        self::assertSame([1 => ErrorCode::StreamClosed->value], $peer->resets());

        // Reset by us: frames in flight are ignored.
        $session = new Http2Session();
        $peer = new Peer();
        $session->push(Peer::preface() . $peer->get(1, '/', [], false));
        $session->resetStream(1);
        self::assertSame([], $session->push(FrameWriter::data(1, 'x', false) . $peer->headers(1, [['x-t', '1']])));
        $peer->read($session);
        self::assertSame([1 => ErrorCode::Cancel->value], $peer->resets());
        self::assertFalse($session->isClosed());
    }

    public function testFramesOnStreamsTooOldToRememberAreIgnored(): void
    {
        $session = new Http2Session(new Http2Settings(maxConcurrentStreams: 1));
        $peer = new Peer();
        $session->push(Peer::preface() . $peer->get(1, '/', [], false));
        $session->resetStream(1);
        for ($id = 3; $id <= 21; $id += 2) {
            $session->push($peer->get($id));
            $session->sendHeaders($id, 204, [], true);
        }
        // Stream 1's memory is gone (4 streams are remembered): its late trailers count as in flight.
        self::assertSame([], $session->push($peer->headers(1, [['x-t', '1']])));
        self::assertFalse($session->isClosed());
    }

    public function testEvenStreamIdsAndDecreasingIdsAreRefused(): void
    {
        $session = new Http2Session();
        $peer = new Peer();
        $events = $session->push(Peer::preface() . $peer->get(2));
        self::assertInstanceOf(ConnectionError::class, $events[0]);
        $session = new Http2Session();
        $peer = new Peer();
        $events = $session->push(Peer::preface() . $peer->get(5) . $peer->get(3));
        self::assertInstanceOf(ConnectionError::class, $events[1], 'a new stream below the last one (§5.1.1)');
        self::assertSame(ErrorCode::ProtocolError, $events[1]->code);
    }

    public function testOutboundDataWaitsForTheWindowsAndWindowUpdatesReleaseIt(): void
    {
        $session = new Http2Session(new Http2Settings(streamOutputLimit: 100));
        $peer = new Peer();
        $session->push(Peer::preface([0x4 => 10]) . $peer->get(1, '/', [], false));
        $session->sendHeaders(1, 200, []);
        $session->sendData(1, str_repeat('a', 150));
        $peer->read($session);
        self::assertSame(10, \strlen($peer->body(1)));
        self::assertSame(140, $session->pendingOutput(1));
        self::assertFalse($session->canSend(1));
        try {
            $session->sendData(1, 'more');
            self::fail('wrote past the bound');
        } catch (\OverflowException) {
        }
        $events = $session->push(FrameWriter::windowUpdate(1, 50));
        self::assertEquals([new WindowOpened(1)], $events, '90 queued: below the bound of 100');
        $peer->read($session);
        self::assertSame(60, \strlen($peer->body(1)));
        self::assertSame([], $session->push(FrameWriter::windowUpdate(1, 1000)));
        $session->sendData(1, 'b', true);
        $peer->read($session);
        self::assertSame(str_repeat('a', 150) . 'b', $peer->body(1));
        self::assertTrue($peer->ended(1));
    }

    public function testTheConnectionWindowAndSettingsChangesRelease(): void
    {
        $session = new Http2Session();
        $peer = new Peer();
        $session->push(Peer::preface([0x4 => 100000]) . $peer->get(1, '/', [], false));
        $session->sendHeaders(1, 200, []);
        $session->sendData(1, str_repeat('a', 70000), true);
        $peer->read($session);
        self::assertSame(65535, \strlen($peer->body(1)), 'the connection window starts at 65535');
        $session->push(FrameWriter::windowUpdate(0, 10000));
        $peer->read($session);
        self::assertSame(70000, \strlen($peer->body(1)));
        self::assertTrue($peer->ended(1));

        // A smaller initial window makes a stream's window negative; it sends nothing until it is positive.
        $session = new Http2Session();
        $peer = new Peer();
        $session->push(Peer::preface() . $peer->get(1, '/', [], false));
        $session->sendHeaders(1, 200, []);
        $session->sendData(1, str_repeat('a', 1000));
        $session->push(FrameWriter::settings([0x4 => 0]));
        $session->sendData(1, 'b');
        $peer->read($session);
        self::assertSame(1000, \strlen($peer->body(1)));
        $session->push(FrameWriter::settings([0x4 => 2000]));
        $peer->read($session);
        self::assertSame(1001, \strlen($peer->body(1)));
    }

    public function testInboundWindowsHoldAnUnreadStreamAndConsumptionReopensThem(): void
    {
        $session = new Http2Session(new Http2Settings(initialWindowSize: 1000));
        $peer = new Peer();
        $session->push(Peer::preface() . $peer->headers(1, [[':method', 'POST'], [':scheme', 'https'], [':path', '/'], [':authority', 'a']], false));
        $peer->read($session);
        $events = $session->push(FrameWriter::data(1, str_repeat('x', 1000), false));
        self::assertCount(1, $events);
        $events = $session->push(FrameWriter::data(1, 'y', false));
        self::assertEquals([new StreamReset(1, ErrorCode::FlowControlError, false)], $events);

        $session = new Http2Session(new Http2Settings(initialWindowSize: 1000));
        $peer = new Peer();
        $session->push(Peer::preface() . $peer->headers(1, [[':method', 'POST'], [':scheme', 'https'], [':path', '/'], [':authority', 'a']], false));
        $session->push(FrameWriter::data(1, str_repeat('x', 1000), false));
        $peer->read($session);
        $session->consumed(1, 400);
        self::assertSame([], $peer->read($session), 'less than half a window owed: no update yet');
        $session->consumed(1, 600);
        $updates = $peer->read($session);
        self::assertSame([[0x8, 1, 1000]], array_map(static fn (array $f): array => [$f['type'], $f['stream'], unpack('N', $f['payload'])[1]], $updates));
        self::assertCount(1, $session->push(FrameWriter::data(1, str_repeat('z', 600), false)));
        $session->consumed(1, 1 << 30);
        $updates = $peer->read($session);
        self::assertSame(600, unpack('N', $updates[0]['payload'])[1], 'no more than was handed over');
    }

    public function testConcurrentStreamsBeyondTheSettingAreRefused(): void
    {
        $session = new Http2Session(new Http2Settings(maxConcurrentStreams: 3));
        $peer = new Peer();
        $bytes = Peer::preface();
        for ($id = 1; $id <= 9; $id += 2) {
            $bytes .= $peer->get($id, '/', [], false);
        }
        $events = $session->push($bytes);
        self::assertSame([1, 3, 5], array_map(static fn (StreamOpened $e): int => $e->streamId, $events));
        $peer->read($session);
        self::assertSame([7 => ErrorCode::RefusedStream->value, 9 => ErrorCode::RefusedStream->value], $peer->resets());
        $session->sendHeaders(1, 204, [], true);
        self::assertSame(3, $session->activeStreams(), 'half-closed (local) still counts');
        $session->push(FrameWriter::data(1, '', true));
        self::assertCount(1, $session->push($peer->get(11, '/', [], false)));
    }

    public function testInterimResponsesTrailersAndLargeHeadersInContinuation(): void
    {
        $session = new Http2Session();
        $peer = new Peer();
        $session->push(Peer::preface() . $peer->get(1));
        $session->sendInformational(1, 103, [['link', '</style.css>; rel=preload; as=style']]);
        $session->sendHeaders(1, 200, [['x-big', str_repeat('v', 40000)]]);
        $session->sendData(1, 'body');
        $session->sendTrailers(1, [['grpc-status', '0']]);
        $peer->read($session);
        $heads = $peer->ofType(0x1, 1);
        self::assertSame([[':status', '103'], ['link', '</style.css>; rel=preload; as=style']], $heads[0]['headers']);
        self::assertSame(0, $heads[0]['flags'] & 0x1);
        self::assertSame(str_repeat('v', 40000), $heads[1]['headers'][1][1]);
        self::assertSame([['grpc-status', '0']], $heads[2]['headers']);
        self::assertSame(0x1, $heads[2]['flags'] & 0x1);
        self::assertSame('body', $peer->body(1));
        try {
            $session->sendHeaders(3, 103, []);
            self::fail('a 1xx as the final status');
        } catch (\InvalidArgumentException) {
        }
        $this->expectException(\InvalidArgumentException::class);
        $session->sendInformational(1, 200);
    }

    public function testHeaderBlocksReachThePeerInTheOrderTheyWereEncoded(): void
    {
        // Trailers waiting behind a closed window must not be encoded before the heads sent meanwhile.
        $session = new Http2Session();
        $peer = new Peer();
        $session->push(Peer::preface([0x4 => 0]) . $peer->get(1) . $peer->get(3));
        $session->sendHeaders(1, 200, []);
        $session->sendData(1, 'waits for window');
        $session->sendTrailers(1, [['x-shared', 'one']]);
        // The same field: the encoder refers to the table entry the trailers would have made.
        $session->sendHeaders(3, 200, [['x-shared', 'one']], true);
        $session->push(FrameWriter::windowUpdate(1, 100));
        $peer->read($session);
        self::assertSame([[':status', '200'], ['x-shared', 'one']], $peer->ofType(0x1, 3)[0]['headers']);
        self::assertSame([['x-shared', 'one']], $peer->ofType(0x1, 1)[1]['headers']);
    }

    public function testRequestHeadersInContinuationFrames(): void
    {
        $session = new Http2Session();
        $peer = new Peer();
        $block = $peer->encode([[':method', 'GET'], [':scheme', 'https'], [':path', '/'], [':authority', 'a'], ['x-big', str_repeat('q', 30000)]]);
        $bytes = Peer::preface() . FrameWriter::frame(0x1, 0x1, 1, substr($block, 0, 100));
        for ($o = 100; $o < \strlen($block); $o += 10000) {
            $bytes .= FrameWriter::continuation(1, substr($block, $o, 10000), $o + 10000 >= \strlen($block));
        }
        $events = $session->push($bytes);
        self::assertSame(str_repeat('q', 30000), $events[0]->headers[4][1]);
        self::assertTrue($events[0]->endStream);
        $events = $session->push($peer->headers(3, [[':method', 'GET']], false) . FrameWriter::ping('12345678', false));
        self::assertSame([], $events, 'HEADERS with END_HEADERS');
        $events = $session->push(FrameWriter::frame(0x1, 0, 5, "\x82") . FrameWriter::ping('12345678', false));
        self::assertInstanceOf(ConnectionError::class, $events[0], 'a PING inside a header block');
    }

    public function testResetsBothWays(): void
    {
        $session = new Http2Session();
        $peer = new Peer();
        $session->push(Peer::preface() . $peer->get(1) . $peer->get(3));
        $events = $session->push(FrameWriter::rstStream(1, ErrorCode::Cancel));
        self::assertEquals([new StreamReset(1, ErrorCode::Cancel, true)], $events);
        $session->sendHeaders(1, 200, [], true);
        $session->resetStream(3, ErrorCode::InternalError);
        $peer->read($session);
        self::assertSame([], $peer->ofType(0x1));
        self::assertSame([3 => ErrorCode::InternalError->value], $peer->resets());
        self::assertSame(0, $session->activeStreams());
    }

    public function testGracefulGoAwayBothWays(): void
    {
        $session = new Http2Session();
        $peer = new Peer();
        $session->push(Peer::preface() . $peer->get(1) . $peer->get(3));
        $session->goAway();
        $peer->read($session);
        self::assertSame([3, 0], array_values(unpack('N2', $peer->ofType(0x7)[0]['payload'])));
        self::assertSame([], $session->push($peer->get(5)), 'no new streams after GOAWAY');
        self::assertFalse($session->isClosed());
        $session->sendHeaders(1, 200, [], true);
        $session->sendHeaders(3, 200, [], true);
        self::assertTrue($session->isClosed());

        $session = new Http2Session();
        $events = $session->push(Peer::preface() . FrameWriter::goAway(0, ErrorCode::NoError, 'bye'));
        self::assertEquals([new GoAwayReceived(0, ErrorCode::NoError, 'bye')], $events);
    }

    public function testPriorityAndUnknownFramesAreIgnored(): void
    {
        $session = new Http2Session();
        $peer = new Peer();
        $events = $session->push(Peer::preface() . FrameWriter::priority(7, 0, 16) . FrameWriter::frame(0xfa, 0, 0, 'xyz') . $peer->get(1));
        self::assertCount(1, $events);
        $events = $session->push(FrameWriter::priority(3, 3, 16));
        self::assertSame([], $events);
        $peer->read($session);
        self::assertSame([3 => ErrorCode::ProtocolError->value], $peer->resets(), 'a stream depending on itself');
        $block = $peer->encode([[':method', 'GET'], [':scheme', 'https'], [':path', '/'], [':authority', 'a']]);
        $events = $session->push(FrameWriter::frame(0x1, 0x25, 5, pack('NC', 5, 15) . $block) . $peer->get(7));
        self::assertSame([7], array_map(static fn (StreamOpened $e): int => $e->streamId, $events), 'the block was decoded all the same');
        $peer->read($session);
        self::assertSame(ErrorCode::ProtocolError->value, $peer->resets()[5]);
    }

    public function testSettingsAreValidated(): void
    {
        foreach ([[0x2, 2], [0x4, 0x80000000], [0x5, 100], [0x5, 1 << 24]] as [$id, $value]) {
            $events = (new Http2Session())->push(Peer::preface([$id => $value]));
            self::assertInstanceOf(ConnectionError::class, $events[0] ?? null, "setting $id = $value");
        }
        $events = (new Http2Session())->push(Http2Session::PREFACE . FrameWriter::frame(0x4, 0, 0, 'abcde'));
        self::assertSame(ErrorCode::FrameSizeError, $events[0]->code);
    }

    public function testASmallerHeaderTableBindsThePeerOnceAcknowledged(): void
    {
        $session = new Http2Session(new Http2Settings(headerTableSize: 100));
        $peer = new Peer();
        $frames = $peer->read($session);
        self::assertSame(pack('nN', 1, 100), substr($frames[0]['payload'], -6));
        // Before the ack, the protocol's 4096 holds: a 200-byte entry is fine.
        $events = $session->push(Peer::preface() . $peer->get(1, '/', [['x-a', str_repeat('a', 200)]]));
        self::assertInstanceOf(StreamOpened::class, $events[0]);
        // After it, a size update above 100 is a compression error.
        $events = $session->push(FrameWriter::settingsAck() . FrameWriter::headers(3, "\x3f\xe1\x01\x82", true));
        self::assertInstanceOf(ConnectionError::class, $events[0]);
        self::assertSame(ErrorCode::CompressionError, $events[0]->code);
        // Our encoder starts with a size update down to our cap.
        $session = new Http2Session(new Http2Settings(headerTableSize: 100));
        $peer = new Peer();
        $session->push(Peer::preface() . $peer->get(1));
        $session->sendHeaders(1, 200, [['x-b', 'b']], true);
        $peer->read($session);
        self::assertSame([[':status', '200'], ['x-b', 'b']], $peer->ofType(0x1, 1)[0]['headers']);
        self::assertSame("\x3f\x45", substr($peer->ofType(0x1, 1)[0]['payload'], 0, 2));
    }

    public function testFramesLargerThanOurMaxFrameSizeAreRefused(): void
    {
        $events = (new Http2Session())->push(Peer::preface() . FrameWriter::data(1, str_repeat('x', 16385), false));
        self::assertSame(ErrorCode::FrameSizeError, $events[0]->code);
    }

    public function testWindowUpdateErrors(): void
    {
        $session = new Http2Session();
        $peer = new Peer();
        $session->push(Peer::preface() . $peer->get(1, '/', [], false));
        self::assertEquals([new StreamReset(1, ErrorCode::FlowControlError, false)], $session->push(FrameWriter::windowUpdate(1, 0x7fffffff)));
        self::assertSame(ErrorCode::FlowControlError, $session->push(FrameWriter::windowUpdate(0, 0x7fffffff))[0]->code);
    }
}
