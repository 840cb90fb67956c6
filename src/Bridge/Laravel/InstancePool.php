<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel;

use Revolt\EventLoop;
use Revolt\EventLoop\Suspension;
use Spindle\Loop\Context;
use Spindle\Loop\Loop;
use Spindle\Loop\TaskRunner;

/**
 * The booted app instances of one worker. A request borrows one for its whole life and gives it
 * back; instances are booted when a request finds none idle, up to $max, and past that requests
 * wait in arrival order (only their own fiber waits).
 *
 * Inside the event loop, boots run in the background, one per loop iteration, and the request
 * that needs one waits for the first instance that becomes free (booted or given back): a burst
 * of requests then costs the worker one boot at a time with its other requests served in between,
 * instead of one long stall while every boot runs back to back. The pool also keeps $spare
 * instances booted ahead of need.
 *
 * @template T of object
 */
final class InstancePool
{
    /** @var list<T> most recently returned last */
    private array $idle = [];
    private int $size = 0;
    /** Boots counted in $size that have not run yet. */
    private int $queued = 0;
    private bool $scheduled = false;
    /** Runs the background boots, each as a task of its own. */
    private readonly TaskRunner $runner;
    /** @var \SplQueue<Suspension<T|null>> */
    private \SplQueue $waiters;

    /** @param \Closure(): T $factory */
    public function __construct(
        private readonly \Closure $factory,
        private readonly int $max,
        private readonly int $spare = 0,
        /** @var (\Closure(\Throwable): void)|null told about a background boot that failed */
        private readonly ?\Closure $onBootFailure = null,
    ) {
        if ($max < 1) {
            throw new \InvalidArgumentException(\sprintf('An instance pool needs room for at least one instance, got %d', $max));
        }
        $this->waiters = new \SplQueue();
        $this->runner = new TaskRunner(Loop::driver());
    }

    /** @return T */
    public function borrow(): object
    {
        $instance = \array_pop($this->idle);
        if ($instance !== null) {
            $this->keepSpare();

            return $instance;
        }
        if ($this->size < $this->max) {
            if (\Fiber::getCurrent() === null) {
                return $this->create();
            }
            $this->bootInBackground();
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

    /** Boots instances ahead of need until $spare are idle or booting (within $max). */
    private function keepSpare(): void
    {
        while ($this->size < $this->max && \count($this->idle) + $this->queued < $this->spare) {
            $this->bootInBackground();
        }
    }

    /** Counts one more instance now and boots it in a later loop iteration. */
    private function bootInBackground(): void
    {
        ++$this->size;
        ++$this->queued;
        if (!$this->scheduled) {
            $this->scheduled = true;
            EventLoop::defer($this->bootNext(...));
        }
    }

    /**
     * Runs one queued boot, in a task of its own (so that a boot that waits — a provider querying
     * the database — gets its statics back when it resumes); the next boot starts in a later loop
     * iteration once this one ended, after I/O.
     */
    private function bootNext(): void
    {
        $this->scheduled = false;
        if ($this->queued === 0) {
            return;
        }
        --$this->queued;
        $this->runner->run(new Context('boot of another app instance'), function (): void {
            try {
                $instance = ($this->factory)();
            } catch (\Throwable $e) {
                --$this->size;
                $this->handOverRoom();
                if ($this->onBootFailure !== null) {
                    ($this->onBootFailure)($e);
                }
                $instance = null;
            }
            if ($instance !== null) {
                $this->release($instance);
            }
            if ($this->queued > 0 && !$this->scheduled) {
                $this->scheduled = true;
                EventLoop::defer($this->bootNext(...));
            }
        });
    }

    /** There is room for one more instance: the first waiter (if any) boots it. */
    private function handOverRoom(): void
    {
        if (!$this->waiters->isEmpty()) {
            $this->waiters->dequeue()->resume(null);
        }
    }
}
