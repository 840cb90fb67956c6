<?php

declare(strict_types=1);

namespace Spindle\Server;

use Psr\Log\LoggerInterface;
use Spindle\Http\Clock;
use Spindle\Http\Exchange;
use Spindle\Http\HttpException;
use Spindle\Http\Request;
use Spindle\Http\RequestDispatcher;
use Spindle\Http\RequestHandler;
use Spindle\Http\Response;
use Spindle\Server\AccessLog\RequestIds;
use Spindle\Loop\Context;
use Spindle\Loop\Loop;
use Spindle\Loop\TaskRunner;

/**
 * Runs each request a connection hands over: in a fiber of its own (from the TaskRunner), within
 * the worker's --concurrency, through the request handler (the app behind the worker's middleware,
see RequestPath), and answers it: with the handler's response,
 * a 500 when the app throws (its status for an HttpException), or a 504 when the request outlives
 * --request-timeout (then it is cancelled where it waits; a response already begun is cut).
 *
 * The request timeout is the same for every request, so the running requests' deadlines come in
 * the order the requests began: they are kept in that order, and expire() looks only at the
 * oldest. The server calls expire() from its one 50 ms timer (HttpServer, with the connections'
 * TimeoutWheel) with its one Clock. A request costs one insert and one removal, and no timer.
 */
final class RequestRunner implements RequestDispatcher
{
    /** @var array<int, RunningRequest> the requests under way, oldest first */
    private array $running = [];
    /** @var \Closure(RunningRequest): void the fiber's task, made once */
    private readonly \Closure $task;
    private readonly ErrorResponses $errors;
    /** @var \Closure(Context, \Throwable): void made once */
    private readonly \Closure $afterResponseFailed;

    /**
     * @param (\Closure(): void)|null $afterEach runs once the app returned (the worker's recycling checks)
     */
    public function __construct(
        private readonly RequestHandler $app,
        private readonly TaskRunner $tasks,
        private readonly LoggerInterface $logger,
        private readonly Clock $clock,
        private readonly ConcurrencyLimit $limit,
        private readonly WorkerStats $stats = new WorkerStats(),
        /** Seconds a request may run before it gets a 504 and is cancelled (0: no limit). */
        private readonly float $requestTimeout = 0.0,
        /** Whether a 500 shows the exception (--debug). */
        bool $debug = false,
        private readonly ?\Closure $afterEach = null,
    ) {
        $this->task = $this->run(...);
        $this->errors = new ErrorResponses($logger, $debug);
        $this->afterResponseFailed = $this->logAfterResponseFailure(...);
    }

    public function dispatch(Exchange $exchange): void
    {
        $request = $exchange->request;
        $run = new RunningRequest($exchange, new Context($request->method . ' ' . $request->path), $this->clock->now);
        // Every request is kept while it runs: the timeout looks at the oldest, and a request that
        // ends the process (exit(), a fatal error) is found among them (see interrupted()).
        $this->running[\spl_object_id($run)] = $run;
        $this->tasks->run($run->context, $this->task, $run);
    }

    /** Number of requests under way. */
    public function runningCount(): int
    {
        return \count($this->running);
    }

    /**
     * Answers and cancels the requests that began more than --request-timeout before $now. The
     * server's timer calls it; tests call it with their own clock.
     */
    public function expire(float $now): void
    {
        if ($this->requestTimeout <= 0) {
            return;
        }
        while (($id = \array_key_first($this->running)) !== null) {
            $run = $this->running[$id];
            $elapsed = $now - $run->startedAt;
            if ($elapsed <= $this->requestTimeout) {
                break;
            }
            unset($this->running[$id]);
            $this->timeOut($run, $elapsed);
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
     * connection if its response had begun, and settles what its fiber would have: the
     * concurrency slot, the counts, the exchange (its upload files go, the connection closes
     * after the response: it was left mid-request). Returns whether $response was sent (false:
     * cut, or already answered by the request timeout).
     */
    public function abandon(RunningRequest $run, Response $response): bool
    {
        if (!$run->handled) {
            // It was in the application, holding a slot (one waiting for a slot waits in the loop).
            $run->handled = true;
            $this->limit->release();
            --$this->stats->inflight;
            ++$this->stats->requests;
        }
        $exchange = $run->exchange;
        $answered = false;
        if ($exchange->responseBegun()) {
            $exchange->abort();
        } elseif (!$run->timedOut) {
            $id = $run->context->get(RequestIds::CONTEXT_KEY);
            $exchange->respond(\is_string($id) ? RequestIds::withId($response, $id) : $response);
            $answered = true;
        }
        $this->end($run);

        return $answered;
    }

    /**
     * Runs in the request's own fiber.
     *
     * No `finally` here nor in call(): PHP's tracing JIT does not compile a trace through one, so
     * the code around it ran in the interpreter on every request; the cleanup runs on both the
     * normal and the exceptional way out instead.
     */
    private function run(RunningRequest $run): void
    {
        $exchange = $run->exchange;
        $request = $exchange->request;
        try {
            $response = $this->call($request, $run);
            $run->handled = true;
            if (!$run->timedOut) {
                // (Otherwise it is too late: the request timeout answered 504, or cut the connection.)
                $exchange->respond($response);
            }
        } catch (\Throwable $e) {
            $run->context->runAfterResponse($this->afterResponseFailed);
            $this->end($run);

            throw $e;
        }
        // The work the app left for after its response (Context::afterResponse(): a framework's
        // terminate step), in this fiber, before the connection takes its next request and still
        // under the request timeout. Running it here rather than in a task of its own costs no
        // fiber and lets the app instance go back to its pool before the worker reads the next
        // request, so requests that never wait share one instance.
        $run->context->runAfterResponse($this->afterResponseFailed);
        $this->end($run);
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

    private function end(RunningRequest $run): void
    {
        unset($this->running[\spl_object_id($run)]);
        $run->exchange->finish();
    }

    /** The app's response, or the error response that stands for it. */
    private function call(Request $request, RunningRequest $run): Response
    {
        ++$this->stats->inflight;
        $slot = $this->limit->tryAcquire();
        try {
            if (!$slot) {
                // Throws, with the slot given back, when the request is cancelled meanwhile.
                $this->waitForSlot($run->context);
                $slot = true;
            }
            $response = $this->app->handle($request);
        } catch (\Throwable $e) {
            // (With request ids on, ErrorResponses in the handler's stack answered already.)
            $response = $this->errors->respond($request, $e, $run->timedOut);
        }
        if ($slot) {
            $this->limit->release();
        }
        $stats = $this->stats;
        --$stats->inflight;
        ++$stats->requests;
        if ($this->afterEach !== null) {
            ($this->afterEach)();
        }

        return $response;
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

    /** The request passed --request-timeout: a 504, or a cut connection once its response began; then it is cancelled. */
    private function timeOut(RunningRequest $run, float $elapsed): void
    {
        $run->timedOut = true;
        $label = $run->context->label;
        $exchange = $run->exchange;
        if ($exchange->responseBegun()) {
            $this->logger->warning(\sprintf('%s timed out after %.3f s while sending its response; closing the connection', $label, $elapsed));
            $exchange->abort();
        } else {
            $this->logger->warning(\sprintf('%s timed out after %.3f s; answered 504 Gateway Timeout', $label, $elapsed));
            // Closes the connection once written: requests pipelined behind are dropped.
            $exchange->fail(new HttpException(504, 'Gateway Timeout'));
        }
        $this->tasks->cancel($run->context, new RequestTimedOut(\sprintf('%s timed out after %.3f s', $label, $elapsed)));
    }
}
