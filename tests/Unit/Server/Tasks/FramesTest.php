<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Server\Tasks;

use PHPUnit\Framework\TestCase;
use Spindle\Server\Tasks\Frames;
use Spindle\Server\Tasks\TaskFailed;

/** The task protocol's framing, fed whole, byte by byte, at random split points and with garbage. */
final class FramesTest extends TestCase
{
    /** @return list<mixed> */
    private static function values(): array
    {
        return [['password_hash', ['secret', '2y', ['cost' => 4]]], ['ok', \str_repeat('x', 70000)], null, ['error', 'DomainException', "a\nb"]];
    }

    private static function stream(): string
    {
        return \implode('', \array_map(Frames::encode(...), self::values()));
    }

    public function testWhole(): void
    {
        self::assertSame(\array_map('serialize', self::values()), (new Frames())->push(self::stream()));
    }

    public function testByteByByteAndAtRandomSplits(): void
    {
        $stream = self::stream();
        $frames = new Frames();
        $out = [];
        foreach (\str_split($stream) as $byte) {
            \array_push($out, ...$frames->push($byte));
        }
        self::assertSame(\array_map('serialize', self::values()), $out);
        for ($round = 0; $round < 20; ++$round) {
            $frames = new Frames();
            $out = [];
            for ($at = 0; $at < \strlen($stream);) {
                $n = \random_int(1, 9000);
                \array_push($out, ...$frames->push(\substr($stream, $at, $n)));
                $at += $n;
            }
            self::assertSame(\array_map('serialize', self::values()), $out);
        }
    }

    public function testGarbageOnlyRaisesItsOwnErrorOrWaits(): void
    {
        for ($round = 0; $round < 200; ++$round) {
            try {
                $frames = (new Frames())->push(\random_bytes(\random_int(1, 64)));
                self::assertIsArray($frames);
            } catch (TaskFailed $e) {
                self::assertStringContainsString('more than the', $e->getMessage());
            }
        }
        $this->expectException(TaskFailed::class);
        (new Frames())->push("\xff\xff\xff\xff");
    }
}
