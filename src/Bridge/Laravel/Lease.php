<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel;

use Psr\Log\LoggerInterface;
use Symfony\Component\HttpFoundation\Request as SymfonyRequest;
use Symfony\Component\HttpFoundation\Response as SymfonyResponse;

/**
 * One request's hold on an app instance. end() (once) terminates the kernel (terminable
 * middleware, terminating callbacks), resets the instance and returns it to the pool; an
 * instance whose reset failed is thrown away instead.
 */
final class Lease
{
    private bool $ended = false;
    private ?SymfonyRequest $request = null;
    private ?SymfonyResponse $response = null;

    /** @param InstancePool<AppInstance> $pool */
    public function __construct(
        private readonly AppInstance $instance,
        private readonly ProcessGlobals $globals,
        private readonly InstancePool $pool,
        private readonly LoggerInterface $logger,
    ) {
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
        $clean = $this->instance->reset($this->logger, $request);
        $this->ended = true;
        if ($clean) {
            $this->pool->release($this->instance);
        } else {
            $this->globals->forget($this->instance->state);
            $this->pool->discard($this->instance);
        }
    }
}
