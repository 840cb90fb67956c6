<?php

declare(strict_types=1);

namespace Spindle\Http;

use Revolt\EventLoop;
use Revolt\EventLoop\Suspension;
use Spindle\Http\Multipart\MultipartLimits;
use Spindle\Http\Multipart\MultipartParser;
use Spindle\Http\Multipart\TempFileSink;
use Spindle\Http\Parser\RequestHead;
use Spindle\Http\Parser\RequestParser;
use Spindle\Loop\Context;
use Spindle\Server\RequestTimedOut;

/**
 * One accepted HTTP/1.1 connection: reads bytes into the parser, runs each complete request in
 * its own fiber, writes responses in request order, and enforces timeouts and backpressure.
 *
 * Pipelined requests are answered one at a time, in order. Reading pauses while too many
 * requests are queued or while the client is not reading what was already written.
 *
 * A request still running after the request timeout gets a 504 (or, when its response had
 * begun, a cut connection) and its fiber is cancelled; the connection is closed after the 504,
 * so requests pipelined behind it are dropped unanswered.
 */
final class Connection
{
    private const READ_SIZE = 65536;
    private const FILE_CHUNK = 65536;
    /** Seconds an idle connection of a draining worker stays open for a request on its way. */
    private const DRAIN_GRACE = 1.0;

    private readonly RequestParser $parser;
    private readonly string $readId;
    private ?string $writeId = null;
    private string $writeBuffer = '';
    private bool $readPaused = false;

    /** @var list<array{Request, list<string>, bool}|HttpException> requests with their upload temp files and whether the client asked to keep the connection */
    private array $queue = [];
    private bool $busy = false;
    private bool $closed = false;
    private bool $closeWhenFlushed = false;
    private bool $draining = false;
    private float $drainGraceEnds = 0.0;
    private int $served = 0;

    /** @var array{Request, list<string>, bool}|null the request being processed, as queued */
    private ?array $current = null;
    /** @var \Closure(): void processes $current; made once, not per request */
    private readonly \Closure $processCurrent;
    /** The running request's task (kept only when requests have a timeout) and its start (microtime). */
    private ?Context $task = null;
    private float $taskStartedAt = 0.0;
    /** The running request's response has begun: a timeout can only cut the connection. */
    private bool $responding = false;
    /** The running request timed out: the 504 went (or the connection was cut); its result is dropped. */
    private bool $timedOut = false;

    private ?RequestHead $head = null;
    private string $body = '';
    private ?MultipartParser $multipart = null;
    private bool $continuePending = false;

    private float $headStartedAt = 0.0;
    private readonly float $acceptedAt;
    private float $lastReadAt;
    private float $lastWriteAt = 0.0;
    /** When the timeout wheel checks this connection next (INF: it is in no slot). */
    private float $checkAt = \INF;
    /** @var Suspension<mixed>|null */
    private ?Suspension $drainWaiter = null;

    /**
     * @param resource $socket
     * @param \Closure(self): void $onClose
     */
    public function __construct(
        private readonly mixed $socket,
        private readonly ConnectionServices $set,
        private readonly \Closure $onClose,
        public readonly string $remoteAddress,
        public readonly int $remotePort,
        public readonly string $localAddress,
        public readonly int $localPort,
    ) {
        $this->lastReadAt = $this->acceptedAt = $set->clock->now;
        $this->parser = new RequestParser($set->limits, $this->onHead(...), $this->onBody(...), $this->onComplete(...));
        $this->processCurrent = $this->processCurrent(...);
        $this->readId = EventLoop::onReadable($socket, $this->onReadable(...));
        $this->checkBy($this->nextDeadline());
    }

    public function isClosed(): bool
    {
        return $this->closed;
    }

    public function isBusy(): bool
    {
        return $this->busy || $this->queue !== [];
    }

    /**
     * Since when the connection has waited for a request without having one whole: a new
     * connection that sent nothing (since it was accepted), one still sending a request head
     * (since its first byte, so a client trickling a head byte by byte gets no younger), or an
     * idle keep-alive connection (since its last read or write). Null while it has a request
     * queued or running, is reading a body or still writing a response.
     */
    public function waitingSince(): ?float
    {
        if ($this->closed || $this->busy || $this->queue !== [] || $this->writeBuffer !== '' || $this->head !== null) {
            return null;
        }
        if ($this->parser->isReadingHead()) {
            return $this->headStartedAt;
        }
        if (!$this->parser->isIdle()) {
            return null;
        }

        return $this->served === 0 ? $this->acceptedAt : \max($this->lastReadAt, $this->lastWriteAt);
    }

    /** Stop taking requests: close now if idle, otherwise after the responses in progress. */
    public function drain(): void
    {
        // An idle connection is not closed at once: a request may already be on its way (a client
        // that just connected, or a keep-alive client about to send its next request), and closing
        // would lose it. It gets DRAIN_GRACE seconds; a request that arrives is answered with
        // "Connection: close". The timeout sweep closes it when the grace is over.
        $this->draining = true;
        $this->drainGraceEnds = $this->set->clock->now + self::DRAIN_GRACE;
        $this->checkBy($this->drainGraceEnds);
    }

    /**
     * The earliest moment one of its timeouts can expire in its present state (INF: none can):
     * the same cases as checkTimeouts(), as deadlines.
     */
    public function nextDeadline(): float
    {
        if ($this->closed) {
            return \INF;
        }
        $limits = $this->set->limits;
        $next = $this->task !== null ? $this->taskStartedAt + $this->set->requestTimeout : \INF;
        if ($this->writeBuffer !== '') {
            return \min($next, $this->lastWriteAt + $limits->bodyTimeout);
        }
        if ($this->busy || $this->queue !== []) {
            return $next;
        }
        if ($this->draining && $this->parser->isIdle()) {
            $next = \min($next, $this->drainGraceEnds);
        }
        if ($this->head !== null) {
            return \min($next, $this->lastReadAt + $limits->bodyTimeout);
        }
        if ($this->parser->isReadingHead()) {
            return \min($next, $this->headStartedAt + $limits->headerTimeout);
        }
        if ($this->served === 0) {
            return \min($next, $this->lastReadAt + $limits->headerTimeout);
        }

        return \min($next, \max($this->lastReadAt, $this->lastWriteAt) + $limits->keepAliveTimeout);
    }

    /**
     * Makes sure the timeout wheel checks this connection by $deadline. Deadlines that move later
     * cost only this comparison: the earlier check finds nothing expired and moves the connection on.
     */
    private function checkBy(float $deadline): void
    {
        if ($deadline < $this->checkAt) {
            $this->checkAt = $deadline;
            $this->set->timeouts->schedule($this, $deadline);
        }
    }

    /**
     * @internal The timeout wheel's check: enforces whatever expired by $now, then asks to be
     * checked again by the next deadline.
     */
    public function expireTimeouts(float $now): void
    {
        $this->checkAt = \INF;
        $this->checkTimeouts($now);
        if (!$this->closed) {
            $this->checkBy($this->nextDeadline());
        }
    }

    /** Enforces the header, body, write, keep-alive and request timeouts that expired by $now. */
    private function checkTimeouts(float $now): void
    {
        if ($this->closed) {
            return;
        }
        if ($this->task !== null && $now - $this->taskStartedAt > $this->set->requestTimeout) {
            $this->timeOutRequest($now - $this->taskStartedAt);

            return;
        }
        $limits = $this->set->limits;
        if ($this->writeBuffer !== '') {
            if ($now - $this->lastWriteAt > $limits->bodyTimeout) {
                $this->close();
            }

            return;
        }
        if ($this->busy || $this->queue !== []) {
            return;
        }
        if ($this->draining && $this->parser->isIdle() && $now >= $this->drainGraceEnds) {
            $this->close();

            return;
        }
        if ($this->head !== null) {
            if ($now - $this->lastReadAt > $limits->bodyTimeout) {
                $this->fail(new HttpException(408, 'Timed out reading the request body'));
            }
        } elseif ($this->parser->isReadingHead()) {
            if ($now - $this->headStartedAt > $limits->headerTimeout) {
                $this->fail(new HttpException(408, 'Timed out reading the request header section'));
            }
        } elseif ($this->served === 0 && $now - $this->lastReadAt > $limits->headerTimeout) {
            // A new connection has --header-timeout to start its first request, as a request head
            // has to finish: a client cannot hold connections open by never sending anything.
            $this->close();
        } elseif ($now - \max($this->lastReadAt, $this->lastWriteAt) > $limits->keepAliveTimeout) {
            // Idle since the last request arrived or the last response went out, whichever is later.
            $this->close();
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
        $now = $this->set->clock->now;
        if ($this->parser->isIdle()) {
            $this->headStartedAt = $now;
        }
        $this->lastReadAt = $now;
        try {
            $this->parser->push($data);
        } catch (HttpException $e) {
            // Requests parsed before the error in this same read may still be waiting: they are
            // answered first, then the error (fail() queued it behind them).
            $this->fail($e);
            if ($this->queue !== [] && !$this->busy && !$this->closed) {
                $this->dispatchNext();
            }

            return;
        }
        if ($this->parser->isReadingHead()) {
            // A head still arriving: its timeout may end before the keep-alive one would have. (A
            // head that came whole in this read needs nothing: the common case costs no scheduling.)
            $this->checkBy($this->headStartedAt + $this->set->limits->headerTimeout);
        }
        if ($this->queue !== [] && !$this->busy) {
            $this->dispatchNext();
        }
        if (\count($this->queue) >= $this->set->limits->maxPipelined) {
            $this->pauseReading();
        }
    }

    private function onHead(RequestHead $head): void
    {
        $this->head = $head;
        $this->body = '';
        if ($head->hasBody()) {
            $contentType = $head->headers['content-type'][0] ?? '';
            if (\stripos($contentType, 'multipart/form-data') === 0) {
                $this->multipart = new MultipartParser(
                    MultipartParser::boundaryFromContentType($contentType),
                    new TempFileSink($this->set->uploadDir),
                    new MultipartLimits(maxFileSize: $this->set->limits->maxBodySize),
                );
            }
            if ($head->expectsContinue) {
                if (!$this->busy && $this->queue === []) {
                    $this->write("HTTP/1.1 100 Continue\r\n\r\n");
                } else {
                    $this->continuePending = true;
                }
            }
        }
    }

    private function onBody(string $piece): void
    {
        if ($this->multipart !== null) {
            $this->multipart->push($piece);
        } else {
            $this->body .= $piece;
        }
    }

    private function onComplete(): void
    {
        $head = $this->head;
        \assert($head !== null);
        $this->head = null;
        $this->continuePending = false;
        $parsedBody = [];
        $files = [];
        $tempFiles = [];
        $body = $this->body;
        $this->body = '';
        if ($this->multipart !== null) {
            $result = $this->multipart->finish();
            $tempFiles = $this->multipart->tempFiles();
            $this->multipart = null;
            $parsedBody = $result->fields;
            $files = $result->files;
        } elseif ($body !== '' && isset($head->headers['content-type'])
            && \stripos($head->headers['content-type'][0], 'application/x-www-form-urlencoded') === 0) {
            $parsedBody = FormBody::parseUrlEncoded($body);
        }
        $this->queue[] = [new Request(
            $head->method,
            $head->target,
            $head->path,
            $head->query,
            $head->protocolVersion,
            $this->set->requestIds === null ? $head->headers : ($this->set->requestIds)($head->headers),
            $body,
            $parsedBody,
            $files,
            $this->remoteAddress,
            $this->remotePort,
            $this->localAddress,
            $this->localPort,
        ), $tempFiles, $head->keepAlive];
    }

    private function dispatchNext(): void
    {
        while (!$this->busy && !$this->closed && $this->queue !== [] && \strlen($this->writeBuffer) < $this->set->limits->writeHighWater) {
            $next = \array_shift($this->queue);
            if ($next instanceof HttpException) {
                $this->sendError($next);

                return;
            }
            $this->busy = true;
            $this->current = $next;
            $context = new Context($next[0]->method . ' ' . $next[0]->path);
            if ($this->set->requestTimeout > 0) {
                $this->task = $context;
                $this->taskStartedAt = $this->set->clock->now;
                $this->checkBy($this->taskStartedAt + $this->set->requestTimeout);
            }
            $this->set->runner->run($context, $this->processCurrent);
        }
        if ($this->continuePending && !$this->busy && $this->queue === [] && !$this->closed) {
            $this->continuePending = false;
            $this->write("HTTP/1.1 100 Continue\r\n\r\n");
        }
        if ($this->readPaused && !$this->closed && \count($this->queue) < $this->set->limits->maxPipelined
            && \strlen($this->writeBuffer) < $this->set->limits->writeHighWater) {
            $this->readPaused = false;
            EventLoop::enable($this->readId);
        }
    }

    /** Runs in the request's own fiber. */
    private function processCurrent(): void
    {
        \assert($this->current !== null);
        [$request, $tempFiles, $keepAlive] = $this->current;
        $this->current = null;
        $this->process($request, $tempFiles, $keepAlive);
    }

    /**
     * @param list<string> $tempFiles
     * @param bool $keepAlive whether the client asked to keep the connection (the parser decided
     *                        from the version and the Connection header)
     */
    private function process(Request $request, array $tempFiles, bool $keepAlive): void
    {
        $keepAlive = $keepAlive && $this->keepAlive();
        try {
            try {
                $response = ($this->set->handler)($request);
            } catch (HttpException $e) {
                // A request the application (or its bridge) refuses as malformed: its status, no error log.
                $response = $this->errorResponse($e->status, $e->getMessage());
            } catch (\Throwable $e) {
                if ($this->timedOut) {
                    // Cancelled by the request timeout, which already answered.
                    return;
                }
                $this->set->logger->error(\sprintf('%s %s failed: %s', $request->method, $request->path, $e->getMessage()), ['exception' => $e]);
                $response = $this->errorResponse(500, $this->set->debug ? (string) $e : 'Internal Server Error');
            }
            if ($this->timedOut) {
                // Too late: the request timeout answered 504 and is closing the connection.
                return;
            }
            // A stop that began while the handler ran: announce that this is the last response.
            $keepAlive = $keepAlive && !$this->draining;
            $this->responding = true;
            $this->send($request, $response, $keepAlive);
        } catch (ConnectionClosed) {
            // The client left; nothing more to do for this request.
        } catch (\Throwable $e) {
            $this->set->logger->error(\sprintf('%s %s: response could not be sent: %s', $request->method, $request->path, $e->getMessage()), ['exception' => $e]);
            $this->close();
        } finally {
            if ($tempFiles !== []) {
                self::removeFiles($tempFiles);
            }
            $this->busy = false;
            $this->task = null;
            $this->responding = false;
            ++$this->served;
        }
        if ($this->closed) {
            return;
        }
        if (!$keepAlive) {
            $this->closeWhenFlushed();

            return;
        }
        if ($this->writeBuffer === '') {
            // The keep-alive timeout counts from here, not from when this request arrived.
            $this->lastWriteAt = $this->set->clock->now;
            $this->checkBy($this->lastWriteAt + $this->set->limits->keepAliveTimeout);
        }
        $this->dispatchNext();
        if ($this->draining && !$this->busy && $this->queue === [] && $this->parser->isIdle()) {
            $this->closeWhenFlushed();
        }
    }

    /** Whether this connection may stay open after the current request, as far as the server is concerned. */
    private function keepAlive(): bool
    {
        if ($this->draining) {
            return false;
        }
        $max = $this->set->limits->maxRequestsPerConnection;

        return $max <= 0 || $this->served + 1 < $max;
    }

    private function send(Request $request, Response $response, bool &$keepAlive): void
    {
        $serializer = $this->set->serializer;
        $isHead = $request->method === 'HEAD';
        $body = $response->body;
        $status = $response->status;
        $headers = $response->headers;
        if ($this->set->requestIds !== null && !isset($headers['X-Request-Id']) && !isset($headers['x-request-id'])) {
            // The request's id (see ConnectionServices::$requestIds) goes back with the response.
            $headers['X-Request-Id'] = $request->headers['x-request-id'][0] ?? '';
        }
        // Set when the application's headers say "Connection: close".
        $closing = false;
        try {
            if (Status::forbidsBody($status)) {
                $this->write($serializer->head($status, $response->reason, $headers, $request->protocolVersion, $keepAlive, -1, $closing));
                $keepAlive = $keepAlive && !$closing;

                return;
            }
            if (\is_string($body)) {
                $head = $serializer->head($status, $response->reason, $headers, $request->protocolVersion, $keepAlive, \strlen($body), $closing);
                $keepAlive = $keepAlive && !$closing;
                $this->write($isHead ? $head : $head . $body);

                return;
            }
            if ($body instanceof FileBody) {
                // Opened before the head goes out, so that a file that cannot be read is a 500.
                $handle = @\fopen($body->path, 'rb');
                if ($handle === false) {
                    throw new \UnexpectedValueException(\sprintf('Cannot open %s', $body->path));
                }
                try {
                    $this->write($serializer->head($status, $response->reason, $headers, $request->protocolVersion, $keepAlive, $body->length, $closing));
                    $keepAlive = $keepAlive && !$closing;
                    if (!$isHead) {
                        $this->sendFile($handle, $body);
                    }
                } finally {
                    \fclose($handle);
                }

                return;
            }
        } catch (\UnexpectedValueException $e) {
            $this->set->logger->error(\sprintf('%s %s: invalid response: %s', $request->method, $request->path, $e->getMessage()));
            $error = $this->errorResponse(500, $this->set->debug ? $e->getMessage() : 'Internal Server Error');
            \assert(\is_string($error->body));
            $this->write($serializer->head(500, '', $error->headers, $request->protocolVersion, $keepAlive, \strlen($error->body)) . $error->body);

            return;
        }

        // A streamed body: chunked for HTTP/1.1, delimited by closing the connection for HTTP/1.0.
        $chunked = $request->protocolVersion === '1.1';
        if (!$chunked) {
            $keepAlive = false;
        }
        $this->write($serializer->head($status, $response->reason, $headers, $request->protocolVersion, $keepAlive, $isHead ? -1 : null, $closing));
        $keepAlive = $keepAlive && !$closing;
        if ($isHead) {
            return;
        }
        try {
            foreach ($body as $piece) {
                $piece = (string) $piece;
                if ($piece === '') {
                    continue;
                }
                $this->write($chunked ? $serializer->chunk($piece) : $piece);
                $this->awaitDrain();
            }
        } catch (ConnectionClosed $e) {
            throw $e;
        } catch (\Throwable $e) {
            // The head is already sent: the only honest signal left is to cut the connection.
            if (!$this->timedOut) {
                $this->set->logger->error(\sprintf('%s %s: streamed body failed: %s', $request->method, $request->path, $e->getMessage()), ['exception' => $e]);
            }
            $keepAlive = false;
            $this->close();

            return;
        }
        if ($chunked) {
            $this->write($serializer->lastChunk());
        }
    }

    /** @param resource $handle $file->path, open for reading */
    private function sendFile(mixed $handle, FileBody $file): void
    {
        if ($file->offset > 0) {
            \fseek($handle, $file->offset);
        }
        $left = $file->length;
        while ($left > 0) {
            $chunk = \fread($handle, \min(self::FILE_CHUNK, $left));
            if ($chunk === false || $chunk === '') {
                throw new \RuntimeException(\sprintf('%s ended %d bytes early', $file->path, $left));
            }
            $left -= \strlen($chunk);
            $this->write($chunk);
            $this->awaitDrain();
        }
    }

    /** The running request passed the request timeout: answer 504, or cut a begun response, and cancel it. */
    private function timeOutRequest(float $elapsed): void
    {
        $task = $this->task;
        \assert($task !== null);
        $this->task = null;
        $this->timedOut = true;
        if ($this->responding) {
            $this->set->logger->warning(\sprintf('%s timed out after %.3f s while sending its response; closing the connection', $task->label, $elapsed));
            $this->close();
        } else {
            $this->set->logger->warning(\sprintf('%s timed out after %.3f s; answered 504 Gateway Timeout', $task->label, $elapsed));
            try {
                // Closes the connection once written: requests pipelined behind are dropped.
                $this->sendError(new HttpException(504, 'Gateway Timeout'));
            } catch (ConnectionClosed) {
                // The client is gone as well.
            }
        }
        $this->set->runner->cancel($task, new RequestTimedOut(\sprintf('%s timed out after %.3f s', $task->label, $elapsed)));
    }

    private function errorResponse(int $status, string $message): Response
    {
        return new Response($status, ['Content-Type' => 'text/plain; charset=utf-8'], $message . "\n");
    }

    /** Answers a request that could not be parsed, then closes once the answer is written. */
    private function fail(HttpException $e): void
    {
        $this->discardUpload();
        $this->pauseReading();
        if ($this->busy || $this->queue !== []) {
            $this->queue[] = $e;

            return;
        }
        $this->sendError($e);
    }

    private function sendError(HttpException $e): void
    {
        $this->dropQueue();
        $body = $e->getMessage() . "\n";
        $head = $this->set->serializer->head($e->status, '', ['Content-Type' => 'text/plain; charset=utf-8'], '1.1', false, \strlen($body));
        $this->write($head . $body);
        $this->closeWhenFlushed();
    }

    private function write(string $data): void
    {
        if ($this->closed) {
            throw new ConnectionClosed('The connection is closed');
        }
        if ($this->writeBuffer === '') {
            $written = @\fwrite($this->socket, $data);
            if ($written === false) {
                $this->close();
                throw new ConnectionClosed('The client closed the connection');
            }
            if ($written === \strlen($data)) {
                return;
            }
            $this->writeBuffer = (string) \substr($data, $written);
            $this->lastWriteAt = $this->set->clock->now;
            $this->checkBy($this->lastWriteAt + $this->set->limits->bodyTimeout);
            $this->writeId ??= EventLoop::onWritable($this->socket, $this->onWritable(...));
            EventLoop::enable($this->writeId);
            if (\strlen($this->writeBuffer) >= $this->set->limits->writeHighWater) {
                $this->pauseReading();
            }

            return;
        }
        $this->writeBuffer .= $data;
        if (\strlen($this->writeBuffer) >= $this->set->limits->writeHighWater) {
            $this->pauseReading();
        }
    }

    /** Suspends the writing fiber while the client is more than the high-water mark behind. */
    private function awaitDrain(): void
    {
        while (\strlen($this->writeBuffer) >= $this->set->limits->writeHighWater) {
            if ($this->closed) {
                throw new ConnectionClosed('The client closed the connection');
            }
            $this->drainWaiter = EventLoop::getSuspension();
            $this->drainWaiter->suspend();
        }
        if ($this->closed) {
            throw new ConnectionClosed('The client closed the connection');
        }
    }

    private function onWritable(): void
    {
        $written = @\fwrite($this->socket, $this->writeBuffer);
        if ($written === false || ($written === 0 && \feof($this->socket))) {
            $this->close();

            return;
        }
        if ($written > 0) {
            $this->lastWriteAt = $this->set->clock->now;
            $this->writeBuffer = (string) \substr($this->writeBuffer, $written);
        }
        if (\strlen($this->writeBuffer) < $this->set->limits->writeHighWater && $this->drainWaiter !== null) {
            $waiter = $this->drainWaiter;
            $this->drainWaiter = null;
            $waiter->resume();
        }
        if ($this->writeBuffer !== '') {
            return;
        }
        \assert($this->writeId !== null);
        EventLoop::disable($this->writeId);
        if ($this->closeWhenFlushed) {
            $this->close();

            return;
        }
        if (!$this->busy) {
            $this->dispatchNext();
        }
    }

    private function closeWhenFlushed(): void
    {
        if ($this->writeBuffer === '') {
            $this->close();
        } else {
            $this->closeWhenFlushed = true;
            $this->pauseReading();
        }
    }

    private function pauseReading(): void
    {
        if (!$this->readPaused && !$this->closed) {
            $this->readPaused = true;
            EventLoop::disable($this->readId);
        }
    }

    public function close(): void
    {
        if ($this->closed) {
            return;
        }
        $this->closed = true;
        $this->set->timeouts->forget($this);
        EventLoop::cancel($this->readId);
        if ($this->writeId !== null) {
            EventLoop::cancel($this->writeId);
        }
        $this->writeBuffer = '';
        $this->dropQueue();
        @\fclose($this->socket);
        $this->discardUpload();
        if ($this->drainWaiter !== null) {
            $waiter = $this->drainWaiter;
            $this->drainWaiter = null;
            $waiter->throw(new ConnectionClosed('The client closed the connection'));
        }
        ($this->onClose)($this);
    }

    private function discardUpload(): void
    {
        if ($this->multipart !== null) {
            $this->multipart->abort();
            $this->multipart = null;
        }
    }

    private function dropQueue(): void
    {
        foreach ($this->queue as $entry) {
            if (\is_array($entry)) {
                self::removeFiles($entry[1]);
            }
        }
        $this->queue = [];
    }

    /** @param list<string> $paths */
    private static function removeFiles(array $paths): void
    {
        foreach ($paths as $path) {
            if (\is_file($path)) {
                @\unlink($path);
            }
        }
    }
}
