<?php

declare(strict_types=1);

namespace Spindle\Http;

use Psr\Log\LoggerInterface;
use Spindle\Loop\Context;
use Spindle\Loop\Loop;
use Spindle\Loop\TaskCancelled;
use Spindle\Loop\TaskRunner;

/**
 * What a worker's connections share to run their requests: each connection starts its request's
 * task here (a fiber from the TaskRunner), and from that task calls the request handler here (the
 * app behind the server's middleware), within --concurrency, and gets back the response to write:
 * the handler's, or the one that stands for what it threw (ErrorResponses: an HttpException's
 * status, otherwise a 500). It keeps the requests under way for the request timeout (a 504 and
 * cancellation) and for a request that ends the process (interrupted(), abandon()).
 *
 * The request timeout is the same for every request, so the running requests' deadlines come in
 * the order the requests began: they are kept in that order, and expire() looks only at the
 * oldest. The server calls expire() from its one timer (with the connections' TimeoutWheel), set
 * for the earliest deadline of either, with its one Clock. A request costs two inserts and two
 * removals, and no timer.
 */
final class RequestRunner
{
    /**
     * @var array<int, RunningRequest> the requests under way, oldest first (those timed out or
     *      streaming their response stay until they end, skipped by expire())
     */
    private array $running = [];
    /** @var (\Closure(float): void)|null see wakeBy() */
    private ?\Closure $wake = null;
    private readonly ErrorResponses $errors;
    /** @var \Closure(Context, \Throwable): void made once */
    private readonly \Closure $afterResponseFailed;
    /** @var \Closure(string): TaskCancelled */
    private readonly \Closure $timedOut;
    /** @var \Closure(RunningRequest): void the task every request runs in (serve()), made once */
    private readonly \Closure $task;
    /** Requests the handler finished (answered or failed) so far. */
    private int $requests = 0;
    /** Requests in the handler now, waiting for a concurrency slot included. */
    private int $inflight = 0;

    /**
     * @param (\Closure(): void)|null $afterEach runs once the handler returned (the worker's recycling checks)
     * @param (\Closure(string): TaskCancelled)|null $timedOut the cancellation a request that
     *        outlived the request timeout gets where it waits, from its message (the server's
     *        RequestTimedOut); a plain TaskCancelled without one
     */
    public function __construct(
        private readonly RequestHandler $handler,
        private readonly TaskRunner $tasks,
        private readonly LoggerInterface $logger,
        private readonly Clock $clock,
        private readonly ConcurrencyLimit $limit,
        /** Seconds a request may run before it gets a 504 and is cancelled (0: no limit). */
        private readonly float $requestTimeout = 0.0,
        /** Whether a 500 shows the exception (--debug). */
        bool $debug = false,
        private readonly ?\Closure $afterEach = null,
        ?\Closure $timedOut = null,
    ) {
        $this->errors = new ErrorResponses($logger, $debug);
        $this->afterResponseFailed = $this->logAfterResponseFailure(...);
        $this->timedOut = $timedOut ?? static fn (string $message): TaskCancelled => new TaskCancelled($message);
        $this->task = $this->serve(...);
    }

    /**
     * Starts $run's task now, in a fiber of its own with $run's context (serve()); returns once
     * the task finished or first waited. The connection a request came on calls it.
     */
    public function start(RunningRequest $run): void
    {
        $run->startedAt = $this->clock->now;
        if ($this->running === [] && $this->requestTimeout > 0 && $this->wake !== null) {
            // It is the oldest: its deadline is the next.
            ($this->wake)($run->startedAt + $this->requestTimeout);
        }
        // Every request is kept while it runs: the timeout looks at the oldest, and a request that
        // ends the process (exit(), a fatal error) is found among them (see interrupted()).
        $this->running[\spl_object_id($run)] = $run;
        $this->tasks->run($run->context, $this->task, $run);
    }

    /**
     * A request's task, in its own fiber, the same for every protocol: the handler's response (or
     * the one that stands for its error) goes to the request's owner to write, the work the app
     * left for after it runs (end()), and the owner lets the request go (RequestOwner::finish():
     * its files and memory, the next request of its connection).
     *
     * No `finally`, on purpose: PHP's tracing JIT does not compile a trace through one, so the
     * code around it ran in the interpreter on every request; the cleanup runs on the normal and
     * on the exceptional way out instead, which saves about 1,100 instructions a request
     * (docs/architecture.md, "A request's path through a worker"). TaskRunner::work() does the same.
     */
    private function serve(RunningRequest $run): void
    {
        try {
            $response = $this->handle($run);
            if (!$run->timedOut) {
                // (Otherwise it is too late: the request timeout answered 504, or cut the connection.)
                $run->owner->respond($run, $response);
            }
        } catch (\Throwable $e) {
            $this->end($run);
            $run->owner->finish($run);

            throw $e;
        }
        $this->end($run);
        $run->owner->finish($run);
    }

    /**
     * In $run's task: the handler's response, or the error response that stands for what it
     * threw. Waits for a concurrency slot first when none is free.
     */
    public function handle(RunningRequest $run): Response
    {
        ++$this->inflight;
        $slot = $this->limit->tryAcquire();
        $request = $run->request;
        try {
            if (!$slot) {
                // Throws, with the slot given back, when the request is cancelled meanwhile.
                $this->waitForSlot($run->context);
                $slot = true;
            }
            $response = $this->handler->handle($request);
        } catch (\Throwable $e) {
            // (With request ids on, ErrorResponses in the handler's stack answered already.)
            $response = $this->errors->respond($request, $e, $run->timedOut);
        }
        $run->handled = true;
        if ($slot) {
            $this->limit->release();
        }
        --$this->inflight;
        ++$this->requests;
        if ($this->afterEach !== null) {
            ($this->afterEach)();
        }

        return $response;
    }

    /**
     * In $run's task, once its response was written (or dropped): the work the app left for after
     * its response (Context::defer(): a framework's terminate step) runs here, in the
     * request's fiber, before its connection takes the next request and still under the request
     * timeout. Running it here rather than in a task of its own costs no fiber and lets the app
     * instance go back to its pool before the worker reads the next request, so requests that
     * never wait share one instance.
     */
    public function end(RunningRequest $run): void
    {
        $run->context->runDeferred($this->afterResponseFailed);
        unset($this->running[\spl_object_id($run)]);
        // Its context pointed back at it (RunningRequest::current()): the cycle ends here.
        $run->context->owner = null;
    }

    /**
     * $run's response was produced and its body is a stream that goes on (server-sent events, a
     * long download): the request timeout, which covers producing a response, no longer applies
     * to it. What bounds it from now on is its connection's (a client that stops reading is cut
     * after the write timeout) and the app's own.
     */
    public function streaming(RunningRequest $run): void
    {
        $run->streaming = true;
    }

    /**
     * $wake is told the deadline of each request that becomes the oldest under way, so that
     * expire() runs by then (the server's timer).
     *
     * @param \Closure(float): void $wake
     */
    public function wakeBy(\Closure $wake): void
    {
        $this->wake = $wake;
    }

    /** When the oldest request under the timeout runs out of time (INF: none can). */
    public function nextDeadline(): float
    {
        if ($this->requestTimeout > 0) {
            foreach ($this->running as $run) {
                if (!$run->timedOut && !$run->streaming) {
                    return $run->startedAt + $this->requestTimeout;
                }
            }
        }

        return \INF;
    }

    /** What starts the worker's tasks (connection drivers run their own through it too). */
    public function tasks(): TaskRunner
    {
        return $this->tasks;
    }

    /** Number of requests under way. */
    public function runningCount(): int
    {
        return \count($this->running);
    }

    /** Requests the handler finished (answered or failed) so far. */
    public function requestCount(): int
    {
        return $this->requests;
    }

    /** Requests in the handler now, waiting for a concurrency slot included. */
    public function inflightCount(): int
    {
        return $this->inflight;
    }

    /**
     * Answers and cancels the requests that began more than the request timeout before $now: a
     * 504, or a cut connection once the response began. The server's timer calls it; tests call
     * it with their own clock.
     */
    public function expire(float $now): void
    {
        if ($this->requestTimeout <= 0) {
            return;
        }
        foreach ($this->running as $run) {
            if ($run->timedOut || $run->streaming) {
                continue;
            }
            $elapsed = $now - $run->startedAt;
            if ($elapsed <= $this->requestTimeout) {
                break;
            }
            $run->timedOut = true;
            $label = $run->context->label;
            if ($run->owner->timeOut($run)) {
                $this->logger->warning(\sprintf('%s timed out after %.3f s while sending its response; closing the connection', $label, $elapsed));
            } else {
                $this->logger->warning(\sprintf('%s timed out after %.3f s; answered 504 Gateway Timeout', $label, $elapsed));
            }
            $this->tasks->cancel($run->context, ($this->timedOut)(\sprintf('%s timed out after %.3f s', $label, $elapsed)));
        }
    }

    /**
     * The requests under way whose fiber is not waiting in the loop: once a request has ended
     * the process (exit(), die, a fatal error), the one that did, and any request whose task it
     * was running (a request started from inside another). Every other request under way waits
     * in the loop and can still be resumed. Only meaningful from a shutdown function.
     *
     * @return list<RunningRequest>
     */
    public function interrupted(): array
    {
        $found = [];
        foreach ($this->running as $run) {
            if (!$run->context->isWaiting()) {
                $found[] = $run;
            }
        }

        return $found;
    }

    /**
     * Answers $run, whose fiber is gone (it ended the process), with $response, or cuts its
     * connection if its response had begun, and settles what its task would have: the
     * concurrency slot, the counts, the request (its upload files go, the connection closes
     * after the response: it was left mid-request). Returns whether $response was sent (false:
     * cut, or already answered by the request timeout).
     */
    public function abandon(RunningRequest $run, Response $response): bool
    {
        if (!$run->handled) {
            // It was in the handler, holding a slot (one waiting for a slot waits in the loop).
            $run->handled = true;
            $this->limit->release();
            --$this->inflight;
            ++$this->requests;
        }
        unset($this->running[\spl_object_id($run)]);
        $run->context->owner = null;

        return $run->owner->abandon($run, $response);
    }

    /** A step of the work after a response threw: logged, and the request still ends. */
    private function logAfterResponseFailure(Context $context, \Throwable $e): void
    {
        try {
            $this->logger->error(\sprintf('%s: the work after its response failed: %s', $context->label, $e->getMessage()), ['exception' => $e]);
        } catch (\Throwable) {
            // A logger that fails must not keep the request from ending.
        }
    }

    /**
     * Waits for a concurrency slot. A cancellation (the request timeout) must not interrupt this
     * wait, or the slot would later be handed to a request that no longer waits for it: the
     * request waits shielded, then gives the slot straight back and ends.
     */
    private function waitForSlot(Context $context): void
    {
        if (Loop::context() !== $context) {
            $this->limit->acquire();

            return;
        }
        $context->shield($this->limit->acquire(...));
        $cancellation = $context->takeCancellation();
        if ($cancellation !== null) {
            $this->limit->release();

            throw $cancellation;
        }
    }
}
