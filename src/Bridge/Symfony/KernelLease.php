<?php

declare(strict_types=1);

namespace Spindle\Bridge\Symfony;

use Psr\Log\LoggerInterface;
use Spindle\Bridge\HttpFoundation\FinishedRequest;
use Spindle\Bridge\InstanceLease;
use Symfony\Component\HttpFoundation\Request as SymfonyRequest;
use Symfony\Component\HttpFoundation\Response as SymfonyResponse;
use Symfony\Component\HttpKernel\HttpKernelInterface;
use Symfony\Component\HttpKernel\TerminableInterface;

/**
 * @internal One request's hold on a kernel of the pool. end() (once) terminates the kernel
 * (kernel.terminate) if it answered, resets it and gives it back; a kernel that cannot be reset
 * is dropped.
 */
final class KernelLease implements InstanceLease
{
    private bool $ended = false;
    /** Detached from the pool (see detach()). */
    private bool $detached = false;
    private ?SymfonyRequest $request = null;
    private ?SymfonyResponse $response = null;

    public function __construct(
        public readonly HttpKernelInterface $kernel,
        private readonly KernelPool $pool,
        private readonly KernelResetter $resetter,
        private readonly LoggerInterface $logger,
    ) {
    }

    /** The request the kernel handles (the reset clears what it left). */
    public function handling(SymfonyRequest $request): void
    {
        $this->request = $request;
    }

    /** The kernel's response: end() terminates the kernel with it. */
    public function answered(SymfonyResponse $response): void
    {
        $this->response = $response;
    }

    public function resumed(): void
    {
        // The kernel's services keep no process-wide state for a resume to put back (the
        // locale is put back by KernelHandler's resume hook).
    }

    public function detach(): void
    {
        if (!$this->ended && !$this->detached) {
            $this->detached = $this->pool->detach($this->kernel);
        }
    }

    public function end(): void
    {
        if ($this->ended) {
            return;
        }
        $this->ended = true;
        $kernel = $this->kernel;
        $request = $this->request;
        if ($request !== null && $this->response !== null && $kernel instanceof TerminableInterface) {
            try {
                $kernel->terminate($request, $this->response);
            } catch (\Throwable $e) {
                $this->logger->error(\sprintf('%s %s: kernel terminate failed: %s', $request->getMethod(), $request->getPathInfo(), $e->getMessage()), ['exception' => $e]);
            }
        }
        $this->request = $this->response = null;
        if ($this->detached) {
            // Out of the pool already: let go, not reset.
            if ($request !== null) {
                FinishedRequest::letSessionGo($request);
            }
            $this->pool->detachedEnded();

            return;
        }
        try {
            $this->resetter->reset($kernel, $request);
        } catch (\Throwable $e) {
            $this->logger->error('A Symfony kernel could not be reset and is replaced: ' . $e->getMessage(), ['exception' => $e]);
            $this->pool->discard($kernel);

            return;
        } finally {
            if ($request !== null) {
                FinishedRequest::letSessionGo($request);
            }
        }
        $this->pool->release($kernel);
    }
}
