<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Loop;

use PHPUnit\Framework\TestCase;
use Spindle\Loop\EventLoopKind;

final class EventLoopKindTest extends TestCase
{
    public function testAutoKeepsSelectWhileItCanHoldTheConnections(): void
    {
        self::assertSame(EventLoopKind::Select, EventLoopKind::Auto->resolve(null));
        self::assertSame(EventLoopKind::Select, EventLoopKind::Auto->resolve(512));
        self::assertSame(EventLoopKind::Select, EventLoopKind::Auto->resolve(EventLoopKind::SELECT_CONNECTIONS));
    }

    public function testAutoTakesEpollBeyondWhereItCanRun(): void
    {
        $expected = EventLoopKind::epollProblem() === null ? EventLoopKind::Epoll : EventLoopKind::Select;
        self::assertSame($expected, EventLoopKind::Auto->resolve(EventLoopKind::SELECT_CONNECTIONS + 1));
    }

    public function testAnExplicitChoiceStandsAndSetsTheDefaultCap(): void
    {
        self::assertSame(EventLoopKind::Select, EventLoopKind::Select->resolve(5000));
        self::assertSame(EventLoopKind::Epoll, EventLoopKind::Epoll->resolve(10));
        self::assertSame(512, EventLoopKind::Select->defaultConnections());
        self::assertSame(EventLoopKind::EPOLL_CONNECTIONS, EventLoopKind::Epoll->defaultConnections());
    }
}
