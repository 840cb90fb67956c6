<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Bridge;

use PHPUnit\Framework\TestCase;
use Revolt\EventLoop;
use Spindle\Bridge\ReleasedObjects;
use Spindle\Tests\Unit\Server\MemoryLogger;

final class ReleasedObjectsTest extends TestCase
{
    /** @var list<object> what a leaking app keeps, read by StaticHolder */
    public static array $kept = [];

    protected function tearDown(): void
    {
        self::$kept = [];
    }

    public function testAnObjectFreedOnceLetGoIsNotReported(): void
    {
        $logger = new MemoryLogger();
        $released = self::released($logger);
        $released->watch(2, new \stdClass());
        EventLoop::run();

        self::assertSame([], $logger->messages('warning'));
    }

    public function testOneStillHeldIsReportedOnceWithTheStaticThatHoldsIt(): void
    {
        $logger = new MemoryLogger();
        $released = self::released($logger);
        self::$kept[] = $held = new \stdClass();
        $released->watch(2, $held);
        self::$kept[] = $another = new \stdClass();
        $released->watch(3, $another);
        unset($held, $another);
        EventLoop::run();

        $warnings = $logger->messages('warning');
        self::assertCount(1, $warnings, 'said once per worker');
        self::assertStringStartsWith('Test object 2 was let go but is still referenced from ' . self::class . '::$kept[0]', $warnings[0]);
        self::assertStringEndsWith('advice for ' . self::class . '::$kept[0]', $warnings[0]);
    }

    public function testAnExemptOneIsLookedAtAgainAtTheNextCheck(): void
    {
        $logger = new MemoryLogger();
        $exempt = 2;
        $released = new ReleasedObjects($logger, 'Test object', static function (int $number) use (&$exempt): bool {
            return $number === $exempt;
        }, static fn (?string $holder): string => 'advice');
        self::$kept[] = $held = new \stdClass();
        $released->watch(2, $held);
        unset($held);
        EventLoop::run();
        self::assertSame([], $logger->messages('warning'), 'the exempt one may stay reachable');

        $exempt = 3;
        $released->watch(3, new \stdClass());
        EventLoop::run();
        self::assertCount(1, $logger->messages('warning'));
        self::assertStringStartsWith('Test object 2 was let go', $logger->messages('warning')[0]);
    }

    private static function released(MemoryLogger $logger): ReleasedObjects
    {
        return new ReleasedObjects(
            $logger,
            'Test object',
            static fn (int $number): bool => false,
            static fn (?string $holder): string => 'advice for ' . ($holder ?? 'nothing'),
        );
    }
}
