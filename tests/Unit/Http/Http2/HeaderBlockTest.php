<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Http\Http2;

use PHPUnit\Framework\TestCase;
use Spindle\Http\Http2\ErrorCode;
use Spindle\Http\Http2\FloodGuard;
use Spindle\Http\Http2\FrameParser;
use Spindle\Http\Http2\HeaderBlock;
use Spindle\Http\Http2\Http2ConnectionError;
use Spindle\Http\Http2\Http2Settings;

/** The header block of HEADERS + CONTINUATION, on its own (Http2SessionTest drives it through the session). */
final class HeaderBlockTest extends TestCase
{
    private static function block(int $maxSize = 100, int $maxContinuations = 3): HeaderBlock
    {
        $settings = new Http2Settings(maxHeaderBlockSize: $maxSize, maxContinuationFrames: $maxContinuations);

        return new HeaderBlock($settings, new FloodGuard($settings));
    }

    public function testABlockInOneFrameIsWholeAtOnce(): void
    {
        $block = self::block();
        self::assertFalse($block->isOpen());
        self::assertTrue($block->begin(FrameParser::FLAG_END_HEADERS | FrameParser::FLAG_END_STREAM, 5, 'abc', false));
        self::assertTrue($block->isOpen());
        self::assertSame([5, 'abc', true, false], $block->take());
        self::assertFalse($block->isOpen());
    }

    public function testContinuationsJoinTheBlockUntilEndHeaders(): void
    {
        $block = self::block();
        self::assertFalse($block->begin(0, 7, 'ab', true));
        self::assertFalse($block->add(0, 7, 'cd'));
        self::assertTrue($block->add(FrameParser::FLAG_END_HEADERS, 7, 'ef'));
        self::assertSame([7, 'abcdef', false, true], $block->take());
    }

    public function testAContinuationWithoutItsBlockIsAProtocolError(): void
    {
        $block = self::block();
        self::assertFalse($block->begin(0, 7, 'ab', false));
        $e = self::caught(static fn () => $block->add(0, 9, 'cd'));
        self::assertSame(ErrorCode::ProtocolError, $e->errorCode);
        self::assertSame(ErrorCode::ProtocolError, self::caught(static fn () => self::block()->add(0, 1, 'x'))->errorCode);
    }

    public function testTheBoundsHoldBeforeAnythingIsDecoded(): void
    {
        $tooLarge = self::caught(static fn () => self::block(maxSize: 4)->begin(0, 1, 'abcde', false));
        self::assertSame(ErrorCode::EnhanceYourCalm, $tooLarge->errorCode);

        $block = self::block(maxSize: 6);
        $block->begin(0, 1, 'abcd', false);
        self::assertSame(ErrorCode::EnhanceYourCalm, self::caught(static fn () => $block->add(0, 1, 'efg'))->errorCode);

        $flood = self::block(maxContinuations: 2);
        $flood->begin(0, 1, 'a', false);
        $flood->add(0, 1, 'b');
        $flood->add(0, 1, 'c');
        $e = self::caught(static fn () => $flood->add(0, 1, 'd'));
        self::assertSame(ErrorCode::EnhanceYourCalm, $e->errorCode);
        self::assertStringContainsString('CONTINUATION', $e->getMessage());
    }

    private static function caught(\Closure $call): Http2ConnectionError
    {
        try {
            $call();
        } catch (Http2ConnectionError $e) {
            return $e;
        }
        self::fail('no Http2ConnectionError');
    }
}
