<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Http\WebSocket;

use PHPUnit\Framework\TestCase;
use Spindle\Http\WebSocket\CloseCode;
use Spindle\Http\WebSocket\Event;
use Spindle\Http\WebSocket\EventType;
use Spindle\Http\WebSocket\FrameEncoder;
use Spindle\Http\WebSocket\FrameParser;
use Spindle\Http\WebSocket\WebSocketLimits;

/**
 * FrameParser fed every input whole, byte by byte and cut at random points (Mt19937 seeded with
 * SEED plus the input's length, named in failure messages): every way gives the same events, and
 * the same error. Garbage comes from mt_rand seeded with SEED.
 */
final class FrameParserTest extends TestCase
{
    private const SEED = 6455;
    private const MASK = "\x37\xfa\x21\x3d";

    private static function c(int $opcode, string $payload = '', bool $fin = true, int $rsv = 0, ?int $lengthForm = null): string
    {
        return FrameEncoder::frame($opcode, $payload, $fin, self::MASK, $rsv, $lengthForm);
    }

    /** @return array<string, array{string, list<array{string, string, int}>}> input, events as [type, payload, close code] */
    public static function validInputs(): array
    {
        $kosme = "\xce\xba\xe1\xbd\xb9\xcf\x83\xce\xbc\xce\xb5";

        return [
            'empty text' => [self::c(1), [['Text', '', 0]]],
            'small text' => [self::c(1, 'Hello'), [['Text', 'Hello', 0]]],
            'text of 125, 126, 65535 and 65536 bytes' => [
                self::c(1, \str_repeat('a', 125)) . self::c(1, \str_repeat('b', 126)) . self::c(1, \str_repeat('c', 65535)) . self::c(1, \str_repeat('d', 65536)),
                [['Text', \str_repeat('a', 125), 0], ['Text', \str_repeat('b', 126), 0], ['Text', \str_repeat('c', 65535), 0], ['Text', \str_repeat('d', 65536), 0]],
            ],
            'binary with every byte' => [self::c(2, \implode('', \array_map('chr', \range(0, 255)))), [['Binary', \implode('', \array_map('chr', \range(0, 255))), 0]]],
            'non-minimal 16-bit and 64-bit lengths are accepted' => [self::c(1, 'short', lengthForm: 16) . self::c(2, 'x', lengthForm: 64), [['Text', 'short', 0], ['Binary', 'x', 0]]],
            'fragmented text with a ping inside' => [
                self::c(1, 'Hel', false) . self::c(9, 'p') . self::c(0, 'lo', false) . self::c(10, 'q') . self::c(0, '!'),
                [['Ping', 'p', 0], ['Pong', 'q', 0], ['Text', 'Hello!', 0]],
            ],
            'UTF-8 code point cut between fragments' => [
                self::c(1, \substr($kosme, 0, 3), false) . self::c(0, \substr($kosme, 3, 4), false) . self::c(0, \substr($kosme, 7)),
                [['Text', $kosme, 0]],
            ],
            'fragmented binary, empty fragments' => [self::c(2, '', false) . self::c(0, "\xff", false) . self::c(0, ''), [['Binary', "\xff", 0]]],
            'ping and pong with payloads' => [self::c(9, \str_repeat("\xfe", 125)) . self::c(10), [['Ping', \str_repeat("\xfe", 125), 0], ['Pong', '', 0]]],
            'close without payload' => [self::c(8), [['Close', '', 1005]]],
            'close with code and reason, then ignored bytes' => [self::c(8, "\x03\xe8bye \xce\xba") . self::c(1, "\xff") . 'garbage', [['Close', "bye \xce\xba", 1000]]],
            'close 4999' => [self::c(8, "\x13\x87"), [['Close', '', 4999]]],
        ];
    }

    /**
     * @param list<array{string, string, int}> $expected
     *
     * @dataProvider validInputs
     */
    public function testValidInputGivesTheSameEventsHoweverItIsSplit(string $input, array $expected): void
    {
        foreach (self::splits($input) as $how => $pieces) {
            [$events, $error] = self::parse(FrameParser::forServer(), $pieces);
            self::assertNull($error, $how . ': ' . ($error?->getMessage() ?? ''));
            self::assertSame($expected, $events, $how);
        }
    }

    /** @return array<string, array{string|array{string, WebSocketLimits}, CloseCode, list<array{string, string, int}>}> input (and limits), close code, events before the error */
    public static function invalidInputs(): array
    {
        $big = new WebSocketLimits(200, 150, 3);

        return [
            'unmasked client frame' => [FrameEncoder::frame(1, 'hi'), CloseCode::ProtocolError, []],
            'RSV1' => [self::c(1, 'a', rsv: 4), CloseCode::ProtocolError, []],
            'RSV3 after a good message' => [self::c(1, 'ok') . self::c(1, 'a', rsv: 1), CloseCode::ProtocolError, [['Text', 'ok', 0]]],
            'opcode 3' => [self::c(3), CloseCode::ProtocolError, []],
            'opcode 7' => [self::c(7, 'x'), CloseCode::ProtocolError, []],
            'opcode 11' => [self::c(11), CloseCode::ProtocolError, []],
            'opcode 15' => [self::c(15, 'x'), CloseCode::ProtocolError, []],
            'ping of 126 bytes' => [self::c(9, \str_repeat('x', 126)), CloseCode::ProtocolError, []],
            'fragmented ping' => [self::c(9, 'a', false) . self::c(0, 'b'), CloseCode::ProtocolError, []],
            'fragmented close' => [self::c(8, "\x03\xe8", false), CloseCode::ProtocolError, []],
            'continuation without a start' => [self::c(0, 'x'), CloseCode::ProtocolError, []],
            'text inside a fragmented message' => [self::c(1, 'a', false) . self::c(1, 'b'), CloseCode::ProtocolError, []],
            'binary inside a fragmented text' => [self::c(1, 'a', false) . self::c(2, 'b'), CloseCode::ProtocolError, []],
            'invalid UTF-8 (surrogate)' => [self::c(1, "ab\xed\xa0\x80"), CloseCode::InvalidPayload, []],
            'invalid UTF-8 in the first fragment' => [self::c(1, "\xc0\xaf", false) . self::c(0, 'x'), CloseCode::InvalidPayload, []],
            'text ending inside a code point' => [self::c(1, "ab\xce"), CloseCode::InvalidPayload, []],
            'fragmented text ending inside a code point' => [self::c(1, 'a', false) . self::c(0, "\xe2\x82"), CloseCode::InvalidPayload, []],
            'close with 1 byte' => [self::c(8, "\x03"), CloseCode::ProtocolError, []],
            'close code 1005' => [self::c(8, "\x03\xed"), CloseCode::ProtocolError, []],
            'close code 1006' => [self::c(8, "\x03\xee"), CloseCode::ProtocolError, []],
            'close code 1015' => [self::c(8, "\x03\xf7"), CloseCode::ProtocolError, []],
            'close code 999' => [self::c(8, "\x03\xe7"), CloseCode::ProtocolError, []],
            'close code 2999' => [self::c(8, "\x0b\xb7"), CloseCode::ProtocolError, []],
            'close code 5000' => [self::c(8, "\x13\x88"), CloseCode::ProtocolError, []],
            'close reason not UTF-8' => [self::c(8, "\x03\xe8\xff"), CloseCode::InvalidPayload, []],
            '64-bit length with the top bit set' => ["\x82\xff\x80\x00\x00\x00\x00\x00\x00\x01" . self::MASK . 'x', CloseCode::ProtocolError, []],
            'frame over the limit' => [[self::c(2, \str_repeat('x', 151)), $big], CloseCode::MessageTooBig, []],
            'message over the limit' => [[self::c(2, \str_repeat('x', 150), false) . self::c(0, \str_repeat('x', 51)), $big], CloseCode::MessageTooBig, []],
            'too many fragments' => [[self::c(1, 'a', false) . self::c(0, 'b', false) . self::c(0, 'c', false) . self::c(0, 'd'), $big], CloseCode::MessageTooBig, []],
        ];
    }

    /**
     * @param string|array{string, WebSocketLimits} $input
     * @param list<array{string, string, int}> $before
     *
     * @dataProvider invalidInputs
     */
    public function testInvalidInputFailsWithItsCodeHoweverItIsSplit(string|array $input, CloseCode $code, array $before): void
    {
        [$bytes, $limits] = \is_array($input) ? $input : [$input, new WebSocketLimits()];
        foreach (self::splits($bytes) as $how => $pieces) {
            [$events, $error] = self::parse(FrameParser::forServer($limits), $pieces);
            self::assertNotNull($error, $how);
            self::assertSame($code, $error->closeCode, $how . ': ' . $error->getMessage());
            self::assertSame($before, $events, $how);
        }
    }

    public function testAnOversizedFrameFailsOnItsHeaderBeforeThePayloadArrives(): void
    {
        $parser = FrameParser::forServer(new WebSocketLimits(1000, 1000, 10));
        self::assertSame([], $parser->push("\x82\xfe\x10\x00" . self::MASK));
        self::assertSame(CloseCode::MessageTooBig, $parser->error()?->closeCode);
        $parser = FrameParser::forServer();
        self::assertSame([], $parser->push("\x82\xff\x00\x00\x00\x01\x00\x00\x00\x00"));
        self::assertSame(CloseCode::MessageTooBig, $parser->error()?->closeCode);
    }

    public function testInvalidUtf8FailsInTheMiddleOfAFrameAtTheFirstBadPiece(): void
    {
        $payload = "\xce\xba\xe1\xbd\xb9\xcf\x83\xce\xbc\xce\xb5\xf4\x90\x80\x80edited";
        $frame = self::c(1, $payload);
        $header = \strlen($frame) - \strlen($payload);
        $parser = FrameParser::forServer();
        self::assertSame([], $parser->push(\substr($frame, 0, $header + 12)));
        $before = $parser->error();
        self::assertNull($before, 'κόσμε and 0xf4 can still become valid');
        $parser->push($frame[$header + 12]);
        $error = $parser->error();
        self::assertNotNull($error, '0xf4 0x90 can not');
        self::assertSame(CloseCode::InvalidPayload, $error->closeCode);
    }

    public function testAClientParserWantsUnmaskedFrames(): void
    {
        $parser = FrameParser::forClient();
        $events = $parser->push(FrameEncoder::text('hi') . FrameEncoder::close(1001, 'bye'));
        self::assertSame([['Text', 'hi', 0], ['Close', 'bye', 1001]], self::plain($events));
        $parser = FrameParser::forClient();
        $parser->push(self::c(1, 'masked'));
        self::assertSame(CloseCode::ProtocolError, $parser->error()?->closeCode);
    }

    public function testNothingIsParsedAfterAnError(): void
    {
        $parser = FrameParser::forServer();
        $parser->push(self::c(3));
        self::assertSame([], $parser->push(self::c(1, 'later')));
        self::assertSame(CloseCode::ProtocolError, $parser->error()?->closeCode);
    }

    public function testGarbageOnlyGivesEventsOrAProtocolError(): void
    {
        \mt_srand(self::SEED);
        $kinds = [];
        for ($round = 0; $round < 3000; ++$round) {
            $input = '';
            // Random bytes, or frames with random headers around real ones.
            if ($round % 2 === 0) {
                $input = self::bytes(\mt_rand(1, 64));
            } else {
                for ($i = \mt_rand(1, 4); $i > 0; --$i) {
                    $input .= FrameEncoder::frame(\mt_rand(0, 15), self::bytes(\mt_rand(0, 140)), \mt_rand(0, 3) > 0, \mt_rand(0, 5) > 0 ? self::MASK : null, \mt_rand(0, 7) === 0 ? \mt_rand(1, 7) : 0);
                }
            }
            $limits = new WebSocketLimits(\mt_rand(125, 400), \mt_rand(125, 300), \mt_rand(1, 4));
            foreach (self::splits($input, 2) as $pieces) {
                try {
                    [, $error] = self::parse(FrameParser::forServer($limits), $pieces);
                } catch (\Throwable $e) {
                    self::fail(\sprintf('seed %d, round %d, input %s: %s %s', self::SEED, $round, \bin2hex($input), $e::class, $e->getMessage()));
                }
                $kinds[$error === null ? 'ok' : $error->closeCode->name] = true;
            }
        }
        self::assertArrayHasKey('ProtocolError', $kinds);
        self::assertArrayHasKey('ok', $kinds);
    }

    /** $length bytes from mt_rand, so a seed repeats them. */
    public static function bytes(int $length): string
    {
        $bytes = '';
        for ($i = 0; $i < $length; ++$i) {
            $bytes .= \chr(\mt_rand(0, 255));
        }

        return $bytes;
    }

    /**
     * @param list<string> $pieces
     *
     * @return array{list<array{string, string, int}>, ?\Spindle\Http\WebSocket\ProtocolError}
     */
    private static function parse(FrameParser $parser, array $pieces): array
    {
        $events = [];
        foreach ($pieces as $piece) {
            \array_push($events, ...$parser->push($piece));
        }

        return [self::plain($events), $parser->error()];
    }

    /**
     * @param list<Event> $events
     *
     * @return list<array{string, string, int}>
     */
    private static function plain(array $events): array
    {
        return \array_map(static fn (Event $e): array => [$e->type->name, $e->payload, $e->type === EventType::Close ? $e->closeCode : 0], $events);
    }

    /** @return array<string, list<string>> */
    private static function splits(string $input, int $randomRounds = 5): array
    {
        $splits = ['whole' => [$input]];
        if (\strlen($input) <= 70_000) {
            $splits['byte by byte'] = $input === '' ? [] : \str_split($input);
        }
        // A generator of its own, so cutting an input does not disturb the one making inputs.
        $random = new \Random\Randomizer(new \Random\Engine\Mt19937(self::SEED + \strlen($input)));
        for ($round = 0; $round < $randomRounds; ++$round) {
            $pieces = [];
            for ($offset = 0; $offset < \strlen($input);) {
                $length = $random->getInt(1, \max(1, \intdiv(\strlen($input), 3)));
                $pieces[] = \substr($input, $offset, $length);
                $offset += $length;
            }
            $splits[\sprintf('random split %d (seed %d)', $round, self::SEED + \strlen($input))] = $pieces;
        }

        return $splits;
    }
}
