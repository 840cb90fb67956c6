<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Server\Peers;

use PHPUnit\Framework\TestCase;
use Spindle\Server\Peers\RelayCodec;
use Spindle\Server\Peers\RelayException;
use Spindle\Server\Peers\RelayKind;

final class RelayCodecTest extends TestCase
{
    /** @return list<array{RelayKind, string}> */
    private static function frames(): array
    {
        return [
            [RelayKind::Hello, 'host/12/abcdef'],
            [RelayKind::Message, "host/12/abcdef\n" . '{"t":"send","f":"x\ny"}'],
            [RelayKind::Gone, 'host/13/0123'],
            [RelayKind::Message, "o\n" . \str_repeat("\0\xff", 40_000)],
            [RelayKind::Message, "o\n"],
        ];
    }

    private static function stream(): string
    {
        return \implode('', \array_map(static fn (array $f): string => RelayCodec::encode($f[0], $f[1]), self::frames()));
    }

    /** @return list<array{RelayKind, string}> */
    private static function decode(RelayCodec $codec): array
    {
        $out = [];
        while (($frame = $codec->next()) !== null) {
            $out[] = [$frame->kind, $frame->payload];
            self::assertSame(RelayCodec::encode($frame->kind, $frame->payload), $frame->bytes);
        }

        return $out;
    }

    public function testWholeByteByByteAndAtRandomSplits(): void
    {
        $codec = new RelayCodec();
        $codec->push(self::stream());
        self::assertEquals(self::frames(), self::decode($codec));
        self::assertSame(0, $codec->pending());

        $codec = new RelayCodec();
        $out = [];
        foreach (\str_split(\substr(self::stream(), 0, 3000)) as $byte) {
            $codec->push($byte);
            \array_push($out, ...self::decode($codec));
        }
        self::assertEquals(\array_slice(self::frames(), 0, 3), $out);

        for ($round = 0; $round < 20; ++$round) {
            $codec = new RelayCodec();
            $bytes = self::stream();
            $out = [];
            while ($bytes !== '') {
                $n = \random_int(1, 9000);
                $codec->push(\substr($bytes, 0, $n));
                $bytes = (string) \substr($bytes, $n);
                \array_push($out, ...self::decode($codec));
            }
            self::assertEquals(self::frames(), $out);
        }
    }

    public function testMessagesSplitIntoOriginAndMessage(): void
    {
        self::assertSame(['host/1/ab', "a\nb"], RelayCodec::splitMessage("host/1/ab\na\nb"));
        $this->expectException(RelayException::class);
        RelayCodec::splitMessage('no origin');
    }

    public function testGarbageRaisesTheCodecsOwnException(): void
    {
        foreach (["\0\0\0\0X", "\xff\xff\xff\xffM", "\0\0\0\2Zz"] as $bad) {
            $codec = new RelayCodec();
            $codec->push($bad);
            try {
                $codec->next();
                self::fail('No exception for ' . \bin2hex($bad));
            } catch (RelayException) {
                $this->addToAssertionCount(1);
            }
        }
        for ($round = 0; $round < 200; ++$round) {
            $codec = new RelayCodec();
            $codec->push(\random_bytes(\random_int(1, 64)));
            try {
                while ($codec->next() !== null) {
                }
            } catch (RelayException) {
            }
            self::assertGreaterThanOrEqual(0, $codec->pending());
        }
    }
}
