<?php

declare(strict_types=1);

namespace Spindle\Loop\Wait;

use Revolt\EventLoop\Suspension;

/**
 * @internal A fiber suspended in WaitQueue::wait(). What it is granted is kept here, not only
 * passed through resume(): a fiber cancelled while it waits never takes the grant, and the queue
 * hands it on.
 *
 * @template T
 */
final class Waiter
{
    public WaitState $state = WaitState::Waiting;
    /** @var T|null what grant() handed over */
    public mixed $value = null;

    /** @param \Revolt\EventLoop\Suspension<mixed> $suspension */
    public function __construct(
        public readonly Suspension $suspension,
        public readonly mixed $tag,
    ) {
    }
}
