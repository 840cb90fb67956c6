<?php

declare(strict_types=1);

namespace Spindle\Loop;

use Revolt\EventLoop;
use Spindle\Loop\Wait\WaitState;
use Spindle\Loop\Wait\Waiter;

/**
 * Fibers waiting, first come first served, for something handed out one at a time: a pooled
 * connection, a request slot, an app instance. A fiber waits in wait(); whoever frees something
 * hands it to the first waiter with grant() (or to the first waiter for a given tag with
 * grantWhere()). Only the waiting fiber is suspended.
 *
 * A wait ends one of four ways, and the waiter always leaves the queue:
 * - granted: wait() returns the value handed over;
 * - deadline: after $timeout seconds wait() throws what $onTimeout returns;
 * - cancelled: the task was cancelled (its request timed out): the cancellation is thrown;
 * - failAll(): every waiter gets the exception (a pool that closes).
 *
 * A value granted to a fiber that leaves before it runs again (cancelled at the same moment) is
 * not lost: it goes to the wait's $unclaimed closure, which hands it on (to the next waiter, back
 * idle). The queue keeps no closure of its owner's beyond a wait, so an owner that holds a queue
 * is not part of a reference cycle and is freed (and its destructor run) as soon as it is let go.
 *
 *     $queue = new WaitQueue();
 *     $connection = $queue->wait(5.0, fn () => new PoolTimeout('…'), unclaimed: $this->giveBack(...)); // borrower
 *     if (!$queue->grant($connection)) { $this->idle[] = $connection; }                              // releaser
 *
 * @template T
 */
final class WaitQueue
{
    /** @var array<int, Waiter<T>> in arrival order */
    private array $waiters = [];
    private int $next = 0;

    /**
     * Suspends the calling fiber until grant() hands it a value.
     *
     * @param float $timeout seconds to wait at most (INF: no deadline)
     * @param (\Closure(): \Throwable)|null $onTimeout the exception thrown at the deadline (default WaitTimeout)
     * @param mixed $tag what this waiter waits for, for grantWhere()
     * @param (\Closure(T): void)|null $unclaimed gets the value granted to this waiter if it leaves before taking it
     *
     * @return T
     */
    public function wait(float $timeout = \INF, ?\Closure $onTimeout = null, mixed $tag = null, ?\Closure $unclaimed = null): mixed
    {
        if (\is_nan($timeout) || $timeout < 0) {
            throw new \InvalidArgumentException('A wait timeout is 0 or more seconds (INF: no deadline)');
        }
        /** @var Waiter<T> $waiter */
        $waiter = new Waiter(EventLoop::getSuspension(), $tag);
        $id = $this->next++;
        $this->waiters[$id] = $waiter;
        $timer = \is_finite($timeout)
            ? EventLoop::delay($timeout, function () use ($id, $waiter, $timeout, $onTimeout): void {
                if ($waiter->state !== WaitState::Waiting) {
                    return;
                }
                unset($this->waiters[$id]);
                $waiter->state = WaitState::Failed;
                $waiter->suspension->throw($onTimeout !== null ? $onTimeout() : new WaitTimeout(\sprintf('Nothing was handed over within %s s', $timeout)));
            })
            : null;
        try {
            $waiter->suspension->suspend();
            if ($waiter->state !== WaitState::Granted) {
                throw new \LogicException('A fiber waiting in a WaitQueue was resumed without a grant');
            }
            $waiter->state = WaitState::Taken;
        } finally {
            if ($timer !== null) {
                EventLoop::cancel($timer);
            }
            if ($waiter->state === WaitState::Waiting) {
                // Left some other way: its task was cancelled, or an exception was thrown in.
                unset($this->waiters[$id]);
                $waiter->state = WaitState::Failed;
            } elseif ($waiter->state === WaitState::Granted) {
                // Granted, but an exception reached the fiber first: hand the value on.
                $waiter->state = WaitState::Failed;
                /** @var T $value */
                $value = $waiter->value;
                $waiter->value = null;
                if ($unclaimed !== null) {
                    $unclaimed($value);
                }
            }
        }
        /** @var T $value */
        $value = $waiter->value;
        $waiter->value = null;

        return $value;
    }

    /**
     * Hands $value to the first waiter and wakes it; false (and $value kept by the caller) when
     * nobody waits.
     *
     * @param T $value
     */
    public function grant(mixed $value): bool
    {
        $id = \array_key_first($this->waiters);
        if ($id === null) {
            return false;
        }
        $this->hand($id, $value);

        return true;
    }

    /**
     * Hands $value to the first waiter whose tag $accepts; false when none does.
     *
     * @param \Closure(mixed): bool $accepts
     * @param T $value
     */
    public function grantWhere(\Closure $accepts, mixed $value): bool
    {
        foreach ($this->waiters as $id => $waiter) {
            if ($accepts($waiter->tag)) {
                $this->hand($id, $value);

                return true;
            }
        }

        return false;
    }

    /** Throws $error into every waiter (a pool that closes); the queue is empty afterwards. */
    public function failAll(\Throwable $error): void
    {
        $waiters = $this->waiters;
        $this->waiters = [];
        foreach ($waiters as $waiter) {
            $waiter->state = WaitState::Failed;
            $waiter->suspension->throw($error);
        }
    }

    /** Fibers waiting now. */
    public function count(): int
    {
        return \count($this->waiters);
    }

    public function isEmpty(): bool
    {
        return $this->waiters === [];
    }

    /** Waits begun since the queue was made (whatever their end). */
    public function waits(): int
    {
        return $this->next;
    }

    /** @param T $value */
    private function hand(int $id, mixed $value): void
    {
        $waiter = $this->waiters[$id];
        unset($this->waiters[$id]);
        $waiter->value = $value;
        $waiter->state = WaitState::Granted;
        $waiter->suspension->resume();
    }
}
