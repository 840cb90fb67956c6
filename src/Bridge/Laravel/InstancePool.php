<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel;

use Revolt\EventLoop;
use Spindle\Bridge\InstanceCounts;
use Spindle\Loop\Context;
use Spindle\Loop\Loop;
use Spindle\Loop\TaskRunner;
use Spindle\Loop\WaitQueue;

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
 * Instances are needed only for requests that are suspended at the same time: a request that
 * never waits gives its instance back before the worker reads the next one, so a burst of such
 * requests runs on one instance. After a burst that did need more, the pool shrinks back: every
 * $idleTimeout seconds, the idle instances that the busiest moment of that period did not need,
 * beyond $keep, are let go (the least recently used first).
 *
 * @template T of object
 */
final class InstancePool implements InstanceCounts
{
    /** @var list<T> most recently returned last */
    private array $idle = [];
    /** Instances detached from the pool and still in use (see detach()). */
    private int $detached = 0;
    private int $size = 0;
    /** Boots counted in $size that have not run yet. */
    private int $queued = 0;
    private bool $scheduled = false;
    /** Runs the background boots, each as a task of its own. */
    private readonly TaskRunner $runner;
    /** @var WaitQueue<T|null> a grant is an instance, or null: room to boot one */
    private readonly WaitQueue $waiters;
    /** Instances lent out now, and the most lent out at once since the last trim. */
    private int $borrowed = 0;
    private int $peak = 0;
    private ?string $trimTimer = null;

    /** @param \Closure(): T $factory */
    public function __construct(
        private readonly \Closure $factory,
        private readonly int $max,
        private readonly int $spare = 0,
        /** @var (\Closure(\Throwable): void)|null told about a background boot that failed */
        private readonly ?\Closure $onBootFailure = null,
        /** Instances kept however quiet the worker is (those booted with it). */
        private readonly int $keep = 1,
        /** Seconds between two trims of the instances a quiet period did not need (0: never). */
        private readonly float $idleTimeout = 0.0,
        /** @var (\Closure(T): void)|null told about an instance the pool lets go */
        private readonly ?\Closure $onDrop = null,
    ) {
        if ($max < 1) {
            throw new \InvalidArgumentException(\sprintf('An instance pool needs room for at least one instance, got %d', $max));
        }
        $this->waiters = new WaitQueue();
        $this->runner = new TaskRunner(Loop::driver());
    }

    /** @return T */
    public function borrow(): object
    {
        if (++$this->borrowed > $this->peak) {
            $this->peak = $this->borrowed;
        }
        $instance = \array_pop($this->idle);
        if ($instance !== null) {
            $this->keepSpare();

            return $instance;
        }
        if ($this->size < $this->max) {
            if (\Fiber::getCurrent() === null) {
                try {
                    return $this->create();
                } catch (\Throwable $e) {
                    --$this->borrowed;

                    throw $e;
                }
            }
            $this->bootInBackground();
        }
        try {
            // A cancellation (request timeout) ends the wait; an instance handed to this fiber
            // meanwhile goes on to the next waiter.
            $instance = $this->waiters->wait(unclaimed: $this->unclaimed(...));
        } catch (\Throwable $e) {
            --$this->borrowed;

            throw $e;
        }
        if ($instance !== null) {
            return $instance;
        }
        try {
            return $this->create();
        } catch (\Throwable $e) {
            --$this->borrowed;

            throw $e;
        }
    }

    /** @param T $instance */
    public function release(object $instance): void
    {
        // A waiter it goes to was counted as borrowing when it began to wait.
        --$this->borrowed;
        $this->offer($instance);
    }

    /**
     * Lets a borrowed instance go on outside the pool (a long streamed response keeps it), so
     * that it no longer takes one of the pool's places: a waiting request boots a new one. At
     * most $max instances are out so at once (false: this one stays counted); the lease tells
     * detachedEnded() when the detached instance is done with.
     *
     * @param T $instance
     */
    public function detach(object $instance): bool
    {
        if ($this->detached >= $this->max) {
            return false;
        }
        ++$this->detached;
        $this->discard($instance);

        return true;
    }

    /** A detached instance was let go. */
    public function detachedEnded(): void
    {
        --$this->detached;
    }

    /** Instances lent out and detached (see detach()). */
    public function detached(): int
    {
        return $this->detached;
    }

    /** Throws away a borrowed instance (its reset failed); a waiting request boots a new one. */
    /** @param T $instance */
    public function discard(object $instance): void
    {
        --$this->size;
        --$this->borrowed;
        $this->handOverRoom();
    }

    /** Adds an instance booted outside the pool (the first, at worker start). */
    /** @param T $instance */
    public function add(object $instance): void
    {
        ++$this->size;
        $this->offer($instance);
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

    /** Instances lent out now. */
    public function busy(): int
    {
        return $this->borrowed;
    }

    /**
     * Lets go of the idle instances the period since the last trim did not need: beyond $keep
     * and beyond the most that were lent out at once meanwhile, least recently used first. The
     * timer stops once the pool is back to $keep. (The idle timer calls it; tests call it too.)
     */
    public function trim(): void
    {
        $needed = \max($this->keep, $this->peak, $this->borrowed + $this->spare);
        $this->peak = $this->borrowed;
        $dropped = 0;
        while ($this->size > $needed && $this->idle !== []) {
            $instance = \array_shift($this->idle);
            --$this->size;
            ++$dropped;
            if ($this->onDrop !== null) {
                ($this->onDrop)($instance);
            }
        }
        if ($dropped > 0) {
            unset($instance);
            // An app instance is a web of cycles (container, providers, closures): collect it now
            // rather than at some later request.
            \gc_collect_cycles();
        }
        if ($this->size <= $this->keep && $this->trimTimer !== null) {
            EventLoop::cancel($this->trimTimer);
            $this->trimTimer = null;
        }
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
                $this->offer($instance);
            }
            if ($this->queued > 0 && !$this->scheduled) {
                $this->scheduled = true;
                EventLoop::defer($this->bootNext(...));
            }
        });
    }

    /**
     * An instance nobody holds: to the first waiter (who was counted as borrowing when it began
     * to wait), else idle.
     *
     * @param T $instance
     */
    private function offer(object $instance): void
    {
        if ($this->waiters->grant($instance)) {
            return;
        }
        $this->idle[] = $instance;
        if ($this->idleTimeout > 0 && $this->trimTimer === null && $this->size > $this->keep) {
            $this->trimTimer = EventLoop::unreference(EventLoop::repeat($this->idleTimeout, $this->trim(...)));
        }
    }

    /** @param T|null $instance handed to a waiter that left before taking it */
    private function unclaimed(?object $instance): void
    {
        if ($instance !== null) {
            $this->offer($instance);
        } else {
            $this->handOverRoom();
        }
    }

    /** There is room for one more instance: the first waiter (if any) boots it. */
    private function handOverRoom(): void
    {
        $this->waiters->grant(null);
    }
}
