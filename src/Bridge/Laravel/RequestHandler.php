<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel;

use Illuminate\Contracts\Debug\ExceptionHandler;
use Illuminate\Http\Request as IlluminateRequest;
use Psr\Log\LoggerInterface;
use Spindle\Bridge\HttpFoundation\RequestConverter;
use Spindle\Bridge\HttpFoundation\ResponseConverter;
use Spindle\Http\FileBody;
use Spindle\Http\HttpException;
use Spindle\Http\Request;
use Spindle\Http\Response;
use Spindle\Loop\Loop;
use Symfony\Component\HttpFoundation\Request as SymfonyRequest;
use Symfony\Component\HttpFoundation\Response as SymfonyResponse;

/**
 * Serves one request: borrows an app instance, makes its statics current (now and whenever
 * the request's fiber resumes), runs the HTTP kernel, converts the response, then, once the
 * response is handed to the connection (Context::afterResponse()), terminates the kernel, resets the
 * instance and gives it back. A streamed response holds the instance until its body has been
 * sent (its callback runs inside the app).
 */
final class RequestHandler
{
    /** @param InstancePool<AppInstance> $pool */
    public function __construct(
        private readonly InstancePool $pool,
        private readonly ProcessGlobals $globals,
        private readonly RequestConverter $requestConverter,
        private readonly ResponseConverter $responseConverter,
        private readonly LoggerInterface $logger,
    ) {
    }

    public function __invoke(Request $request): Response
    {
        $instance = $this->pool->borrow();
        $lease = new Lease($instance, $this->globals, $this->pool, $this->logger);
        $this->globals->activate($instance->state);
        Loop::context()?->onResume($lease->resumed(...));

        try {
            $symfonyRequest = $this->requestConverter->toSymfony($request, IlluminateRequest::class);
            UploadedFiles::convert($symfonyRequest);
            $response = $instance->kernel->handle($symfonyRequest);
            $lease->terminateWith($symfonyRequest, $response);
            $converted = $this->responseConverter->toSpindle($response, $symfonyRequest);
        } catch (\Throwable $e) {
            if (!$e instanceof HttpException) {
                // An HttpException is a request the framework cannot take (an invalid Host): the
                // client gets its status, and the app's exception handler has nothing to report,
                // as under PHP-FPM.
                $this->report($instance, $e);
            }
            $lease->end();

            throw $e;
        }
        if (\is_string($converted->body) || $converted->body instanceof FileBody) {
            // Terminate once the response is handed to the connection, as PHP-FPM does (Laravel's
            // front controller sends the response, which calls fastcgi_finish_request(), and only
            // then terminates the kernel): terminable middleware, terminating callbacks and
            // defer() callbacks run after the client has its response, in this request's fiber.
            $context = Loop::context();
            if ($context === null) {
                $lease->end();
            } else {
                $context->afterResponse($lease->end(...));
            }

            return $converted;
        }

        return new Response($converted->status, $converted->headers, new LeasedBody($converted->body, $lease), $converted->reason);
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
