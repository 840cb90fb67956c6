<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Server\Channel;

use PHPUnit\Framework\TestCase;
use Spindle\Metrics\Family;
use Spindle\Metrics\MetricType;
use Spindle\Server\Channel\BootFailed;
use Spindle\Server\Channel\Exiting;
use Spindle\Server\Channel\MalformedMessage;
use Spindle\Server\Channel\MessageCodec;
use Spindle\Server\Channel\MessageType;
use Spindle\Server\Channel\MetricsReport;
use Spindle\Server\Channel\Ready;
use Spindle\Server\Channel\Report;
use Spindle\Server\Channel\Retire;
use Spindle\Server\Channel\WorkerMessage;
use Spindle\Server\ExitCause;
use Spindle\Server\RetireReason;

/** The worker -> master wire format: every message both ways, in pieces, and garbage. */
final class MessageCodecTest extends TestCase
{
    /** @return array<string, array{WorkerMessage, string}> each message and its line */
    public static function messages(): array
    {
        return [
            'ready' => [new Ready(), '{"type":"ready"}'],
            'report' => [
                new Report(12, 1, 3, 4_194_304, 6_291_456, 0.0012, 3, 1, 2, 2),
                '{"type":"report","requests":12,"inflight":1,"connections":3,"memory":4194304,"peak":6291456,"lag":0.0012,"db":[3,1,2],"ws":2}',
            ],
            'report with no lag' => [
                new Report(0, 0, 0, 1, 1, 0.0),
                '{"type":"report","requests":0,"inflight":0,"connections":0,"memory":1,"peak":1,"lag":0.0,"db":[0,0,0],"ws":0}',
            ],
            'retire: max-requests' => [new Retire(RetireReason::MaxRequests), '{"type":"retire","reason":"max-requests"}'],
            'retire: max-memory' => [new Retire(RetireReason::MaxMemory), '{"type":"retire","reason":"max-memory"}'],
            'boot-error' => [
                new BootFailed('RuntimeException: no "db" at /var/run/x.sock'),
                '{"type":"boot-error","message":"RuntimeException: no \"db\" at /var/run/x.sock"}',
            ],
            'exiting: exit' => [new Exiting(ExitCause::Exit, 12, 9), '{"type":"exiting","reason":"exit","requests":12,"inflight":9}'],
            'exiting: fatal error' => [new Exiting(ExitCause::FatalError, 3, 0), '{"type":"exiting","reason":"fatal-error","requests":3,"inflight":0}'],
            'metrics' => [
                new MetricsReport([
                    new Family('spindle_requests_total', MetricType::Counter, 'Requests', ['status'], [], ["200" => 7.0, "404" => 1.0]),
                    new Family('spindle_lag_seconds', MetricType::Histogram, 'Lag', [], [0.01, 0.1], ['' => [[3.0, 4.0, 4.0], 0.25, 4.0]]),
                ]),
                '{"type":"metrics","families":[{"n":"spindle_requests_total","t":"counter","h":"Requests","l":["status"],"b":[],"s":{"200":7.0,"404":1.0}},'
                . '{"n":"spindle_lag_seconds","t":"histogram","h":"Lag","l":[],"b":[0.01,0.1],"s":{"":[[3.0,4.0,4.0],0.25,4.0]}}]}',
            ],
            'metrics, none' => [new MetricsReport([]), '{"type":"metrics","families":[]}'],
        ];
    }

    /** @dataProvider messages */
    public function testEachMessageIsOneLineOfTheWireFormatAndReadsBackEqual(WorkerMessage $message, string $line): void
    {
        $codec = new MessageCodec();
        $encoded = $codec->encode($message);
        self::assertSame($line . "\n", $encoded, 'the lines other readers (tests, tools) rely on');
        self::assertEquals($message, $codec->decode($line));

        $codec->push($encoded);
        self::assertEquals($message, $codec->next());
        self::assertNull($codec->next());
        self::assertFalse($codec->hasPartialLine());
    }

    public function testEveryMessageTypeHasACase(): void
    {
        $types = \array_map(static fn (array $case): MessageType => $case[0]->type(), self::messages());
        foreach (MessageType::cases() as $type) {
            self::assertContains($type, $types, $type->value);
        }
    }

    public function testMessagesReadTheSameFedWholeByteByByteAndAtRandomSplits(): void
    {
        $codec = new MessageCodec();
        $expected = \array_values(\array_map(static fn (array $case): WorkerMessage => $case[0], self::messages()));
        $bytes = \implode('', \array_map($codec->encode(...), $expected));

        self::assertEquals($expected, self::feed([$bytes]));
        self::assertEquals($expected, self::feed(\str_split($bytes)));
        \mt_srand(23);
        for ($round = 0; $round < 20; ++$round) {
            $pieces = [];
            for ($at = 0; $at < \strlen($bytes); $at += $length) {
                $length = \mt_rand(1, 200);
                $pieces[] = \substr($bytes, $at, $length);
            }
            self::assertEquals($expected, self::feed($pieces), 'round ' . $round);
        }
    }

    public function testAPartialLineWaitsForItsEnd(): void
    {
        $codec = new MessageCodec();
        $line = $codec->encode(new Retire(RetireReason::MaxMemory));
        $codec->push(\substr($line, 0, 10));
        self::assertNull($codec->next());
        self::assertTrue($codec->hasPartialLine(), 'a channel ending now ends inside a message');
        $codec->push(\substr($line, 10));
        self::assertEquals(new Retire(RetireReason::MaxMemory), $codec->next());
        self::assertFalse($codec->hasPartialLine());
    }

    /** @return array<string, array{string, string}> a line that is no message, and what the error says */
    public static function garbage(): array
    {
        return [
            'not JSON' => ['hello master', 'not a JSON object: "hello master"'],
            'an empty line' => ['', 'not a JSON object'],
            'invalid UTF-8' => ["\xff\xfe{", 'not a JSON object'],
            'a JSON string' => ['"ready"', 'not a JSON object'],
            'a JSON number' => ['42', 'not a JSON object'],
            'no type' => ['{"requests":1}', 'no message type'],
            'a type that is no string' => ['{"type":7}', 'no message type'],
            'an unknown type' => ['{"type":"nonsense"}', 'unknown message type "nonsense"'],
            'the type in another case' => ['{"type":"READY"}', 'unknown message type "READY"'],
            'a report without its figures' => ['{"type":"report","requests":1}', '"inflight" must be an integer'],
            'a count as a string' => ['{"type":"report","requests":"1","inflight":0,"connections":0,"memory":1,"peak":1,"lag":0.0}', '"requests" must be an integer'],
            'a count as a float' => ['{"type":"report","requests":1.5,"inflight":0,"connections":0,"memory":1,"peak":1,"lag":0.0}', '"requests" must be an integer'],
            'a lag that is no number' => ['{"type":"report","requests":1,"inflight":0,"connections":0,"memory":1,"peak":1,"lag":null}', '"lag" must be a number'],
            'an unknown retire reason' => ['{"type":"retire","reason":"bored"}', 'unknown retire reason'],
            'a retire reason that is no string' => ['{"type":"retire","reason":["ttl"]}', '"reason" must be a string'],
            'a boot error without its message' => ['{"type":"boot-error"}', '"message" must be a string'],
            'an unknown exit reason' => ['{"type":"exiting","reason":"bored","requests":1,"inflight":0}', 'unknown exit reason'],
            'exiting without its counts' => ['{"type":"exiting","reason":"exit"}', '"requests" must be an integer'],
            'families as an object' => ['{"type":"metrics","families":{"a":1}}', '"families" must be a list'],
            'no families' => ['{"type":"metrics"}', '"families" must be a list'],
        ];
    }

    /** @dataProvider garbage */
    public function testALineThatIsNoMessageThrowsOnceAndTheNextLineStillReads(string $line, string $error): void
    {
        $codec = new MessageCodec();
        $codec->push($line . "\n" . $codec->encode(new Ready()));
        try {
            $codec->next();
            self::fail('no error for ' . $line);
        } catch (MalformedMessage $e) {
            self::assertStringContainsString($error, $e->getMessage());
        }
        self::assertEquals(new Ready(), $codec->next(), 'the line after it');
        self::assertNull($codec->next());
    }

    public function testTheErrorQuotesALongLineShortened(): void
    {
        $codec = new MessageCodec();
        $this->expectException(MalformedMessage::class);
        $this->expectExceptionMessageMatches('/^not a JSON object: "x{120}\.\.\."$/');
        $codec->decode(\str_repeat('x', 5000));
    }

    public function testRandomBytesOnlyRaiseMalformedMessageAndTheChannelRecovers(): void
    {
        \mt_srand(5);
        for ($round = 0; $round < 200; ++$round) {
            $codec = new MessageCodec();
            $garbage = '';
            for ($i = \mt_rand(0, 300); $i > 0; --$i) {
                $garbage .= \chr(\mt_rand(0, 255));
            }
            if (\mt_rand(0, 1) === 1) {
                // Garbage that looks like a message: a real line with bytes flipped.
                $garbage = $codec->encode(new Report(1, 2, 3, 4, 5, 0.5));
                for ($i = \mt_rand(1, 5); $i > 0; --$i) {
                    $garbage[\mt_rand(0, \strlen($garbage) - 2)] = \chr(\mt_rand(0, 255));
                }
            }
            $codec->push($garbage . "\n" . $codec->encode(new Retire(RetireReason::MaxRequests)));
            $read = [];
            for ($lines = 0; $lines < 1000; ++$lines) {
                try {
                    $message = $codec->next();
                } catch (MalformedMessage) {
                    continue;
                }
                if ($message === null) {
                    break;
                }
                $read[] = $message;
            }
            self::assertEquals(new Retire(RetireReason::MaxRequests), \end($read), 'round ' . $round);
        }
    }

    public function testALineTooLongIsDroppedWholeWithOneError(): void
    {
        $codec = new MessageCodec();
        $codec->push($codec->encode(new Ready()) . \str_repeat('x', MessageCodec::MAX_LINE + 1));
        self::assertEquals(new Ready(), $codec->next());
        try {
            $codec->next();
            self::fail('no error for a line over the limit');
        } catch (MalformedMessage $e) {
            self::assertStringContainsString(\sprintf('a line longer than %d bytes', MessageCodec::MAX_LINE), $e->getMessage());
        }
        self::assertFalse($codec->hasPartialLine(), 'what was kept of it is gone');
        // The rest of that line, then a message.
        $codec->push(\str_repeat('y', 5000) . '}' . "\n");
        self::assertNull($codec->next(), 'the end of the dropped line is no second error');
        $codec->push($codec->encode(new Retire(RetireReason::MaxMemory)));
        self::assertEquals(new Retire(RetireReason::MaxMemory), $codec->next());

        // Over the limit with its newline already there: one error too.
        $codec->push(\str_repeat('z', MessageCodec::MAX_LINE + 1) . "\n" . $codec->encode(new Ready()));
        try {
            $codec->next();
            self::fail('no error for a whole line over the limit');
        } catch (MalformedMessage) {
        }
        self::assertEquals(new Ready(), $codec->next());
    }

    public function testAMetricsFamilyThatDoesNotReadBackIsLeftOutAndTheOthersCount(): void
    {
        $codec = new MessageCodec();
        $message = $codec->decode('{"type":"metrics","families":[{"n":"bad name!","t":"counter","h":"","l":[],"b":[],"s":{"":1.0}},'
            . '{"n":"spindle_ok_total","t":"counter","h":"ok","l":[],"b":[],"s":{"":2.0}},"junk"]}');
        self::assertInstanceOf(MetricsReport::class, $message);
        self::assertSame(['spindle_ok_total'], \array_map(static fn (Family $family): string => $family->name, $message->families));
    }

    public function testFieldsItDoesNotKnowAreIgnored(): void
    {
        self::assertEquals(new Retire(RetireReason::MaxRequests), (new MessageCodec())->decode('{"type":"retire","reason":"max-requests","since":3}'));
    }

    public function testAValueJsonCannotHoldIsRefusedWhenEncoding(): void
    {
        $this->expectException(\InvalidArgumentException::class);
        $this->expectExceptionMessage('The report message cannot be encoded');
        (new MessageCodec())->encode(new Report(1, 0, 0, 1, 1, \INF));
    }

    /**
     * @param list<string> $pieces
     *
     * @return list<WorkerMessage>
     */
    private static function feed(array $pieces): array
    {
        $codec = new MessageCodec();
        $read = [];
        foreach ($pieces as $piece) {
            $codec->push($piece);
            while (($message = $codec->next()) !== null) {
                $read[] = $message;
            }
        }

        return $read;
    }
}
