<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel;

use Illuminate\Contracts\Debug\ExceptionHandler;
use Illuminate\Http\Request as IlluminateRequest;
use Psr\Log\LoggerInterface;
use Spindle\Bridge\HttpFoundation\RequestConverter;
use Spindle\Bridge\HttpFoundation\ResponseConverter;
use Spindle\Bridge\InstanceLease;
use Spindle\Bridge\PooledKernel;
use Spindle\Http\HttpException;
use Spindle\Http\Request;
use Spindle\Http\Response;

/**
 * Laravel's side of Bridge\PooledHandler: borrows an app instance (a Lease makes its statics
 * current, now and whenever the request's fiber resumes), runs the HTTP kernel on the converted
 * request and converts its response; the lease terminates the kernel when it ends (terminable
 * middleware, terminating callbacks and defer() callbacks run after the client has its response,
 * as under PHP-FPM). An error is reported to the app's exception handler before it goes on.
 *
 * @implements PooledKernel<Lease>
 */
final class RequestHandler implements PooledKernel
{
    /** @param InstancePool<AppInstance> $pool */
    public function __construct(
        private readonly InstancePool $pool,
        private readonly ProcessGlobals $globals,
        private readonly RequestConverter $requestConverter,
        private readonly ResponseConverter $responseConverter,
        private readonly LoggerInterface $logger,
        private readonly FinishedRequests $finished,
        /** The preload links each route's last response had, sent as 103 (opt-in, see EarlyHintsMemory). */
        private readonly ?EarlyHintsMemory $earlyHints = null,
    ) {
    }

    public function borrow(): Lease
    {
        return Lease::take($this->pool, $this->globals, $this->logger, $this->finished);
    }

    /** @param Lease $lease */
    public function handle(InstanceLease $lease, Request $request): Response
    {
        $instance = $lease->instance;
        $this->earlyHints?->hint($request);
        try {
            $symfonyRequest = $this->requestConverter->toSymfony($request, IlluminateRequest::class);
            UploadedFiles::convert($symfonyRequest);
            $response = $instance->kernel->handle($symfonyRequest);
            $lease->terminateWith($symfonyRequest, $response);

            $converted = $this->responseConverter->toSpindle($response, $symfonyRequest);
            $this->earlyHints?->remember($request, $converted);

            return $converted;
        } catch (\Throwable $e) {
            if (!$e instanceof HttpException) {
                // An HttpException is a request the framework cannot take (an invalid Host): the
                // client gets its status, and the app's exception handler has nothing to report,
                // as under PHP-FPM.
                $this->report($instance, $e);
            }

            throw $e;
        }
    }

    private function report(AppInstance $instance, \Throwable $e): void
    {
        try {
            $handler = $instance->app->make(ExceptionHandler::class);
            if ($handler instanceof ExceptionHandler) {
                $handler->report($e);
            }
        } catch (\Throwable $reportFailure) {
            $this->logger->error('The Laravel exception handler failed to report an error: ' . $reportFailure->getMessage(), ['exception' => $reportFailure]);
        }
    }
}
