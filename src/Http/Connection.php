<?php

declare(strict_types=1);

namespace Spindle\Http;

use Revolt\EventLoop;
use Revolt\EventLoop\Suspension;

/**
 * One accepted HTTP/1.1 connection: reads bytes into its RequestAssembler, hands each whole
 * request to the RequestDispatcher as an Exchange, writes the responses in request order, and
 * enforces the connection's own timeouts (header, body, keep-alive, stalled writes) and
 * backpressure. How a request runs, and for how long, is the dispatcher's.
 *
 * Pipelined requests are dispatched one at a time, in order: the next once the dispatcher
 * finished the one before. Reading pauses while too many requests are queued or while the client
 * is not reading what was already written.
 */
final class Connection
{
    private const READ_SIZE = 65536;
    private const FILE_CHUNK = 65536;
    /** Seconds an idle connection of a draining worker stays open for a request on its way. */
    private const DRAIN_GRACE = 1.0;

    private readonly RequestAssembler $requests;
    private readonly string $readId;
    private ?string $writeId = null;
    private string $writeBuffer = '';
    private bool $readPaused = false;

    /** @var list<Exchange|HttpException> requests waiting their turn, and a parse error that ends the queue */
    private array $queue = [];
    /** The request the dispatcher has now (null: none). */
    private ?Exchange $current = null;
    /** Whether the connection stays open after $current's response (decided when it is sent). */
    private bool $keepCurrent = false;
    /** $current's response has begun: its head went out, or began to. */
    private bool $responding = false;
    private bool $closed = false;
    private bool $closeWhenFlushed = false;
    private bool $draining = false;
    private float $drainGraceEnds = 0.0;
    private int $served = 0;
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
        $this->requests = new RequestAssembler(
            $set->limits,
            $set->uploadDir,
            $this->onContinue(...),
            $this->onRequest(...),
            $remoteAddress,
            $remotePort,
            $localAddress,
            $localPort,
        );
        $this->readId = EventLoop::onReadable($socket, $this->onReadable(...));
        $this->checkBy($this->nextDeadline());
    }

    public function isClosed(): bool
    {
        return $this->closed;
    }

    public function isBusy(): bool
    {
        return $this->current !== null || $this->queue !== [];
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
        if ($this->closed || $this->current !== null || $this->queue !== [] || $this->writeBuffer !== '' || $this->requests->isReadingBody()) {
            return null;
        }
        if ($this->requests->isReadingHead()) {
            return $this->headStartedAt;
        }
        if (!$this->requests->isIdle()) {
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
        if ($this->writeBuffer !== '') {
            return $this->lastWriteAt + $limits->bodyTimeout;
        }
        if ($this->current !== null || $this->queue !== []) {
            // The request's own time limit is the dispatcher's.
            return \INF;
        }
        $next = \INF;
        if ($this->draining && $this->requests->isIdle()) {
            $next = \min($next, $this->drainGraceEnds);
        }
        if ($this->requests->isReadingBody()) {
            return \min($next, $this->lastReadAt + $limits->bodyTimeout);
        }
        if ($this->requests->isReadingHead()) {
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

    /** Enforces the header, body, write and keep-alive timeouts that expired by $now. */
    private function checkTimeouts(float $now): void
    {
        if ($this->closed) {
            return;
        }
        $limits = $this->set->limits;
        if ($this->writeBuffer !== '') {
            if ($now - $this->lastWriteAt > $limits->bodyTimeout) {
                $this->close();
            }

            return;
        }
        if ($this->current !== null || $this->queue !== []) {
            return;
        }
        if ($this->draining && $this->requests->isIdle() && $now >= $this->drainGraceEnds) {
            $this->close();

            return;
        }
        if ($this->requests->isReadingBody()) {
            if ($now - $this->lastReadAt > $limits->bodyTimeout) {
                $this->fail(new HttpException(408, 'Timed out reading the request body'));
            }
        } elseif ($this->requests->isReadingHead()) {
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
        if ($this->requests->isIdle()) {
            $this->headStartedAt = $now;
        }
        $this->lastReadAt = $now;
        try {
            $this->requests->push($data);
        } catch (HttpException $e) {
            // Requests parsed before the error in this same read may still be waiting: they are
            // answered first, then the error (fail() queued it behind them).
            $this->fail($e);
            if ($this->queue !== [] && $this->current === null && !$this->closed) {
                $this->dispatchNext();
            }

            return;
        }
        if ($this->requests->isReadingHead()) {
            // A head still arriving: its timeout may end before the keep-alive one would have. (A
            // head that came whole in this read needs nothing: the common case costs no scheduling.)
            $this->checkBy($this->headStartedAt + $this->set->limits->headerTimeout);
        }
        if ($this->queue !== [] && $this->current === null) {
            $this->dispatchNext();
        }
        if (\count($this->queue) >= $this->set->limits->maxPipelined) {
            $this->pauseReading();
        }
    }

    /** A head asked for "100 Continue": it goes now, or once the requests before it are answered. */
    private function onContinue(): void
    {
        if ($this->current === null && $this->queue === []) {
            $this->write("HTTP/1.1 100 Continue\r\n\r\n");
        } else {
            $this->continuePending = true;
        }
    }

    /** @param list<string> $tempFiles */
    private function onRequest(Request $request, array $tempFiles, bool $keepAlive): void
    {
        $this->continuePending = false;
        $this->queue[] = new Exchange($request, $this, $tempFiles, $keepAlive);
    }

    private function dispatchNext(): void
    {
        while ($this->current === null && !$this->closed && $this->queue !== [] && \strlen($this->writeBuffer) < $this->set->limits->writeHighWater) {
            $next = \array_shift($this->queue);
            if ($next instanceof HttpException) {
                $this->sendError($next);

                return;
            }
            $this->current = $next;
            $this->keepCurrent = false;
            $this->set->dispatcher->dispatch($next);
        }
        if ($this->continuePending && $this->current === null && $this->queue === [] && !$this->closed) {
            $this->continuePending = false;
            $this->write("HTTP/1.1 100 Continue\r\n\r\n");
        }
        if ($this->readPaused && !$this->closed && \count($this->queue) < $this->set->limits->maxPipelined
            && \strlen($this->writeBuffer) < $this->set->limits->writeHighWater) {
            $this->readPaused = false;
            EventLoop::enable($this->readId);
        }
    }

    /** @internal Exchange::respond(): writes $exchange's response. */
    public function respond(Exchange $exchange, Response $response): void
    {
        if ($exchange !== $this->current || $this->closed || $this->responding) {
            return;
        }
        // A stop that began while the request ran: announce that this is the last response.
        $keepAlive = $exchange->keepAlive && !$this->draining;
        if ($keepAlive) {
            $max = $this->set->limits->maxRequestsPerConnection;
            $keepAlive = $max <= 0 || $this->served + 1 < $max;
        }
        $this->responding = true;
        try {
            $this->send($exchange->request, $response, $keepAlive);
        } catch (ConnectionClosed) {
            // The client left; nothing more to do for this request.
            $keepAlive = false;
        } catch (\Throwable $e) {
            $request = $exchange->request;
            $this->set->logger->error(\sprintf('%s %s: response could not be sent: %s', $request->method, $request->path, $e->getMessage()), ['exception' => $e]);
            $keepAlive = false;
            $this->close();
        }
        $this->keepCurrent = $keepAlive;
    }

    /** @internal Exchange::responseBegun() */
    public function responseBegun(Exchange $exchange): bool
    {
        return $exchange === $this->current && $this->responding;
    }

    /** @internal Exchange::fail() */
    public function failCurrent(Exchange $exchange, HttpException $error): void
    {
        if ($exchange !== $this->current || $this->closed || $this->responding) {
            return;
        }
        $this->responding = true;
        try {
            $this->sendError($error);
        } catch (ConnectionClosed) {
            // The client is gone as well.
        }
    }

    /** @internal Exchange::abort() */
    public function abortCurrent(Exchange $exchange): void
    {
        if ($exchange === $this->current) {
            $this->close();
        }
    }

    /** @internal Exchange::finish(): the request is done; the next one is dispatched. */
    public function finish(Exchange $exchange): void
    {
        if ($exchange->tempFiles !== []) {
            self::removeFiles($exchange->tempFiles);
        }
        if ($exchange !== $this->current) {
            return;
        }
        $this->current = null;
        $this->responding = false;
        ++$this->served;
        if ($this->closed) {
            return;
        }
        if (!$this->keepCurrent) {
            $this->closeWhenFlushed();

            return;
        }
        if ($this->writeBuffer === '') {
            // The keep-alive timeout counts from here, not from when this request arrived.
            $this->lastWriteAt = $this->set->clock->now;
            $this->checkBy($this->lastWriteAt + $this->set->limits->keepAliveTimeout);
        }
        $this->dispatchNext();
        if ($this->draining && $this->current === null && $this->queue === [] && $this->requests->isIdle()) {
            $this->closeWhenFlushed();
        }
    }

    /**
     * @param bool $keepAlive whether the connection stays open after this response; set to false
     *                        when the response itself ends it (its "Connection: close", a body
     *                        delimited by the close)
     */
    private function send(Request $request, Response $response, bool &$keepAlive): void
    {
        $serializer = $this->set->serializer;
        $isHead = $request->method === 'HEAD';
        $body = $response->body;
        $status = $response->status;
        $headers = $response->headers;
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
            if (!$this->closed) {
                // (A connection already closed was cut on purpose, by the request timeout say.)
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

    private function errorResponse(int $status, string $message): Response
    {
        return new Response($status, ['Content-Type' => 'text/plain; charset=utf-8'], $message . "\n");
    }

    /** Answers a request that could not be parsed, then closes once the answer is written. */
    private function fail(HttpException $e): void
    {
        $this->requests->abort();
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
        if ($this->current === null) {
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
        $this->requests->abort();
        if ($this->drainWaiter !== null) {
            $waiter = $this->drainWaiter;
            $this->drainWaiter = null;
            $waiter->throw(new ConnectionClosed('The client closed the connection'));
        }
        ($this->onClose)($this);
    }

    private function dropQueue(): void
    {
        foreach ($this->queue as $entry) {
            if ($entry instanceof Exchange && $entry->tempFiles !== []) {
                self::removeFiles($entry->tempFiles);
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
