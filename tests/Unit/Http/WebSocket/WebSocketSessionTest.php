<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Http\WebSocket;

use PHPUnit\Framework\TestCase;
use Spindle\Http\WebSocket\CloseCode;
use Spindle\Http\WebSocket\Event;
use Spindle\Http\WebSocket\EventType;
use Spindle\Http\WebSocket\FrameEncoder;
use Spindle\Http\WebSocket\FrameParser;
use Spindle\Http\WebSocket\SessionClosed;
use Spindle\Http\WebSocket\SessionState;
use Spindle\Http\WebSocket\WebSocketLimits;
use Spindle\Http\WebSocket\WebSocketSession;

final class WebSocketSessionTest extends TestCase
{
    private const MASK = "\x01\x02\x03\x04";

    private static function c(int $opcode, string $payload = '', bool $fin = true): string
    {
        return FrameEncoder::frame($opcode, $payload, $fin, self::MASK);
    }

    /** @return list<array{string, string, int}> the session's output as the client sees it */
    private static function output(WebSocketSession $session): array
    {
        return \array_map(
            static fn (Event $e): array => [$e->type->name, $e->payload, $e->closeCode],
            FrameParser::forClient()->push($session->takeOutput()),
        );
    }

    public function testMessagesComeOutAndPingsAreAnsweredAtOnce(): void
    {
        $session = new WebSocketSession();
        $events = $session->receive(self::c(1, 'a', false) . self::c(9, 'are you there') . self::c(0, 'b'));
        self::assertSame([EventType::Ping, EventType::Text], \array_map(static fn (Event $e): EventType => $e->type, $events));
        self::assertSame('ab', $events[1]->payload);
        self::assertSame([['Pong', 'are you there', 0]], self::output($session));
        self::assertSame(SessionState::Open, $session->state());
    }

    public function testSentMessagesAreUnmaskedFramesInOrder(): void
    {
        $session = new WebSocketSession();
        $session->sendText('hello');
        $session->sendBinary("\x00\xff");
        $session->sendText(\str_repeat('é', 200));
        $session->ping('p');
        self::assertSame([['Text', 'hello', 0], ['Binary', "\x00\xff", 0], ['Text', \str_repeat('é', 200), 0], ['Ping', 'p', 0]], self::output($session));
        self::assertFalse($session->hasOutput());
    }

    public function testOutgoingMessagesAreFragmentedWhenTheLimitsSaySo(): void
    {
        $session = new WebSocketSession(new WebSocketLimits(outgoingFragmentBytes: 4));
        $session->sendText('0123456789');
        $bytes = $session->takeOutput();
        self::assertSame("\x01\x040123\x00\x044567\x80\x0289", $bytes);
        self::assertSame([['Text', '0123456789', 0]], \array_map(static fn (Event $e): array => [$e->type->name, $e->payload, 0], FrameParser::forClient()->push($bytes)));
    }

    public function testThePeersCloseIsEchoedAndTheSessionIsClosed(): void
    {
        $session = new WebSocketSession();
        $events = $session->receive(self::c(8, "\x0f\xa0going"));
        self::assertSame(EventType::Close, $events[0]->type);
        self::assertSame(4000, $events[0]->closeCode);
        self::assertSame(SessionState::Closed, $session->state());
        self::assertSame(4000, $session->closeCode());
        self::assertSame('going', $session->closeReason());
        self::assertTrue($session->closeReceived());
        self::assertSame([['Close', '', 4000]], self::output($session));
        self::assertTrue($session->shouldCloseTransport());
        self::assertSame([], $session->receive(self::c(1, 'late')));
        $this->expectException(SessionClosed::class);
        $session->sendText('too late');
    }

    public function testAnEmptyCloseIsAnsweredWithAnEmptyClose(): void
    {
        $session = new WebSocketSession();
        $session->receive(self::c(8));
        self::assertSame("\x88\x00", $session->takeOutput());
        self::assertSame(1005, $session->closeCode());
    }

    public function testClosingWaitsForThePeersClose(): void
    {
        $session = new WebSocketSession();
        $session->close(CloseCode::GoingAway, 'restart');
        self::assertSame(SessionState::Closing, $session->state());
        self::assertSame([['Close', 'restart', 1001]], self::output($session));
        self::assertFalse($session->shouldCloseTransport());
        // Messages still in flight are delivered; pings are not answered any more.
        $events = $session->receive(self::c(1, 'in flight') . self::c(9));
        self::assertCount(2, $events);
        self::assertSame('', $session->takeOutput());
        $session->receive(self::c(8, "\x03\xe9"));
        self::assertSame(SessionState::Closed, $session->state());
        self::assertSame('', $session->takeOutput(), 'no second close frame');
        self::assertSame(1001, $session->closeCode());
        self::assertTrue($session->shouldCloseTransport());
    }

    public function testAProtocolErrorSendsItsCloseCodeAndClosesTheSession(): void
    {
        foreach ([
            [self::c(1, "\xff"), 1007],
            [FrameEncoder::frame(1, 'unmasked'), 1002],
            [self::c(8, "\x03\xed"), 1002],
            [self::c(2, \str_repeat('x', 200)), 1009],
        ] as [$input, $code]) {
            $session = new WebSocketSession(new WebSocketLimits(150, 150, 4));
            self::assertSame([], $session->receive($input));
            self::assertSame(SessionState::Closed, $session->state());
            self::assertSame($code, $session->closeCode());
            self::assertSame($code, $session->error()?->closeCode->value);
            $out = self::output($session);
            self::assertSame('Close', $out[0][0]);
            self::assertSame($code, $out[0][2]);
        }
    }

    public function testRepliesToMessagesBeforeAnErrorGoOutBeforeTheClose(): void
    {
        $session = new WebSocketSession();
        $events = $session->receive(self::c(1, 'first') . self::c(3));
        self::assertSame('first', $events[0]->payload);
        self::assertSame(SessionState::Open, $session->state(), 'until the app had its turn');
        $session->sendText('reply');
        self::assertSame([['Text', 'reply', 0], ['Close', 'Reserved opcode 3', 1002]], self::output($session));
        self::assertSame(SessionState::Closed, $session->state());
    }

    public function testALostConnectionIsClosedWith1006(): void
    {
        $session = new WebSocketSession();
        $session->sendText('unsent');
        $session->connectionLost();
        self::assertSame(SessionState::Closed, $session->state());
        self::assertSame(1006, $session->closeCode());
        self::assertSame('', $session->takeOutput());
    }

    public function testCountersAndTheInjectedClock(): void
    {
        $now = 100.0;
        $session = new WebSocketSession(new WebSocketLimits(), static function () use (&$now): float {
            return $now;
        });
        self::assertNull($session->counters()->lastReceivedAt);
        $input = self::c(1, 'abc') . self::c(2, 'de') . self::c(9);
        $session->receive($input);
        $now = 105.5;
        $session->sendText('xyz');
        $counters = $session->counters();
        self::assertSame(2, $counters->messagesIn);
        self::assertSame(1, $counters->messagesOut);
        self::assertSame(\strlen($input), $counters->bytesIn);
        self::assertSame(2 + 5, $counters->bytesOut, 'a pong and a 3-byte text frame');
        self::assertSame(100.0, $counters->lastReceivedAt);
        self::assertSame(105.5, $counters->lastSentAt);
    }

    public function testGarbageEndsInAnEventOrACloseFrameNeverInAnotherError(): void
    {
        \mt_srand(4242);
        for ($round = 0; $round < 2000; ++$round) {
            $session = new WebSocketSession(new WebSocketLimits(200, 150, 3));
            $input = $round % 2 === 0 ? self::c(1, 'ok') : '';
            for ($i = \mt_rand(1, 4); $i > 0; --$i) {
                $input .= \mt_rand(0, 1) === 0
                    ? FrameParserTest::bytes(\mt_rand(1, 40))
                    : FrameEncoder::frame(\mt_rand(0, 15), \str_repeat("\xce", \mt_rand(0, 130)), \mt_rand(0, 3) > 0, \mt_rand(0, 5) > 0 ? self::MASK : null);
            }
            try {
                foreach (\str_split($input, \mt_rand(1, 16)) as $piece) {
                    $session->receive($piece);
                }
                $output = $session->takeOutput();
            } catch (\Throwable $e) {
                self::fail(\sprintf('seed 4242, round %d, input %s: %s %s', $round, \bin2hex($input), $e::class, $e->getMessage()));
            }
            if ($session->state() === SessionState::Closed) {
                self::assertNotNull($session->closeCode());
                self::assertStringContainsString("\x88", $output, 'a close frame went out');
            }
        }
    }

    public function testCloseRefusesCodesThatMayNotBeSent(): void
    {
        $session = new WebSocketSession();
        $this->expectException(\InvalidArgumentException::class);
        $session->close(1006);
    }
}
