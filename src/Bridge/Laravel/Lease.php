<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel;

use Psr\Log\LoggerInterface;
use Spindle\Bridge\HttpFoundation\FinishedRequest;
use Spindle\Bridge\InstanceLease;
use Spindle\Loop\Loop;
use Symfony\Component\HttpFoundation\Request as SymfonyRequest;
use Symfony\Component\HttpFoundation\Response as SymfonyResponse;

/**
 * One request's (or task's) hold on an app instance. While it is held, the instance's statics
 * are current, and made current again whenever the fiber resumes. end() (once) terminates the
 * kernel (terminable middleware, terminating callbacks), resets the instance and returns it to
 * the pool; an instance whose reset failed is thrown away instead.
 */
final class Lease implements InstanceLease
{
    private bool $ended = false;
    /** Detached from the pool (see detach()). */
    private bool $detached = false;
    private ?SymfonyRequest $request = null;
    private ?SymfonyResponse $response = null;

    /** @param InstancePool<AppInstance> $pool */
    public function __construct(
        public readonly AppInstance $instance,
        private readonly ProcessGlobals $globals,
        private readonly InstancePool $pool,
        private readonly LoggerInterface $logger,
        private readonly FinishedRequests $finished,
    ) {
    }

    /**
     * Borrows an instance from $pool (waiting for one if need be) for the running fiber and makes
     * its statics current, now and whenever the fiber resumes. For a task ($forTask: no HTTP
     * kernel binds a request of its own), the instance first lets go of its last request.
     *
     * @param InstancePool<AppInstance> $pool
     */
    public static function take(InstancePool $pool, ProcessGlobals $globals, LoggerInterface $logger, FinishedRequests $finished, bool $forTask = false): self
    {
        $instance = $pool->borrow();
        $lease = new self($instance, $globals, $pool, $logger, $finished);
        $globals->activate($instance->state);
        Loop::context()?->onResume($lease->resumed(...));
        $finished->lent($instance, $forTask);

        return $lease;
    }

    /** The request's fiber resumed: make the instance's statics current, while it is held. */
    public function resumed(): void
    {
        if (!$this->ended) {
            $this->globals->activate($this->instance->state);
        }
    }

    public function terminateWith(SymfonyRequest $request, SymfonyResponse $response): void
    {
        $this->request = $request;
        $this->response = $response;
    }

    public function detach(): void
    {
        if (!$this->ended && !$this->detached) {
            $this->detached = $this->pool->detach($this->instance);
        }
    }

    public function end(): void
    {
        if ($this->ended) {
            return;
        }
        $this->globals->activate($this->instance->state);
        if ($this->request !== null && $this->response !== null) {
            try {
                $this->instance->kernel->terminate($this->request, $this->response);
            } catch (\Throwable $e) {
                $this->logger->error('Terminating the Laravel request failed: ' . $e->getMessage(), ['exception' => $e]);
            }
        }
        $request = $this->request;
        $this->request = $this->response = null;
        if ($this->detached) {
            // Out of the pool already: let go, not reset.
            $this->ended = true;
            if ($request !== null) {
                FinishedRequest::letSessionGo($request);
            }
            $this->globals->forget($this->instance->state);
            $this->pool->detachedEnded();

            return;
        }
        $clean = $this->instance->reset($this->logger, $request);
        if ($request !== null) {
            FinishedRequest::letSessionGo($request);
        }
        $this->ended = true;
        if ($clean) {
            // Before the release, which may hand the instance straight to a waiting request.
            $this->finished->ended($this->instance);
            $this->pool->release($this->instance);
        } else {
            $this->globals->forget($this->instance->state);
            $this->pool->discard($this->instance);
        }
    }
}
