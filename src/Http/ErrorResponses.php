<?php

declare(strict_types=1);

namespace Spindle\Http;

use Psr\Log\LoggerInterface;
use Spindle\Loop\Loop;

/**
 * What answers for a handler that throws: an HttpException's status and message (a request
 * refused as malformed, no log line), otherwise a 500 and an error log line (the exception in the
 * body with --debug). A request cancelled by its timeout is not logged: its 504 has gone out.
 */
final class ErrorResponses implements Middleware
{
    public function __construct(
        private readonly LoggerInterface $logger,
        private readonly bool $debug = false,
    ) {
    }

    public function process(Request $request, RequestHandler $next): Response
    {
        try {
            return $next->handle($request);
        } catch (\Throwable $e) {
            return $this->respond($request, $e, Loop::context()?->isCancelled() ?? false);
        }
    }

    /** The response that stands for $e; logged unless $cancelled (the request timed out). */
    public function respond(Request $request, \Throwable $e, bool $cancelled): Response
    {
        if ($e instanceof HttpException) {
            return ErrorAnswer::refusal($e)->response();
        }
        if (!$cancelled) {
            try {
                $this->logger->error(\sprintf('%s %s failed: %s', $request->method, $request->path, $e->getMessage()), ['exception' => $e]);
            } catch (\Throwable) {
                // A logger that fails must not keep the request from being answered.
            }
        }

        return ErrorAnswer::failure($e, $this->debug, whole: true)->response();
    }
}
