<?php

declare(strict_types=1);

namespace Spindle\Bridge;

use Spindle\Http\FileBody;
use Spindle\Http\Request;
use Spindle\Http\Response;
use Spindle\Loop\Loop;

/**
 * Serves one request with an app instance borrowed from a framework's pool (PooledKernel):
 * borrow, handle (convert the request, run the framework, convert its response), then end the
 * lease (terminate, reset, give back) once the instance is no longer needed:
 *
 * - a string or file body is sent right after this returns, so the lease ends in the request's
 *   fiber just after (Context::defer()), as PHP-FPM terminates a kernel after
 *   fastcgi_finish_request(): after-response work runs once the client has its response;
 * - a streamed body keeps the instance until its last piece is sent, it fails, or it is dropped
 *   unsent (LeasedBody), since its callback runs inside the app;
 * - an exception ends the lease at once and goes on to the server's error handling.
 *
 * @template TLease of InstanceLease
 */
final class PooledHandler
{
    /** @param PooledKernel<TLease> $kernel */
    public function __construct(
        private readonly PooledKernel $kernel,
    ) {
    }

    public function __invoke(Request $request): Response
    {
        $lease = $this->kernel->borrow();
        try {
            $response = $this->kernel->handle($lease, $request);
        } catch (\Throwable $e) {
            $lease->end();

            throw $e;
        }
        $body = $response->body;
        if (\is_string($body) || $body instanceof FileBody) {
            $context = Loop::context();
            if ($context === null) {
                $lease->end();
            } else {
                $context->defer($lease->end(...));
            }

            return $response;
        }

        return $response->withBody(new LeasedBody($body, $lease));
    }
}
