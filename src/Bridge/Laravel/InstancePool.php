<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel;

use Revolt\EventLoop;
use Revolt\EventLoop\Suspension;
use Spindle\Loop\Loop;

/**
 * The booted app instances of one worker. A request borrows one for its whole life and gives it
 * back; instances are booted when a request finds none idle, up to $max, and past that requests
 * wait in arrival order (only their own fiber waits).
 *
 * @template T of object
 */
final class InstancePool
{
    /** @var list<T> most recently returned last */
    private array $idle = [];
    private int $size = 0;
    /** @var \SplQueue<Suspension<T|null>> */
    private \SplQueue $waiters;

    /** @param \Closure(): T $factory */
    public function __construct(
        private readonly \Closure $factory,
        private readonly int $max,
    ) {
        if ($max < 1) {
            throw new \InvalidArgumentException(\sprintf('An instance pool needs room for at least one instance, got %d', $max));
        }
        $this->waiters = new \SplQueue();
    }

    /** @return T */
    public function borrow(): object
    {
        $instance = \array_pop($this->idle);
        if ($instance !== null) {
            return $instance;
        }
        if ($this->size < $this->max) {
            return $this->create();
        }
        /** @var Suspension<T|null> $suspension */
        $suspension = EventLoop::getSuspension();
        $this->waiters->enqueue($suspension);
        $context = Loop::context();
        // A cancellation (request timeout) must not interrupt the wait, or the instance handed
        // to this fiber meanwhile would be lost: take it, give it back, then give up.
        $instance = $context === null ? $suspension->suspend() : $context->shield($suspension->suspend(...));
        $cancellation = $context?->takeCancellation();
        if ($cancellation !== null) {
            if ($instance !== null) {
                $this->release($instance);
            } else {
                $this->handOverRoom();
            }

            throw $cancellation;
        }

        return $instance ?? $this->create();
    }

    /** @param T $instance */
    public function release(object $instance): void
    {
        if (!$this->waiters->isEmpty()) {
            $this->waiters->dequeue()->resume($instance);

            return;
        }
        $this->idle[] = $instance;
    }

    /** Throws away a borrowed instance (its reset failed); a waiting request boots a new one. */
    /** @param T $instance */
    public function discard(object $instance): void
    {
        --$this->size;
        $this->handOverRoom();
    }

    /** Adds an instance booted outside the pool (the first, at worker start). */
    /** @param T $instance */
    public function add(object $instance): void
    {
        ++$this->size;
        $this->release($instance);
    }

    public function size(): int
    {
        return $this->size;
    }

    public function idle(): int
    {
        return \count($this->idle);
    }

    public function max(): int
    {
        return $this->max;
    }

    /** @return T */
    private function create(): object
    {
        ++$this->size;
        try {
            return ($this->factory)();
        } catch (\Throwable $e) {
            --$this->size;
            $this->handOverRoom();

            throw $e;
        }
    }

    /** There is room for one more instance: the first waiter (if any) boots it. */
    private function handOverRoom(): void
    {
        if (!$this->waiters->isEmpty()) {
            $this->waiters->dequeue()->resume(null);
        }
    }
}
