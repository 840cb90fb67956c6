<?php

declare(strict_types=1);

namespace Spindle\Http;

use Spindle\Loop\Context;
use Spindle\Loop\Loop;

/**
 * @internal One request of a connection, from the moment it was read whole: queued behind the
 * requests before it, then run (its task and its Context), answered and finished by its
 * owner (the connection, or the HTTP/2 stream, it came on). RequestRunner keeps it among the requests under way while it runs.
 */
final class RunningRequest
{
    /** Its task's context (its label is "METHOD /path", for log lines). */
    public readonly Context $context;
    /** When it began to run (RequestRunner::start(); the request timeout counts from here). */
    public float $startedAt = 0.0;
    /** The request timeout answered (or cut) it and cancelled it: what it returns is dropped. */
    public bool $timedOut = false;
    /** Its response is produced and its body streams: the request timeout no longer applies (RequestRunner::streaming()). */
    public bool $streaming = false;
    /** The handler returned (or failed): its concurrency slot is given back, its response handed over. */
    public bool $handled = false;

    /**
     * @param list<string> $tempFiles the temporary files of its uploads and body, removed once it is done
     * @param bool $keepAlive whether the client asked to keep the connection (from the version and
     *                        the Connection header)
     */
    public function __construct(
        public readonly Request $request,
        public readonly RequestOwner $owner,
        public readonly array $tempFiles,
        public readonly bool $keepAlive,
    ) {
        $this->context = new Context($request->method . ' ' . $request->path);
        // A cycle (the request holds its context) that RequestRunner::end() breaks: left to PHP's
        // cycle collector it cost 5 nodes a request (benchmarks/http-path.php); a WeakReference
        // instead cost ~600 instructions a request.
        $this->context->owner = $this;
    }

    /**
     * The request the calling task serves (its own, or the one of the task that started it), if
     * it is an HTTP request: what Interim::send() answers through.
     */
    public static function current(): ?self
    {
        $run = Loop::context()?->root()->owner;

        return $run instanceof self ? $run : null;
    }

    /**
     * Removes its temporary files (uploads, a body on disk): its owner calls it once the request is
     * done, or dropped unserved (only when it has some: most requests have none).
     */
    public function removeTempFiles(): void
    {
        foreach ($this->tempFiles as $path) {
            if (\is_file($path)) {
                @\unlink($path);
            }
        }
    }

    /**
     * Sends an interim (1xx) response ahead of the final one (see RequestOwner::sendInformational()).
     *
     * @param array<string, string|list<string>> $headers
     */
    public function sendInformational(int $status, array $headers): bool
    {
        if ($status < 100 || $status > 199 || $status === 101) {
            throw new \InvalidArgumentException(\sprintf('An interim response has a 1xx status other than 101, not %d', $status));
        }

        return !$this->handled && !$this->timedOut && $this->owner->sendInformational($this, $status, $headers);
    }
}
