<?php

declare(strict_types=1);

namespace Spindle\Bridge;

use Revolt\EventLoop;

/**
 * A streamed response body that runs inside the request's app instance: the instance is made
 * current for every piece (InstanceLease::resumed()), and the lease ends when the body is done,
 * fails, or is dropped without being read (a HEAD request, a client that went away).
 *
 * A body still streaming DETACH_AFTER seconds after it began (server-sent events, a long
 * download) detaches its instance from the pool (InstanceLease::detach()): it keeps the instance
 * its callback runs in, but no longer takes one of the pool's places, so long streams do not
 * starve the requests behind them; the instance is let go when the stream ends.
 *
 * @implements \IteratorAggregate<int, string>
 */
final class LeasedBody implements \IteratorAggregate
{
    /** Seconds a body streams before its instance is detached from the pool. */
    public const DETACH_AFTER = 2.0;

    /** @param iterable<string> $body */
    public function __construct(
        private readonly iterable $body,
        private readonly InstanceLease $lease,
    ) {
    }

    public function __destruct()
    {
        $this->lease->end();
    }

    public function getIterator(): \Generator
    {
        $lease = $this->lease;
        $timer = EventLoop::unreference(EventLoop::delay(self::DETACH_AFTER, $lease->detach(...)));
        try {
            $lease->resumed();
            foreach ($this->body as $piece) {
                yield $piece;
                $lease->resumed();
            }
        } finally {
            EventLoop::cancel($timer);
            $lease->end();
        }
    }
}
