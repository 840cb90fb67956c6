<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Bridge;

use PHPUnit\Framework\TestCase;
use Spindle\Bridge\StaticHolder;

final class StaticHolderTest extends TestCase
{
    protected function tearDown(): void
    {
        HolderFixture::$callbacks = [];
        HolderFixture::$map = null;
    }

    public function testNamesTheStaticAndThePathThroughAClosureThatHoldsTheObject(): void
    {
        $target = new \stdClass();
        $owner = new HolderOwner($target);
        HolderFixture::$callbacks['boot'] = $owner->callback();

        self::assertSame(HolderFixture::class . '::$callbacks[boot]{$this}->held', StaticHolder::find($target));
    }

    public function testFollowsUseVariablesAndTheValuesOfAWeakMap(): void
    {
        $target = new \stdClass();
        $key = new \stdClass();
        HolderFixture::$map = new \WeakMap();
        HolderFixture::$map[$key] = static fn () => $target;

        self::assertSame(HolderFixture::class . '::$map[stdClass value]{use $target}', StaticHolder::find($target));
        unset($key);
    }

    public function testAnObjectNoStaticReachesHasNoHolder(): void
    {
        self::assertNull(StaticHolder::find(new \stdClass()));
    }
}

final class HolderFixture
{
    /** @var array<string, \Closure> */
    public static array $callbacks = [];
    /** @var \WeakMap<object, \Closure>|null */
    public static ?\WeakMap $map = null;
}

final class HolderOwner
{
    public function __construct(private readonly object $held)
    {
    }

    public function callback(): \Closure
    {
        return fn (): object => $this->held;
    }
}
