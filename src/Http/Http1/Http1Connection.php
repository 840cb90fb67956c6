<?php

declare(strict_types=1);

namespace Spindle\Http\Http1;

use Revolt\EventLoop;
use Spindle\Http\ConnectionClosed;
use Spindle\Http\ConnectionDriver;
use Spindle\Http\ConnectionEvents;
use Spindle\Http\Expiring;
use Spindle\Http\Peer;
use Spindle\Http\RequestOwner;
use Spindle\Http\UpgradeHandler;
use Spindle\Http\ConnectionServices;
use Spindle\Http\ErrorAnswer;
use Spindle\Http\HttpException;
use Spindle\Http\Request;
use Spindle\Http\RequestBody;
use Spindle\Http\Response;
use Spindle\Http\RunningRequest;

/**
 * One accepted HTTP/1.1 connection: reads bytes into its RequestAssembler, runs each whole
 * request in a task of its own (started through the worker's RequestRunner, which calls the
 * request handler within --concurrency and the request timeout), writes what the handler
 * returns, in request order, then takes the next request; and enforces the connection's own
 * timeouts (header, body, keep-alive, stalled writes) and backpressure. Nothing calls back into
 * it for a request: its task writes the response and ends the request itself.
 *
 * Pipelined requests run one at a time, in order: the next once the one before ended (its
 * response written, its after-response work done). Reading pauses while too many requests are
 * queued, once more than HttpLimits::$bodyBufferSize was read ahead of the request that runs, or
 * while the client is not reading what was already written.
 *
 * A request body must keep arriving: a stall longer than the body timeout, or a body that falls
 * behind the minimum rate once its grace is over, is answered 408. A body that falls behind that
 * rate also makes its connection one that may be closed to make room for a new one (see
 * waitingSince()), as a connection trickling its head does.
 *
 * Over 500 lines: one connection's life (reading, the pipelining queue, its phases, the answers
 * RequestRunner asks of it, backpressure, the memory of its bodies) on the path of every request,
 * where calls are kept few on purpose (phases as ints, see ConnectionPhase). Its own classes:
 * parsing and assembling (RequestAssembler), writing (ResponseWriter), its deadlines
 * (Http1Deadlines), the hand-overs to another driver (Http1Handover), and, shared with the other
 * drivers, each request's task with its slots, request timeout and error responses (RequestRunner).
 */
final class Http1Connection implements ConnectionDriver, Expiring, RequestOwner
{
    private const READ_SIZE = 65536;
    /** The phases, as positions in ConnectionPhase::cases() (see $phase). */
    private const WAITING = 0;
    private const RUNNING = 1;
    private const RESPONDING = 2;
    private const LAST_RESPONSE = 3;
    private const CLOSING = 4;
    private const CLOSED = 5;
    /** Seconds an idle connection of a draining worker stays open for a request on its way. */
    private const DRAIN_GRACE = 1.0;
    /** The interim response a client that sent `Expect: 100-continue` waits for before its body. */
    private const CONTINUE = "HTTP/1.1 100 Continue\r\n\r\n";

    private readonly RequestAssembler $requests;
    private readonly ResponseWriter $writer;
    private readonly string $readId;
    private bool $readPaused = false;

    /** @var list<RunningRequest|HttpException> requests waiting their turn, and a parse error that ends the queue */
    private array $queue = [];
    /** The request that runs now (null: none). */
    private ?RunningRequest $current = null;
    /**
     * The connection's phase: a ConnectionPhase case, held as its position in
     * ConnectionPhase::cases() (see phase()). The request path looks at it about six times per
     * request, and under the tracing JIT fetching an enum case costs about 80 instructions where
     * a constant of this class costs none (its value is compiled in).
     */
    private int $phase = self::WAITING;
    /** $current's response corked the writer for the requests pipelined behind it (see finish()). */
    private bool $corkedForNext = false;
    private int $served = 0;
    private bool $continuePending = false;
    /** Bytes read while a request ran (see onReadable()), since reading last resumed with an empty queue. */
    private int $readAhead = 0;
    /** A body began to arrive while a request before it ran, or waits for its "100 Continue" (see finish()). */
    private bool $bodyBehindRequest = false;
    /** The connection's own timeouts (header, body, keep-alive, stalled writes, drain grace). */
    private readonly Http1Deadlines $deadlines;
    /** The worker drains (see drain()): the response in progress is the last. A field, not a call: read on every request. */
    private bool $draining = false;
    /** The body being streamed to its handler (StreamsRequestBody), until its request ends. */
    private ?RequestBody $bodyStream = null;
    /** The first bytes read while they may still be HTTP/2's preface ('': none yet; null: decided). */
    private ?string $preface = '';
    /** The response of $current switches protocols: who takes the socket once it is written (see handOver()). */
    private ?UpgradeHandler $upgrade = null;
    /** Makes the driver that takes the socket over (h2c, an upgrade): see takeover(). */
    private ?Http1Handover $handover = null;

    /**
     * @param resource $socket
     */
    public function __construct(
        private readonly mixed $socket,
        private readonly ConnectionServices $set,
        private readonly ConnectionEvents $events,
        public readonly Peer $peer,
    ) {
        $this->requests = new RequestAssembler(
            $set->limits,
            $set->uploadDir,
            $this->onBodyBegins(...),
            $this->onRequest(...),
            $peer,
            $set->heads,
            $set->bodyMemory,
            $set->clock,
            $set->streamBodies ? $this->newBodyStream(...) : null,
        );
        $this->writer = new ResponseWriter($socket, $set, $this->onBuffered(...), $this->onFlushed(...), $this->close(...));
        $this->deadlines = new Http1Deadlines($this, $set->limits, $set->clock, $set->timeouts, $this->requests, $this->writer);
        $this->readId = EventLoop::onReadable($socket, $this->onReadable(...));
        $this->deadlines->checkBy($this->nextDeadline());
    }

    public function isClosed(): bool
    {
        return $this->phase === self::CLOSED;
    }

    public function phase(): ConnectionPhase
    {
        return ConnectionPhase::cases()[$this->phase];
    }

    /**
     * Since when the connection has waited for a request without having one whole: a new
     * connection that sent nothing (since it was accepted), one still sending a request head
     * (since its first byte, so a client trickling a head byte by byte gets no younger), one
     * whose body arrives slower than the minimum body rate (since it fell behind: its start, plus
     * a second for every bodyMinRate bytes that came), or an idle keep-alive connection (since its
     * last read or write). Null while it has a request queued or running, is reading a body that
     * keeps up with the minimum rate (or there is none), or is still writing a response.
     */
    public function waitingSince(): ?float
    {
        if ($this->phase === self::CLOSED || $this->current !== null || $this->queue !== [] || $this->writer->buffered !== 0) {
            return null;
        }

        return $this->deadlines->waitingSince($this->served);
    }

    /** Stop taking requests: close now if idle, otherwise after the responses in progress. */
    public function drain(): void
    {
        // An idle connection is not closed at once: a request may already be on its way (a client
        // that just connected, or a keep-alive client about to send its next request), and closing
        // would lose it. It gets DRAIN_GRACE seconds; a request that arrives is answered with
        // "Connection: close". The timeout sweep closes it when the grace is over.
        $this->draining = true;
        $this->deadlines->drain(self::DRAIN_GRACE);
    }

    /** The earliest moment one of its timeouts can expire in its present state (INF: none can). */
    public function nextDeadline(): float
    {
        return $this->phase === self::CLOSED ? \INF : $this->deadlines->due($this->current !== null || $this->queue !== [], $this->served)[0];
    }

    /**
     * @internal The timeout wheel's check: enforces whatever expired by $now (Http1Deadlines
     * knows which), then asks to be checked again by the next deadline.
     */
    public function expireTimeouts(float $now): void
    {
        if ($this->phase === self::CLOSED) {
            return;
        }
        match ($this->deadlines->expired($now, $this->current !== null || $this->queue !== [], $this->served)) {
            Http1Timeout::None => null,
            Http1Timeout::BodyStalled => $this->fail(new HttpException(408, 'Timed out reading the request body')),
            Http1Timeout::BodyTooSlow => $this->fail(new HttpException(408, 'Request body arrived too slowly')),
            Http1Timeout::HeadTooSlow => $this->fail(new HttpException(408, 'Timed out reading the request header section')),
            // A new connection has --header-timeout to start its first request, as a head has to
            // finish: a client cannot hold connections open by never sending anything. Idle
            // connections time out from the last request's arrival or the last response's end.
            Http1Timeout::WriteStalled, Http1Timeout::DrainGrace, Http1Timeout::NoFirstRequest, Http1Timeout::KeepAlive => $this->close(),
        };
        if ($this->phase !== self::CLOSED) {
            $this->deadlines->checkBy($this->nextDeadline());
        }
    }

    private function onReadable(): void
    {
        $data = @\fread($this->socket, self::READ_SIZE);
        if ($data === false || $data === '') {
            if ($data === false || \feof($this->socket)) {
                $this->close();
            }

            return;
        }
        if ($this->preface !== null) {
            // The connection's first bytes: HTTP/2 by prior knowledge (h2c) begins with its preface.
            $data = $this->preface . $data;
            $isHttp2 = Http1Handover::isHttp2($data);
            if ($isHttp2 === null) {
                $this->preface = $data;

                return;
            }
            $this->preface = null;
            if ($isHttp2) {
                $this->switchToHttp2($data);

                return;
            }
        }
        $this->deadlines->read();
        try {
            $this->requests->push($data);
        } catch (HttpException $e) {
            // Requests parsed before the error in this same read may still be waiting: they are
            // answered first, then the error (fail() queued it behind them).
            $this->fail($e);
            if ($this->queue !== [] && $this->current === null) {
                $this->runNext();
            }

            return;
        }
        if ($this->requests->isReadingHead()) {
            $this->deadlines->headArriving();
        }
        if ($this->queue !== [] && $this->current === null) {
            $this->runNext();
        }
        $stream = $this->bodyStream;
        if ($stream !== null && !$stream->isComplete()) {
            // The body of the request that runs, read as it arrives: at most about
            // --body-buffer-size waits for its handler, which resumes reading (onBodyRead()).
            $this->readAhead = 0;
            if ($stream->buffered() > $this->set->limits->bodyBufferSize) {
                $this->pauseReading();
            }
        } elseif ($this->current !== null) {
            // Read while a request runs: the client is pipelining. Requests and bodies read ahead
            // of the one that runs are held until their turn, so only so much is read ahead. (With
            // no request running, none is queued either unless the client is not reading its
            // responses: then the writer paused reading already.)
            $this->readAhead += \strlen($data);
            if ($this->readAhead > $this->set->limits->bodyBufferSize || \count($this->queue) >= $this->set->limits->maxPipelined) {
                $this->pauseReading();
            }
        }
    }

    /**
     * A head with a body arrived. Its timeouts may end before the keep-alive one would have, so
     * the wheel checks it by then. A "100 Continue" it asked for goes now, or once the requests
     * before it are answered; a body behind such requests is timed from then (see finish()).
     */
    private function onBodyBegins(bool $expectsContinue): void
    {
        if ($this->current === null && $this->queue === []) {
            if ($expectsContinue) {
                $this->write(self::CONTINUE);
            }
            $this->deadlines->checkBy($this->nextDeadline());
        } else {
            $this->continuePending = $expectsContinue;
            $this->bodyBehindRequest = true;
        }
    }

    private function newBodyStream(): RequestBody
    {
        return $this->bodyStream = new RequestBody($this->onBodyRead(...));
    }

    /** The handler read what its body stream held: read from the client again. */
    private function onBodyRead(int $bytes): void
    {
        if ($this->readPaused && $this->phase !== self::CLOSED && $this->writer->buffered < $this->set->limits->writeHighWater) {
            $this->readPaused = false;
            EventLoop::enable($this->readId);
        }
    }

    /** @param list<string> $tempFiles */
    private function onRequest(Request $request, array $tempFiles, bool $keepAlive): void
    {
        $this->continuePending = false;
        $this->queue[] = new RunningRequest($request, $this, $tempFiles, $keepAlive);
    }

    /** Runs the next queued request, if its turn has come. */
    private function runNext(): void
    {
        // Only while Waiting (no request running): a connection that is closing serves none of
        // the requests pipelined behind. (The queue is looked at first: it is empty most times.)
        while ($this->queue !== [] && $this->phase === self::WAITING && $this->writer->buffered < $this->set->limits->writeHighWater) {
            $next = \array_shift($this->queue);
            if ($next instanceof HttpException) {
                $this->sendError($next);

                return;
            }
            $this->current = $next;
            $this->phase = self::RUNNING;
            // Returns once its task finished or first waited.
            $this->set->requests->start($next);
        }
        if ($this->continuePending && $this->current === null && $this->queue === [] && $this->phase !== self::CLOSED) {
            $this->continuePending = false;
            $this->write(self::CONTINUE);
        }
        if ($this->readPaused && $this->phase !== self::CLOSED && ($this->queue === [] || $this->readAhead <= $this->set->limits->bodyBufferSize)
            && \count($this->queue) < $this->set->limits->maxPipelined
            && $this->writer->buffered < $this->set->limits->writeHighWater) {
            $this->readAhead = 0;
            $this->readPaused = false;
            EventLoop::enable($this->readId);
        }
    }

    /**
     * Writes $run's response (head, then body: a string at once, a file or a stream piece by piece,
     * suspending the request's fiber while the client is behind). A response that cannot be sent
     * (an invalid header, a file that cannot be read, a stream that fails) is logged and answered
     * with a 500 when its head has not gone out yet, or cuts the connection. Nothing is written
     * once the request timeout answered, or the connection closed. (RequestRunner::serve(), the
     * request's task, calls it; no `finally` on that path, see there.)
     */
    public function services(): ConnectionServices
    {
        return $this->set;
    }

    public function respond(RunningRequest $run, Response $response): void
    {
        if ($run !== $this->current || $this->phase !== self::RUNNING) {
            return;
        }
        // A stop that began while the request ran: announce that this is the last response. A
        // body its handler did not read to the end leaves bytes that are no request: the last too.
        $keepAlive = $run->keepAlive && !$this->draining && ($run->request->bodyStream?->isComplete() ?? true);
        if ($keepAlive) {
            $max = $this->set->limits->maxRequestsPerConnection;
            $keepAlive = $max <= 0 || $this->served + 1 < $max;
        }
        $this->phase = $keepAlive ? self::RESPONDING : self::LAST_RESPONSE;
        if ($this->queue !== []) {
            // Requests pipelined behind this one: their answers may join this one (finish() uncorks).
            $this->writer->cork();
            $this->corkedForNext = true;
        }
        if ($response->upgrade !== null) {
            $this->switchProtocols($run, $response, $response->upgrade);

            return;
        }
        if (!\is_string($response->body)) {
            // A file or a stream: the response is produced, and the request timeout is over.
            $this->set->requests->streaming($run);
        }
        try {
            $this->writer->send($run->request, $response, $keepAlive);
        } catch (ConnectionClosed) {
            // The client left; nothing more to do for this request.
            $keepAlive = false;
        } catch (\Throwable $e) {
            $request = $run->request;
            $this->set->logger->error(\sprintf('%s %s: response could not be sent: %s', $request->method, $request->path, $e->getMessage()), ['exception' => $e]);
            $keepAlive = false;
            $this->close();
        }
        if (!$keepAlive && $this->phase === self::RESPONDING) {
            $this->phase = self::LAST_RESPONSE;
        }
    }

    /**
     * Writes the 101 of an upgrade: the connection reads no more as HTTP, and is handed over once
     * the request has ended (see finish()). An upgrade the request cannot take is a 500, and the
     * connection's last response (Http1Handover::switchingHead()).
     */
    private function switchProtocols(RunningRequest $run, Response $response, UpgradeHandler $upgrade): void
    {
        $this->phase = self::LAST_RESPONSE;
        $this->pauseReading();
        [$head, $switches] = $this->takeover()->switchingHead($run->request, $response);
        try {
            $this->write($head);
            if ($switches) {
                $this->upgrade = $upgrade;
            }
        } catch (ConnectionClosed) {
            // The client left before its answer.
        }
    }

    /**
     * The request that switched protocols has ended: the socket, the bytes read past the request
     * and those of the 101 not written yet go to the upgrade's driver (Http1Handover::toUpgrade()).
     */
    private function handOver(UpgradeHandler $upgrade, Request $request): void
    {
        $this->release();
        $this->dropQueue();
        $readAhead = $this->requests->takeUnparsed();
        $this->requests->abort();
        $this->takeover()->toUpgrade($this, $upgrade, $request, $readAhead, $this->writer->detach());
    }

    /** The client speaks HTTP/2 by prior knowledge: the socket and the bytes read go to an HTTP/2 driver. */
    private function switchToHttp2(string $bytes): void
    {
        $this->release();
        $this->writer->detach();
        $this->takeover()->toHttp2($this, $bytes);
    }

    private function takeover(): Http1Handover
    {
        return $this->handover ??= new Http1Handover($this->socket, $this->set, $this->events, $this->peer);
    }

    /**
     * Sends an interim response ahead of $run's final one: only when --early-hints-http1 allows
     * them, only to an HTTP/1.1 client (RFC 9110 §15.2: not to HTTP/1.0), and only while its
     * response has not begun.
     *
     * @param array<string, string|list<string>> $headers
     */
    public function sendInformational(RunningRequest $run, int $status, array $headers): bool
    {
        if (!$this->set->interimOverHttp1 || $run !== $this->current || $this->phase !== self::RUNNING || $run->request->protocolVersion !== '1.1') {
            return false;
        }
        try {
            $this->write($this->set->serializer->informational($status, $headers));
        } catch (ConnectionClosed) {
            return false;
        }

        return true;
    }

    /**
     * @internal RequestRunner::expire(): $run outlived the request timeout. Answers 504 and closes
     * once that is written (requests pipelined behind are dropped), or cuts the connection when
     * its response had begun. Returns whether it was cut. Its task goes on until cancelled, and
     * then ends the request as any other.
     */
    public function timeOut(RunningRequest $run): bool
    {
        if ($run !== $this->current) {
            return false;
        }
        if ($this->phase !== self::RUNNING) {
            // Its response began (a closed connection included): only cutting is left.
            $this->close();

            return true;
        }
        try {
            // Closing from here: the answer is the connection's last.
            $this->sendError(new HttpException(504, 'Gateway Timeout'));
        } catch (ConnectionClosed) {
            // The client is gone as well.
        }

        return false;
    }

    /**
     * @internal RequestRunner::abandon(): $run's task is gone (it ended the process). Writes
     * $response unless its response had begun (then cuts the connection) or the request timeout
     * answered, and ends the request. Returns whether $response was written.
     */
    public function abandon(RunningRequest $run, Response $response): bool
    {
        $answered = false;
        if ($run === $this->current && $this->phase !== self::RUNNING) {
            $this->close();
        } elseif (!$run->timedOut) {
            $this->respond($run, $response);
            $answered = true;
        }
        $this->finish($run);

        return $answered;
    }

    /** $run is done: its temporary files and memory go, and the next request runs. */
    public function finish(RunningRequest $run): void
    {
        if ($run->tempFiles !== []) {
            $run->removeTempFiles();
        }
        if ($run->request->body !== '') {
            // A body in memory holds its length of the worker's BodyMemory (RequestAssembler).
            $this->set->bodyMemory->give(\strlen($run->request->body));
        }
        if ($run !== $this->current) {
            return;
        }
        $phase = $this->phase;
        $this->current = null;
        if ($run->request->bodyStream !== null) {
            $this->bodyStream = null;
        }
        ++$this->served;
        $corked = $this->corkedForNext;
        $this->corkedForNext = false;
        if ($this->upgrade !== null) {
            $upgrade = $this->upgrade;
            $this->upgrade = null;
            if ($phase !== self::CLOSED) {
                $this->handOver($upgrade, $run->request);
            }

            return;
        }
        if ($phase !== self::RESPONDING) {
            if ($phase !== self::CLOSED) {
                // Its response was the last (or it never had one): no request after it is served.
                $this->closeWhenFlushed();
            }

            return;
        }
        $this->phase = self::WAITING;
        if ($this->writer->buffered === 0) {
            // The keep-alive timeout counts from here, not from when this request arrived.
            $this->deadlines->keepAliveFrom();
        }
        $this->runNext();
        if ($this->bodyBehindRequest && $this->current === null && $this->queue === []) {
            // A body that arrived (or waited for its "100 Continue") while the requests before it
            // ran: its timeouts stood still meanwhile, and count from now.
            $this->bodyBehindRequest = false;
            if ($this->requests->head !== null) {
                $this->deadlines->bodyResumed();
                $this->deadlines->checkBy($this->nextDeadline());
            }
        }
        if ($corked) {
            $this->writer->uncork();
        }
        if ($this->draining && $this->current === null && $this->queue === [] && $this->requests->isIdle()) {
            $this->closeWhenFlushed();
        }
    }

    /** Answers a request that could not be parsed, then closes once the answer is written. */
    private function fail(HttpException $e): void
    {
        $this->requests->abort($e);
        $this->pauseReading();
        if ($this->current !== null || $this->queue !== []) {
            $this->queue[] = $e;

            return;
        }
        $this->sendError($e);
    }

    private function sendError(HttpException $e): void
    {
        $this->dropQueue();
        $this->write(ErrorAnswer::refusal($e)->http1($this->set->serializer, '1.1', false));
        $this->closeWhenFlushed();
    }

    private function write(string $data): void
    {
        $this->writer->write($data);
    }

    /** The writer was left with bytes the client has not taken: their deadline, and backpressure. */
    private function onBuffered(): void
    {
        $this->deadlines->writeWaiting();
        if ($this->writer->isFull()) {
            $this->pauseReading();
        }
    }

    /** The client took everything written: close if that was the last response, or go on. */
    private function onFlushed(): void
    {
        if ($this->phase === self::CLOSING) {
            $this->close();
        } elseif ($this->current === null) {
            $this->runNext();
        }
    }

    private function closeWhenFlushed(): void
    {
        $this->writer->flush();
        if ($this->writer->buffered === 0) {
            $this->close();
        } elseif ($this->phase !== self::CLOSED) {
            $this->phase = self::CLOSING;
            $this->pauseReading();
        }
    }

    private function pauseReading(): void
    {
        if (!$this->readPaused && $this->phase !== self::CLOSED) {
            $this->readPaused = true;
            EventLoop::disable($this->readId);
        }
    }

    public function close(): void
    {
        if ($this->phase === self::CLOSED) {
            return;
        }
        $this->release();
        $this->writer->close();
        $this->dropQueue();
        @\fclose($this->socket);
        $this->requests->abort();
        $this->events->closed($this);
    }

    /** The connection is done with its socket (closed, or handed over): no deadline, no read any more. */
    private function release(): void
    {
        $this->phase = self::CLOSED;
        $this->deadlines->forget();
        EventLoop::cancel($this->readId);
    }

    private function dropQueue(): void
    {
        foreach ($this->queue as $entry) {
            if ($entry instanceof RunningRequest) {
                if ($entry->tempFiles !== []) {
                    $entry->removeTempFiles();
                }
                $this->set->bodyMemory->give(\strlen($entry->request->body));
            }
        }
        $this->queue = [];
    }
}
