<?php

declare(strict_types=1);

namespace Spindle\Tests\Architecture;

use PHPat\Selector\Selector;
use PHPat\Test\Builder\Rule;
use PHPat\Test\PHPat;

/**
 * Loop owns its task protocol and its drivers, checked by PHPStan through phpat in the test
 * command.
 *
 * Starting a task is leave the running task → inherit its state → attach a context → start the
 * fiber → come back: only Loop does it (TaskRunner, Loop::startChild()), so no other layer makes
 * a fiber of its own. The drivers and what they stand on (epoll through FFI, the suspension that
 * wraps a task's waits) sit in Spindle\Loop\Driver, which only Loop may use: the rest of Spindle
 * reaches them through Loop's API (Loop::install(), Loop::raiseDescriptorLimit(), …).
 */
final class LoopRules
{
    public function testOnlyLoopStartsFibers(): Rule
    {
        return PHPat::rule()
            ->classes(Selector::inNamespace('Spindle'))
            ->excluding(Selector::inNamespace('Spindle\Loop'))
            ->shouldNotConstruct()
            ->classes(Selector::classname(\Fiber::class));
    }

    public function testOnlyLoopUsesItsDriverInternals(): Rule
    {
        return PHPat::rule()
            ->classes(Selector::inNamespace('Spindle'))
            ->excluding(Selector::inNamespace('Spindle\Loop'))
            ->shouldNotDependOn()
            ->classes(Selector::inNamespace('Spindle\Loop\Driver'));
    }
}
