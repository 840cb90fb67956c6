<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Http\WebSocket;

use PHPUnit\Framework\TestCase;
use Spindle\Http\WebSocket\CloseCode;
use Spindle\Http\WebSocket\DeflateParams;
use Spindle\Http\WebSocket\Deflater;
use Spindle\Http\WebSocket\EventType;
use Spindle\Http\WebSocket\FrameEncoder;
use Spindle\Http\WebSocket\FrameParser;
use Spindle\Http\WebSocket\PerMessageDeflate;
use Spindle\Http\WebSocket\WebSocketLimits;
use Spindle\Http\WebSocket\WebSocketSession;

/** permessage-deflate (RFC 7692): negotiation, compressed frames in and out, and their errors. */
final class PerMessageDeflateTest extends TestCase
{
    private const MASK = "\x11\x22\x33\x44";

    public function testNegotiation(): void
    {
        $policy = new PerMessageDeflate(false, false);
        self::assertSame('permessage-deflate', $policy->negotiate(['permessage-deflate'])?->header());
        self::assertSame('permessage-deflate', $policy->negotiate(['permessage-deflate; client_max_window_bits'])?->header());
        self::assertSame(
            'permessage-deflate; server_no_context_takeover; server_max_window_bits=10',
            $policy->negotiate(['permessage-deflate; server_no_context_takeover; server_max_window_bits=10; client_max_window_bits=12'])?->header(),
        );
        self::assertSame(
            'permessage-deflate; server_max_window_bits=12',
            $policy->negotiate(['permessage-deflate; server_max_window_bits=8, permessage-deflate; server_max_window_bits="12"'])?->header(),
            'the first offer asks for 8 bits, which zlib cannot deflate with: the second is taken',
        );
        self::assertSame(
            'permessage-deflate; server_no_context_takeover; client_no_context_takeover',
            (new PerMessageDeflate())->negotiate(['x-webkit-deflate-frame', 'permessage-deflate'])?->header(),
            'the defaults: no context takeover either way',
        );
        foreach ([[], ['x-webkit-deflate-frame'], ['permessage-deflate; unknown'], ['permessage-deflate; server_no_context_takeover; server_no_context_takeover'], ['permessage-deflate; server_max_window_bits=16'], ['permessage-deflate; server_max_window_bits'], ['permessage-deflate; client_max_window_bits=7'], ['permessage-deflate; server_no_context_takeover=1']] as $offer) {
            self::assertNull($policy->negotiate($offer), \implode(', ', $offer));
        }
    }

    public function testCompressedMessagesInAndOut(): void
    {
        $params = (new PerMessageDeflate(false, false, 10))->negotiate(['permessage-deflate']);
        self::assertNotNull($params);
        $session = new WebSocketSession(new WebSocketLimits(), null, $params);
        $client = new Deflater($params);
        $text = \str_repeat('κόσμε ', 100);
        $compressed = $client->deflate($text);
        // A compressed text message in three fragments, an uncompressed one, a ping between.
        $third = \intdiv(\strlen($compressed), 3);
        $input = FrameEncoder::frame(1, \substr($compressed, 0, $third), false, self::MASK, 4)
            . FrameEncoder::frame(9, 'p', true, self::MASK)
            . FrameEncoder::frame(0, \substr($compressed, $third, $third), false, self::MASK)
            . FrameEncoder::frame(0, \substr($compressed, 2 * $third), true, self::MASK)
            . FrameEncoder::frame(2, "\x00\x01", true, self::MASK)
            . FrameEncoder::frame(1, $client->deflate($text), true, self::MASK, 4);
        foreach (\str_split($input, 7) as $piece) {
            foreach ($session->receive($piece) as $event) {
                if ($event->type === EventType::Text || $event->type === EventType::Binary) {
                    self::assertSame($event->type === EventType::Text ? $text : "\x00\x01", $event->payload);
                    $event->type === EventType::Text ? $session->sendText($event->payload) : $session->sendBinary($event->payload);
                }
            }
        }
        self::assertNull($session->error());
        $output = $session->takeOutput();
        self::assertSame("\xc1", $output[3] ?? '', 'after the pong, a compressed text frame (RSV1)');
        $events = FrameParser::forClient(new WebSocketLimits(), new Deflater($params))->push($output);
        self::assertSame(['Pong', 'Text', 'Binary', 'Text'], \array_map(static fn ($e): string => $e->type->name, $events));
        self::assertSame($text, $events[1]->payload);
        self::assertSame($text, $events[3]->payload, 'the second message uses the context the first left');
    }

    /** @return array<string, array{string, CloseCode}> */
    public static function badFrames(): array
    {
        $params = new DeflateParams(false, false, 15, 15, false, 64);
        $compressed = (new Deflater($params))->deflate('hello');

        return [
            'RSV1 on a continuation' => [FrameEncoder::frame(1, 'a', false, self::MASK) . FrameEncoder::frame(0, 'b', true, self::MASK, 4), CloseCode::ProtocolError],
            'RSV1 on a ping' => [FrameEncoder::frame(9, '', true, self::MASK, 4), CloseCode::ProtocolError],
            'RSV2' => [FrameEncoder::frame(1, $compressed, true, self::MASK, 2), CloseCode::ProtocolError],
            'data that does not inflate' => [FrameEncoder::frame(1, "\xff\xff\xff\xff", true, self::MASK, 4), CloseCode::InvalidPayload],
            'invalid UTF-8 inside' => [FrameEncoder::frame(1, (new Deflater($params))->deflate("ab\xc0\xaf"), true, self::MASK, 4), CloseCode::InvalidPayload],
            'a bomb: 1 KiB that inflates past the limit' => [FrameEncoder::frame(2, (new Deflater($params))->deflate(\str_repeat("\0", 300_000)), true, self::MASK, 4), CloseCode::MessageTooBig],
        ];
    }

    /** @dataProvider badFrames */
    public function testBadCompressedFramesFailTheConnection(string $input, CloseCode $code): void
    {
        $parser = FrameParser::forServer(new WebSocketLimits(100_000, 100_000, 10), new Deflater(new DeflateParams(false, false, 15, 15, false, 64)));
        $parser->push($input);
        self::assertSame($code, $parser->error()?->closeCode);
    }

    public function testWithoutContextTakeoverEveryMessageStandsAlone(): void
    {
        $params = (new PerMessageDeflate())->negotiate(['permessage-deflate']);
        self::assertNotNull($params);
        $session = new WebSocketSession(new WebSocketLimits(), null, $params);
        $text = \str_repeat('abc', 100);
        $session->sendText($text);
        $session->sendText($text);
        $output = $session->takeOutput();
        [$first, $second] = \str_split($output, \max(1, \intdiv(\strlen($output), 2)));
        self::assertSame($first, $second, 'the same message compresses the same way twice: no shared context');
        // Each inflates with a fresh inflater.
        foreach ([$first, $second] as $frame) {
            $events = FrameParser::forClient(new WebSocketLimits(), new Deflater($params))->push($frame);
            self::assertSame($text, $events[0]->payload);
        }
    }

    public function testWithoutTheExtensionRsv1IsStillAnError(): void
    {
        $parser = FrameParser::forServer();
        $parser->push(FrameEncoder::frame(1, 'x', true, self::MASK, 4));
        self::assertSame(CloseCode::ProtocolError, $parser->error()?->closeCode);
    }
}
