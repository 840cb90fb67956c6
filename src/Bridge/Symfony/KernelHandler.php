<?php

declare(strict_types=1);

namespace Spindle\Bridge\Symfony;

use Psr\Log\LoggerInterface;
use Spindle\Bridge\HttpFoundation\RequestConverter;
use Spindle\Bridge\HttpFoundation\ResponseConverter;
use Spindle\Http\FileBody;
use Spindle\Http\Request;
use Spindle\Http\Response;
use Spindle\Loop\Loop;
use Symfony\Component\HttpFoundation\Request as SymfonyRequest;
use Symfony\Component\HttpFoundation\Response as SymfonyResponse;
use Symfony\Component\HttpKernel\HttpKernelInterface;
use Symfony\Component\HttpKernel\TerminableInterface;

/**
 * Serves one request with a kernel borrowed from the pool: converts the request, lets the
 * kernel handle it (its exception listeners turn errors into error pages), converts the
 * response, and once the response is on its way terminates the kernel, resets it and gives it
 * back.
 *
 * A string or file body is sent right after the handler returns, so terminate() and the reset
 * run in the request's fiber just after (Context::afterResponse()); a streamed body keeps the kernel until its last piece is sent,
 * since the stream's callback may use the kernel's services.
 */
final class KernelHandler
{
    public function __construct(
        private readonly KernelPool $pool,
        private readonly RequestConverter $requests,
        private readonly ResponseConverter $responses,
        private readonly KernelResetter $resetter,
        private readonly LoggerInterface $logger,
    ) {
    }

    public function __invoke(Request $request): Response
    {
        $kernel = $this->pool->borrow();
        $symfonyRequest = null;
        $symfonyResponse = null;
        try {
            $symfonyRequest = $this->requests->toSymfony($request);
            self::restoreLocaleOnResume($symfonyRequest);
            $symfonyResponse = $kernel->handle($symfonyRequest);
            $response = $this->responses->toSpindle($symfonyResponse, $symfonyRequest);
        } catch (\Throwable $e) {
            $this->finish($kernel, $symfonyRequest, $symfonyResponse);

            throw $e;
        }
        $finish = fn () => $this->finish($kernel, $symfonyRequest, $symfonyResponse);
        $body = $response->body;
        if (\is_string($body) || $body instanceof FileBody) {
            $context = Loop::context();
            if ($context === null) {
                $finish();
            } else {
                $context->afterResponse($finish);
            }

            return $response;
        }

        return new Response($response->status, $response->headers, new ReleasingBody($body, $finish), $response->reason);
    }

    /** terminate(), reset, and back to the pool; a kernel that cannot be reset is dropped. */
    private function finish(HttpKernelInterface $kernel, ?SymfonyRequest $request, ?SymfonyResponse $response): void
    {
        if ($request !== null && $response !== null && $kernel instanceof TerminableInterface) {
            try {
                $kernel->terminate($request, $response);
            } catch (\Throwable $e) {
                $this->logger->error(\sprintf('%s %s: kernel terminate failed: %s', $request->getMethod(), $request->getPathInfo(), $e->getMessage()), ['exception' => $e]);
            }
        }
        try {
            $this->resetter->reset($kernel, $request);
        } catch (\Throwable $e) {
            $this->logger->error('A Symfony kernel could not be reset and is replaced: ' . $e->getMessage(), ['exception' => $e]);
            $this->pool->discard($kernel);

            return;
        }
        $this->pool->release($kernel);
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
