<?php

declare(strict_types=1);

namespace Spindle\Bridge\Symfony;

use Psr\Log\LoggerInterface;
use Revolt\EventLoop;
use Spindle\Bridge\InstanceCounts;
use Spindle\Bridge\ReleasedObjects;
use Spindle\Loop\WaitQueue;
use Symfony\Component\HttpKernel\HttpKernelInterface;
use Symfony\Component\HttpKernel\KernelInterface;

/**
 * The booted kernels of one worker. A request borrows a whole kernel for its life, so that
 * requests running at once never share a container, request stack or service state.
 *
 * Kernels are created on demand, up to $max; a request that finds all of them borrowed waits
 * for the next one given back. Kernels are needed only for requests suspended at the same time,
 * and after a burst that needed more the pool shrinks back: every $idleTimeout seconds, the idle
 * kernels that the busiest moment of that period did not need, beyond the first, are shut down
 * and let go (the least recently used first), by the rule of Laravel's InstancePool. Each kernel
 * has a number (1 for the first created); with a logger, each one let go is checked to be
 * freed (ReleasedObjects), but the kernel of the last request, which FrameworkBundle's error
 * handler holds until the next.
 */
final class KernelPool implements InstanceCounts
{
    /** @var list<HttpKernelInterface> */
    private array $idle = [];
    private int $created = 0;
    /** Kernels detached from the pool and still in use (see detach()). */
    private int $detached = 0;
    /** @var WaitQueue<HttpKernelInterface|null> a grant is a kernel given back, or null: room to create one */
    private readonly WaitQueue $waiters;
    /** Kernels lent out now, and the most lent out at once since the last trim. */
    private int $borrowed = 0;
    private int $peak = 0;
    private ?string $trimTimer = null;
    /** @var \WeakMap<HttpKernelInterface, int> */
    private \WeakMap $numbers;
    private int $numbered = 0;
    /** The number of the kernel lent out last. */
    private int $lastBorrowed = 0;
    private readonly ?ReleasedObjects $released;

    /** @param \Closure(): HttpKernelInterface $factory creates and boots a kernel */
    public function __construct(
        private readonly \Closure $factory,
        private readonly int $max,
        /** Seconds between two trims of the kernels a quiet period did not need (0: never). */
        private readonly float $idleTimeout = 0.0,
        /** Where a kernel let go and not freed is reported (none: not checked). */
        ?LoggerInterface $logger = null,
    ) {
        if ($max < 1) {
            throw new \InvalidArgumentException(\sprintf('A kernel pool holds at least one kernel, %d asked', $max));
        }
        $this->waiters = new WaitQueue();
        $this->numbers = new \WeakMap();
        $this->released = $logger === null ? null : new ReleasedObjects(
            $logger,
            'Symfony kernel',
            // The error handler's exception handler holds the kernel of the last main request
            // (FrameworkBundle's DebugHandlersListener sets it at each one) until the next.
            fn (int $number): bool => $number === $this->lastBorrowed,
            static fn (?string $holder): string => $holder !== null
                ? 'A static that keeps a service or the container of a kernel holds it: empty it when the kernel shuts down.'
                : 'Something outside the kernel keeps an object of it (a shutdown function, a suspended fiber).',
        );
    }

    public function borrow(): HttpKernelInterface
    {
        if (++$this->borrowed > $this->peak) {
            $this->peak = $this->borrowed;
        }
        try {
            $kernel = $this->take();
            $this->lastBorrowed = $this->numbers[$kernel] ?? 0;

            return $kernel;
        } catch (\Throwable $e) {
            --$this->borrowed;

            throw $e;
        }
    }

    /** Gives a kernel back, ready for the next request (already reset). */
    public function release(HttpKernelInterface $kernel): void
    {
        --$this->borrowed;
        $this->offer($kernel);
    }

    /**
     * Lets a borrowed kernel go on outside the pool (a long streamed response keeps it), so that
     * it no longer takes one of the pool's places. At most $max kernels are out so at once
     * (false: this one stays counted); the lease tells detachedEnded() when it is done with.
     */
    public function detach(HttpKernelInterface $kernel): bool
    {
        if ($this->detached >= $this->max) {
            return false;
        }
        ++$this->detached;
        $this->discard($kernel);

        return true;
    }

    /** A detached kernel was let go. */
    public function detachedEnded(): void
    {
        --$this->detached;
    }

    /** Forgets a borrowed kernel that cannot serve again; a new one may be created in its place. */
    public function discard(HttpKernelInterface $kernel): void
    {
        --$this->borrowed;
        $this->freeRoom();
    }

    /**
     * Shuts down and lets go of the idle kernels the period since the last trim did not need:
     * beyond the first and beyond the most that were lent out at once meanwhile, least recently
     * used first. The timer stops once one kernel is left. (The idle timer calls it; tests too.)
     */
    public function trim(): void
    {
        $needed = \max(1, $this->peak, $this->borrowed);
        $this->peak = $this->borrowed;
        $dropped = 0;
        while ($this->created > $needed && $this->idle !== []) {
            $kernel = \array_shift($this->idle);
            --$this->created;
            ++$dropped;
            if ($kernel instanceof KernelInterface) {
                $kernel->shutdown();
            }
            $this->released?->watch($this->numbers[$kernel] ?? 0, $kernel);
        }
        if ($dropped > 0) {
            unset($kernel);
            // A booted kernel and its container are a web of cycles: collect them now.
            \gc_collect_cycles();
        }
        if ($this->created <= 1 && $this->trimTimer !== null) {
            EventLoop::cancel($this->trimTimer);
            $this->trimTimer = null;
        }
    }

    private function take(): HttpKernelInterface
    {
        $kernel = \array_pop($this->idle);
        if ($kernel !== null) {
            return $kernel;
        }
        if ($this->created < $this->max) {
            ++$this->created;

            return $this->create();
        }

        return $this->waiters->wait(unclaimed: $this->unclaimed(...)) ?? $this->create();
    }

    /** Kernels created so far (borrowed or idle). */
    public function size(): int
    {
        return $this->created;
    }

    public function idle(): int
    {
        return \count($this->idle);
    }

    private function offer(HttpKernelInterface $kernel): void
    {
        if ($this->waiters->grant($kernel)) {
            return;
        }
        $this->idle[] = $kernel;
        if ($this->idleTimeout > 0 && $this->trimTimer === null && $this->created > 1) {
            $this->trimTimer = EventLoop::unreference(EventLoop::repeat($this->idleTimeout, $this->trim(...)));
        }
    }

    /** What was handed to a request that left its wait (cancelled) goes to the next one. */
    private function unclaimed(?HttpKernelInterface $kernel): void
    {
        if ($kernel !== null) {
            $this->offer($kernel);
        } else {
            $this->freeRoom();
        }
    }

    /** Creates a kernel in room already counted in $created. */
    private function create(): HttpKernelInterface
    {
        try {
            $kernel = ($this->factory)();
            $this->numbers[$kernel] = ++$this->numbered;

            return $kernel;
        } catch (\Throwable $e) {
            $this->freeRoom();

            throw $e;
        }
    }

    /** One kernel fewer: a waiting request gets the room and creates a fresh kernel in its own fiber. */
    private function freeRoom(): void
    {
        if (!$this->waiters->grant(null)) {
            --$this->created;
        }
    }
}
