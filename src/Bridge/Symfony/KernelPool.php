<?php

declare(strict_types=1);

namespace Spindle\Bridge\Symfony;

use Revolt\EventLoop;
use Revolt\EventLoop\Suspension;
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
    /** @var array<int, Suspension<HttpKernelInterface>> */
    private array $waiters = [];
    private int $nextWaiter = 0;

    /** @param \Closure(): HttpKernelInterface $factory creates and boots a kernel */
    public function __construct(
        private readonly \Closure $factory,
        private readonly int $max,
    ) {
        if ($max < 1) {
            throw new \InvalidArgumentException(\sprintf('A kernel pool holds at least one kernel, %d asked', $max));
        }
    }

    public function borrow(): HttpKernelInterface
    {
        $kernel = \array_pop($this->idle);
        if ($kernel !== null) {
            return $kernel;
        }
        if ($this->created < $this->max) {
            ++$this->created;
            try {
                return ($this->factory)();
            } catch (\Throwable $e) {
                --$this->created;

                throw $e;
            }
        }
        /** @var Suspension<HttpKernelInterface> $suspension */
        $suspension = EventLoop::getSuspension();
        $id = $this->nextWaiter++;
        $this->waiters[$id] = $suspension;
        try {
            return $suspension->suspend();
        } finally {
            unset($this->waiters[$id]);
        }
    }

    /** Gives a kernel back, ready for the next request (already reset). */
    public function release(HttpKernelInterface $kernel): void
    {
        foreach ($this->waiters as $id => $waiter) {
            unset($this->waiters[$id]);
            $waiter->resume($kernel);

            return;
        }
        $this->idle[] = $kernel;
    }

    /** Forgets a borrowed kernel that cannot serve again; a new one may be created in its place. */
    public function discard(HttpKernelInterface $kernel): void
    {
        --$this->created;
        if ($this->waiters !== [] && $this->created < $this->max) {
            // A waiting request gets a fresh kernel, made in its own fiber.
            foreach ($this->waiters as $id => $waiter) {
                unset($this->waiters[$id]);
                ++$this->created;
                try {
                    $waiter->resume(($this->factory)());
                } catch (\Throwable $e) {
                    --$this->created;
                    $waiter->throw($e);
                }

                return;
            }
        }
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
}
