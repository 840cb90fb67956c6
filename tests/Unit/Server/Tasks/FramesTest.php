<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Server\Tasks;

use PHPUnit\Framework\TestCase;
use Random\Engine\Mt19937;
use Random\Randomizer;
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

    public function testNotesAreToldFromResults(): void
    {
        $payloads = (new Frames())->push(Frames::note('pusher.publish', '{}') . Frames::encode(['ok', 'note']) . Frames::encode(['error', 'note', 'x']) . Frames::encode(['note', 'a', 'b', 'c']));
        self::assertSame([true, false, false, false], \array_map(Frames::isNote(...), $payloads));
        self::assertSame(['note', 'pusher.publish', '{}'], \unserialize($payloads[0]));
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
        // Random splits: seeds 0 to 19, named on failure.
        for ($seed = 0; $seed < 20; ++$seed) {
            $random = new Randomizer(new Mt19937($seed));
            $frames = new Frames();
            $out = [];
            for ($at = 0; $at < \strlen($stream);) {
                $n = $random->getInt(1, 9000);
                \array_push($out, ...$frames->push(\substr($stream, $at, $n)));
                $at += $n;
            }
            self::assertSame(\array_map('serialize', self::values()), $out, "seed {$seed}");
        }
    }

    public function testGarbageOnlyRaisesItsOwnErrorOrWaits(): void
    {
        // Seeds 0 to 199, named on failure.
        for ($seed = 0; $seed < 200; ++$seed) {
            $random = new Randomizer(new Mt19937($seed));
            try {
                $frames = (new Frames())->push($random->getBytes($random->getInt(1, 64)));
                self::assertIsArray($frames, "seed {$seed}");
            } catch (TaskFailed $e) {
                self::assertStringContainsString('more than the', $e->getMessage(), "seed {$seed}");
            }
        }
        $this->expectException(TaskFailed::class);
        (new Frames())->push("\xff\xff\xff\xff");
    }
}
