<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Http\Http2;

use PHPUnit\Framework\TestCase;
use Spindle\Http\Http2\ErrorCode;
use Spindle\Http\Http2\FrameParser;
use Spindle\Http\Http2\FrameWriter;
use Spindle\Http\Http2\Hpack\HpackDecoder;
use Spindle\Http\Http2\Hpack\HpackException;
use Spindle\Http\Http2\Hpack\HeaderListTooLarge;
use Spindle\Http\Http2\Http2ConnectionError;
use Spindle\Http\Http2\Http2Exception;
use Spindle\Http\Http2\Http2StreamError;

/** Every frame type written and read back, whole and byte by byte; the parser's checks; garbage. */
final class FrameTest extends TestCase
{
    /** @return list<array{int, int, int, string, int}> */
    private static function parse(string $bytes, bool $byteByByte = false, int $maxFrameSize = 16384): array
    {
        $frames = [];
        $parser = new FrameParser(static function (int $type, int $flags, int $stream, string $payload, int $length) use (&$frames): void {
            $frames[] = [$type, $flags, $stream, $payload, $length];
        }, $maxFrameSize);
        foreach ($byteByByte ? str_split($bytes) : [$bytes] as $piece) {
            $parser->push($piece);
        }
        self::assertSame(0, $parser->buffered());

        return $frames;
    }

    public function testEveryTypeRoundTrips(): void
    {
        $bytes = FrameWriter::data(1, 'body', true)
            . FrameWriter::data(3, 'padded', false, 10)
            . FrameWriter::headers(5, 'block', true)
            . FrameWriter::headers(7, str_repeat('b', 40000), false)
            . FrameWriter::priority(9, 1, 16, true)
            . FrameWriter::rstStream(9, ErrorCode::Cancel)
            . FrameWriter::settings([0x3 => 100, 0x4 => 65535])
            . FrameWriter::settingsAck()
            . FrameWriter::pushPromise(1, 2, 'promised')
            . FrameWriter::ping('abcdefgh', false)
            . FrameWriter::ping('abcdefgh', true)
            . FrameWriter::goAway(7, ErrorCode::EnhanceYourCalm, 'calm down')
            . FrameWriter::windowUpdate(0, 1000)
            . FrameWriter::continuation(11, 'rest', true)
            . FrameWriter::frame(0xee, 0xff, 13, 'unknown');
        $expected = [
            [0x0, 0x1, 1, 'body', 4],
            [0x0, 0x8, 3, 'padded', 16],
            [0x1, 0x5, 5, 'block', 5],
            [0x1, 0x0, 7, str_repeat('b', 16384), 16384],
            [0x9, 0x0, 7, str_repeat('b', 16384), 16384],
            [0x9, 0x4, 7, str_repeat('b', 40000 - 32768), 40000 - 32768],
            [0x2, 0x0, 9, pack('NC', 0x80000001, 15), 5],
            [0x3, 0x0, 9, pack('N', 8), 4],
            [0x4, 0x0, 0, pack('nNnN', 3, 100, 4, 65535), 12],
            [0x4, 0x1, 0, '', 0],
            [0x5, 0x4, 1, pack('N', 2) . 'promised', 12],
            [0x6, 0x0, 0, 'abcdefgh', 8],
            [0x6, 0x1, 0, 'abcdefgh', 8],
            [0x7, 0x0, 0, pack('NN', 7, 0xb) . 'calm down', 17],
            [0x8, 0x0, 0, pack('N', 1000), 4],
            [0x9, 0x4, 11, 'rest', 4],
            [0xee, 0xff, 13, 'unknown', 7],
        ];
        self::assertSame($expected, self::parse($bytes));
        self::assertSame($expected, self::parse($bytes, true));
    }

    public function testHeadersWithPaddingAndPriorityAreStripped(): void
    {
        $payload = "\x03" . pack('NC', 1, 15) . 'block' . "\0\0\0";
        self::assertSame([[0x1, 0x2c, 5, 'block', 14]], self::parse(FrameWriter::frame(0x1, 0x2c, 5, $payload)));
    }

    /** @return iterable<string, array{string, class-string<Http2Exception>, ErrorCode}> */
    public static function badFrames(): iterable
    {
        yield 'too large' => [FrameWriter::frame(0x0, 0, 1, str_repeat('x', 16385)), Http2ConnectionError::class, ErrorCode::FrameSizeError];
        yield 'DATA on stream 0' => [FrameWriter::frame(0x0, 0, 0, 'x'), Http2ConnectionError::class, ErrorCode::ProtocolError];
        yield 'padding as long as the frame' => [FrameWriter::frame(0x0, 0x8, 1, "\x05abcd"), Http2ConnectionError::class, ErrorCode::ProtocolError];
        yield 'padded without a pad length' => [FrameWriter::frame(0x0, 0x8, 1, ''), Http2ConnectionError::class, ErrorCode::FrameSizeError];
        yield 'HEADERS too short for priority' => [FrameWriter::frame(0x1, 0x24, 1, 'abc'), Http2ConnectionError::class, ErrorCode::FrameSizeError];
        yield 'PRIORITY of 4 bytes' => [FrameWriter::frame(0x2, 0, 1, 'abcd'), Http2StreamError::class, ErrorCode::FrameSizeError];
        yield 'PRIORITY on stream 0' => [FrameWriter::frame(0x2, 0, 0, 'abcde'), Http2ConnectionError::class, ErrorCode::ProtocolError];
        yield 'RST_STREAM of 3 bytes' => [FrameWriter::frame(0x3, 0, 1, 'abc'), Http2ConnectionError::class, ErrorCode::FrameSizeError];
        yield 'RST_STREAM on stream 0' => [FrameWriter::frame(0x3, 0, 0, 'abcd'), Http2ConnectionError::class, ErrorCode::ProtocolError];
        yield 'SETTINGS on a stream' => [FrameWriter::frame(0x4, 0, 1, ''), Http2ConnectionError::class, ErrorCode::ProtocolError];
        yield 'SETTINGS of 7 bytes' => [FrameWriter::frame(0x4, 0, 0, 'abcdefg'), Http2ConnectionError::class, ErrorCode::FrameSizeError];
        yield 'SETTINGS ack with a payload' => [FrameWriter::frame(0x4, 1, 0, 'abcdef'), Http2ConnectionError::class, ErrorCode::FrameSizeError];
        yield 'PING of 7 bytes' => [FrameWriter::frame(0x6, 0, 0, 'abcdefg'), Http2ConnectionError::class, ErrorCode::FrameSizeError];
        yield 'PING on a stream' => [FrameWriter::frame(0x6, 0, 1, 'abcdefgh'), Http2ConnectionError::class, ErrorCode::ProtocolError];
        yield 'GOAWAY of 7 bytes' => [FrameWriter::frame(0x7, 0, 0, 'abcdefg'), Http2ConnectionError::class, ErrorCode::FrameSizeError];
        yield 'WINDOW_UPDATE of 3 bytes' => [FrameWriter::frame(0x8, 0, 0, 'abc'), Http2ConnectionError::class, ErrorCode::FrameSizeError];
        yield 'CONTINUATION on stream 0' => [FrameWriter::frame(0x9, 0, 0, ''), Http2ConnectionError::class, ErrorCode::ProtocolError];
    }

    /**
     * @dataProvider badFrames
     * @param class-string<Http2Exception> $class
     */
    public function testBadFrames(string $bytes, string $class, ErrorCode $code): void
    {
        try {
            self::parse($bytes);
            self::fail('accepted');
        } catch (Http2ConnectionError | Http2StreamError $e) {
            self::assertInstanceOf($class, $e);
            self::assertSame($code, $e->errorCode);
        }
    }

    public function testGarbageRaisesOnlyTheLayersOwnExceptions(): void
    {
        mt_srand(9);
        for ($i = 0; $i < 2000; $i++) {
            $garbage = '';
            for ($n = mt_rand(1, 120); $n > 0; $n--) {
                $garbage .= \chr(mt_rand(0, 255));
            }
            $parser = new FrameParser(static function (): void {
            }, 16777215);
            try {
                $parser->push($garbage);
            } catch (Http2Exception) {
            }
            try {
                (new HpackDecoder())->decode($garbage);
            } catch (HpackException | HeaderListTooLarge) {
            }
        }
        // Any other exception (or PHP warning, which PHPUnit turns into one) would have failed the test.
        $this->addToAssertionCount(1);
    }
}
