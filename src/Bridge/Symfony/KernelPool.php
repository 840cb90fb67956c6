<?php

declare(strict_types=1);

namespace Spindle\Bridge\Symfony;

use Spindle\Loop\WaitQueue;
use Symfony\Component\HttpKernel\HttpKernelInterface;

/**
 * The booted kernels of one worker. A request borrows a whole kernel for its life, so that
 * requests running at once never share a container, request stack or service state.
 *
 * Kernels are created on demand, up to $max; a request that finds all of them borrowed waits
 * for the next one given back.
 */
final class KernelPool
{
    /** @var list<HttpKernelInterface> */
    private array $idle = [];
    private int $created = 0;
    /** @var WaitQueue<HttpKernelInterface|null> a grant is a kernel given back, or null: room to create one */
    private readonly WaitQueue $waiters;

    /** @param \Closure(): HttpKernelInterface $factory creates and boots a kernel */
    public function __construct(
        private readonly \Closure $factory,
        private readonly int $max,
    ) {
        if ($max < 1) {
            throw new \InvalidArgumentException(\sprintf('A kernel pool holds at least one kernel, %d asked', $max));
        }
        $this->waiters = new WaitQueue();
    }

    public function borrow(): HttpKernelInterface
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

    /** Gives a kernel back, ready for the next request (already reset). */
    public function release(HttpKernelInterface $kernel): void
    {
        if (!$this->waiters->grant($kernel)) {
            $this->idle[] = $kernel;
        }
    }

    /** Forgets a borrowed kernel that cannot serve again; a new one may be created in its place. */
    public function discard(HttpKernelInterface $kernel): void
    {
        $this->freeRoom();
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

    /** What was handed to a request that left its wait (cancelled) goes to the next one. */
    private function unclaimed(?HttpKernelInterface $kernel): void
    {
        if ($kernel !== null) {
            $this->release($kernel);
        } else {
            $this->freeRoom();
        }
    }

    /** Creates a kernel in room already counted in $created. */
    private function create(): HttpKernelInterface
    {
        try {
            return ($this->factory)();
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
