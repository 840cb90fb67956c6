<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Http\Http2;

use PHPUnit\Framework\TestCase;
use Spindle\Http\Http2\ErrorCode;
use Spindle\Http\Http2\Event\ConnectionError;
use Spindle\Http\Http2\Event\StreamOpened;
use Spindle\Http\Http2\Event\WindowOpened;
use Spindle\Http\Http2\FrameWriter;
use Spindle\Http\Http2\Http2Session;
use Spindle\Http\Http2\Http2Settings;

/** Each known HTTP/2 attack, run against the session: each must end in a bound, not in growth. */
final class Http2AttackTest extends TestCase
{
    private const GET = [[':method', 'GET'], [':scheme', 'https'], [':path', '/'], [':authority', 'a']];

    /**
     * Feeds frames one at a time until the session ends the connection.
     *
     * @param \Closure(int): string $frame the i-th frame of the attack
     * @return array{int, list<object>, ConnectionError} frames sent, events before the end, the end
     */
    private static function attack(Http2Session $session, \Closure $frame, int $max, bool $readOutput = true): array
    {
        $events = [];
        for ($i = 0; $i < $max; $i++) {
            foreach ($session->push($frame($i)) as $event) {
                if ($event instanceof ConnectionError) {
                    return [$i + 1, $events, $event];
                }
                $events[] = $event;
            }
            if ($readOutput) {
                $session->takeOutput();
            }
        }
        self::fail("The attack ran $max frames without the connection ending");
    }

    private static function started(?Http2Settings $settings = null): Http2Session
    {
        $session = new Http2Session($settings ?? new Http2Settings());
        $session->push(Peer::preface());
        $session->takeOutput();

        return $session;
    }

    public function testRapidResetEndsTheConnection(): void
    {
        // CVE-2023-44487: open a stream, reset it, again and again.
        $session = self::started();
        $peer = new Peer();
        [$frames, $events, $end] = self::attack($session, static fn (int $i): string => $peer->headers(2 * $i + 1, self::GET) . FrameWriter::rstStream(2 * $i + 1, ErrorCode::Cancel), 100000);
        self::assertSame(ErrorCode::EnhanceYourCalm, $end->code);
        self::assertSame(101, $frames, 'the 101st reset beyond answered streams ends it');
        self::assertCount(101, array_filter($events, static fn (object $e): bool => $e instanceof StreamOpened));
        self::assertTrue($session->isClosed());
    }

    public function testStreamsAnsweredInFullEarnResetsBack(): void
    {
        $session = self::started();
        $peer = new Peer();
        for ($id = 1; $id < 2000; $id += 2) {
            $bytes = $peer->headers($id, self::GET);
            if ($id % 4 === 1) {
                $bytes .= FrameWriter::rstStream($id, ErrorCode::Cancel);
            }
            foreach ($session->push($bytes) as $event) {
                self::assertNotInstanceOf(ConnectionError::class, $event, 'a client that cancels half its requests is no attacker');
            }
            $session->sendHeaders($id, 200, [], true);
            $session->takeOutput();
        }
    }

    public function testMadeYouResetIsCountedToo(): void
    {
        // CVE-2025-8671: frames that make the server reset the stream (here WINDOW_UPDATE 0, DATA past END_STREAM, bad headers).
        $variants = [
            static fn (Peer $p, int $id): string => $p->headers($id, self::GET, false) . FrameWriter::windowUpdate($id, 0),
            static fn (Peer $p, int $id): string => $p->headers($id, self::GET) . FrameWriter::data($id, 'x', false),
            static fn (Peer $p, int $id): string => $p->headers($id, [...self::GET, ['connection', 'close']]),
            static fn (Peer $p, int $id): string => $p->headers($id, self::GET, false) . FrameWriter::windowUpdate($id, 0x7fffffff),
        ];
        foreach ($variants as $n => $variant) {
            $session = self::started();
            $peer = new Peer();
            [$frames, , $end] = self::attack($session, static fn (int $i): string => $variant($peer, 2 * $i + 1), 100000);
            self::assertSame(ErrorCode::EnhanceYourCalm, $end->code, "variant $n");
            self::assertSame(101, $frames, "variant $n");
        }
    }

    public function testContinuationFloodIsBoundedInFramesAndBytes(): void
    {
        // CVE-2024-27316: a header block that never ends.
        $session = self::started();
        [$frames, , $end] = self::attack($session, static fn (int $i): string => $i === 0
            ? FrameWriter::frame(0x1, 0, 1, "\x82")
            : FrameWriter::continuation(1, '', false), 100000);
        self::assertSame(ErrorCode::EnhanceYourCalm, $end->code);
        self::assertSame(34, $frames, 'HEADERS + 32 CONTINUATION frames allowed');

        $session = self::started();
        [$frames, , $end] = self::attack($session, static fn (int $i): string => $i === 0
            ? FrameWriter::frame(0x1, 0, 1, "\x82")
            : FrameWriter::continuation(1, str_repeat("\x82", 16000), false), 100000);
        self::assertSame(ErrorCode::EnhanceYourCalm, $end->code);
        self::assertSame(6, $frames, 'the 64 KiB block bound is hit at the fifth CONTINUATION');
        self::assertStringContainsString('larger than 65536', $end->reason);
    }

    public function testHpackBombIsAnswered431AndTheConnectionLivesOn(): void
    {
        $session = self::started();
        $peer = new Peer();
        // A 4 KiB header, indexed once, then referenced 4,000 times (a 16 MB list from 16 KB).
        $block = $peer->encode(self::GET) . "\x40\x05x-big\x7f\xa1\x1e" . str_repeat('v', 4000) . str_repeat("\xbe", 4000);
        $before = memory_get_usage();
        $events = $session->push(FrameWriter::headers(1, $block, true));
        self::assertSame([], $events);
        self::assertLessThan(1 << 20, memory_get_usage() - $before);
        $peer->read($session);
        self::assertSame([[':status', '431']], $peer->ofType(0x1, 1)[0]['headers']);
        self::assertTrue($peer->ended(1));
        // The decoder stayed in step: the next request may use the table entry.
        $events = $session->push(FrameWriter::headers(3, $peer->encode([...self::GET, ['x-big', str_repeat('v', 4000)]]), true));
        self::assertInstanceOf(StreamOpened::class, $events[0]);
        self::assertSame(str_repeat('v', 4000), $events[0]->headers[4][1]);
    }

    public function testPingFloodWhileNotReading(): void
    {
        // CVE-2019-9512: PINGs whose acks pile up because the peer does not read.
        $session = self::started();
        [$frames, , $end] = self::attack($session, static fn (int $i): string => FrameWriter::ping(pack('J', $i), false), 100000, false);
        self::assertSame(ErrorCode::EnhanceYourCalm, $end->code);
        self::assertSame(1001, $frames);
        self::assertLessThan(1002 * 17 + 200, \strlen($session->takeOutput()), 'the owed acks stay bounded');
    }

    public function testPingFloodWhileReading(): void
    {
        $session = self::started();
        [$frames, , $end] = self::attack($session, static fn (int $i): string => FrameWriter::ping(pack('J', $i), false), 100000);
        self::assertSame(ErrorCode::EnhanceYourCalm, $end->code);
        self::assertSame(1001, $frames, 'frames without progress are bounded too');
    }

    public function testSettingsFlood(): void
    {
        // CVE-2019-9515.
        $session = self::started();
        [$frames, , $end] = self::attack($session, static fn (int $i): string => FrameWriter::settings([0x3 => 100]), 100000, false);
        self::assertSame(ErrorCode::EnhanceYourCalm, $end->code);
        self::assertSame(1001, $frames);
    }

    public function testEmptyFramesFlood(): void
    {
        // CVE-2019-9518: empty DATA frames on an open stream.
        $session = self::started();
        $peer = new Peer();
        $session->push($peer->headers(1, [[':method', 'POST'], ...\array_slice(self::GET, 1)], false));
        [$frames, , $end] = self::attack($session, static fn (int $i): string => FrameWriter::data(1, '', false), 100000);
        self::assertSame(ErrorCode::EnhanceYourCalm, $end->code);
        self::assertSame(1001, $frames);
    }

    public function testResetFloodOfRefusedStreams(): void
    {
        // CVE-2019-9514: requests that each draw a RST_STREAM (here: beyond the concurrency limit).
        $session = self::started(new Http2Settings(maxConcurrentStreams: 1));
        $peer = new Peer();
        [$frames, , $end] = self::attack($session, static fn (int $i): string => $peer->headers(2 * $i + 1, self::GET, false), 100000, false);
        self::assertSame(ErrorCode::EnhanceYourCalm, $end->code);
        self::assertSame(102, $frames, 'one stream taken, 101 refused');
    }

    public function testZeroLengthHeadersFlood(): void
    {
        // CVE-2019-9516: header fields with empty names: each request is malformed; the table and list stay bounded.
        $session = self::started();
        $peer = new Peer();
        [$frames, $events, $end] = self::attack($session, static fn (int $i): string => FrameWriter::headers(2 * $i + 1, $peer->encode(self::GET) . str_repeat("\x40\x00\x00", 1000), true), 100000);
        self::assertSame([], $events);
        self::assertSame(ErrorCode::EnhanceYourCalm, $end->code);
        self::assertSame(101, $frames);
    }

    public function testAClientThatNeverReadsHoldsABoundedQueue(): void
    {
        // CVE-2019-9517: the peer opens no window; the app's writer is held back by canSend().
        $session = self::started(new Http2Settings(streamOutputLimit: 65536, connectionOutputLimit: 200000));
        $peer = new Peer();
        $session->push($peer->headers(1, self::GET) . $peer->headers(3, self::GET) . $peer->headers(5, self::GET) . $peer->headers(7, self::GET));
        $written = [];
        foreach ([1, 3, 5, 7] as $id) {
            $session->sendHeaders($id, 200, []);
            $written[$id] = 0;
            while ($session->canSend($id)) {
                $session->sendData($id, str_repeat('x', 8192));
                $written[$id] += 8192;
            }
        }
        // 65,535 bytes of connection window went out; the rest is queued, within the bounds.
        self::assertLessThanOrEqual(200000 + 8192, $session->pendingOutput());
        self::assertLessThanOrEqual(8192, $written[7], 'the connection bound holds the fourth stream back');
        self::assertLessThanOrEqual(65536 + 65535 + 8192, $written[1]);
        try {
            $session->sendData(7, 'x');
            self::fail('wrote past the bound');
        } catch (\OverflowException) {
        }
        // The peer reads at last: every writer held back hears it may go on.
        $events = $session->push(FrameWriter::settings([0x4 => 1 << 20]) . FrameWriter::windowUpdate(0, 1 << 24));
        $opened = array_map(static fn (WindowOpened $e): int => $e->streamId, $events);
        sort($opened);
        self::assertSame([1, 3, 5, 7], $opened);
        self::assertSame(0, $session->pendingOutput());
        foreach ([1, 3, 5, 7] as $id) {
            self::assertTrue($session->canSend($id));
        }
    }

    public function testDataDribbleWithTinyWindowsEndsTheConnection(): void
    {
        // CVE-2019-9511: a tiny window, opened a byte at a time, so the response leaves in 1-byte frames.
        $session = self::started();
        $peer = new Peer();
        $session->push(FrameWriter::settings([0x4 => 1]) . $peer->headers(1, self::GET));
        $session->sendHeaders(1, 200, []);
        $session->sendData(1, str_repeat('x', 100000), true);
        [$frames, , $end] = self::attack($session, static fn (int $i): string => FrameWriter::windowUpdate(1, 1), 100000);
        self::assertSame(ErrorCode::EnhanceYourCalm, $end->code);
        self::assertSame(1001, $frames);
    }

    public function testNormalStreamsAreNotCountedAsUnproductive(): void
    {
        $session = self::started();
        $peer = new Peer();
        for ($id = 1; $id < 6000; $id += 2) {
            $bytes = $peer->headers($id, [[':method', 'POST'], ...\array_slice(self::GET, 1)], false)
                . FrameWriter::ping('pingpong', false) . FrameWriter::data($id, 'a', false) . FrameWriter::data($id, 'b', true);
            foreach ($session->push($bytes) as $event) {
                self::assertNotInstanceOf(ConnectionError::class, $event);
            }
            $session->sendHeaders($id, 200, []);
            $session->sendData($id, str_repeat('r', 100), true);
            $session->push(FrameWriter::windowUpdate(0, 100) . FrameWriter::windowUpdate($id, 100));
            $session->takeOutput();
        }
        self::assertFalse($session->isClosed());
    }
}
