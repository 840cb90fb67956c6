<?php

declare(strict_types=1);

namespace Spindle\Bridge\Symfony;

use Psr\Log\LoggerInterface;
use Spindle\Bridge\HttpFoundation\RequestConverter;
use Spindle\Bridge\HttpFoundation\ResponseConverter;
use Spindle\Bridge\InstanceLease;
use Spindle\Bridge\PooledKernel;
use Spindle\Http\Request;
use Spindle\Http\Response;
use Spindle\Loop\Loop;
use Symfony\Component\HttpFoundation\Request as SymfonyRequest;

/**
 * Symfony's side of Bridge\PooledHandler: borrows a kernel from the pool, converts the request,
 * lets the kernel handle it (its exception listeners turn errors into error pages) and converts
 * the response; the lease (KernelLease) terminates the kernel (kernel.terminate), resets it and
 * gives it back once the response is on its way.
 *
 * @implements PooledKernel<KernelLease>
 */
final class KernelHandler implements PooledKernel
{
    public function __construct(
        private readonly KernelPool $pool,
        private readonly RequestConverter $requests,
        private readonly ResponseConverter $responses,
        private readonly KernelResetter $resetter,
        private readonly LoggerInterface $logger,
    ) {
    }

    public function borrow(): KernelLease
    {
        return new KernelLease($this->pool->borrow(), $this->pool, $this->resetter, $this->logger);
    }

    /** @param KernelLease $lease */
    public function handle(InstanceLease $lease, Request $request): Response
    {
        $symfonyRequest = $this->requests->toSymfony($request);
        $lease->handling($symfonyRequest);
        self::restoreLocaleOnResume($symfonyRequest);
        $symfonyResponse = $lease->kernel->handle($symfonyRequest);
        $lease->answered($symfonyResponse);

        return $this->responses->toSpindle($symfonyResponse, $symfonyRequest);
    }

    /**
     * \Locale's default is process-wide and Symfony's LocaleListener sets it to the request's
     * locale: when requests run at once, put back this request's each time its fiber resumes.
     */
    private static function restoreLocaleOnResume(SymfonyRequest $request): void
    {
        $context = Loop::context();
        if ($context !== null && \class_exists(\Locale::class, false)) {
            $context->onResume(static function () use ($request): void {
                \Locale::setDefault($request->getLocale());
            });
        }
    }
}
