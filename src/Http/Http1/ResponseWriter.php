<?php

declare(strict_types=1);

namespace Spindle\Http\Http1;

use Revolt\EventLoop;
use Revolt\EventLoop\Suspension;
use Spindle\Http\ConnectionClosed;
use Spindle\Http\ConnectionServices;
use Spindle\Http\ErrorAnswer;
use Spindle\Http\FileBody;
use Spindle\Http\Request;
use Spindle\Http\Response;
use Spindle\Http\Status;

/**
 * The writing side of one connection: turns responses into bytes on its socket. A head with a
 * string body goes out in one write; what the socket does not take at once is buffered and
 * written when it is writable; files and streams go piece by piece, their request suspended while
 * more than the high-water mark waits.
 *
 * The connection learns what it needs through three callbacks: bytes were left buffered (a write
 * deadline begins, reading may pause), the buffer emptied, the socket failed.
 */
final class ResponseWriter
{
    private const FILE_CHUNK = 65536;
    /** Bytes held back while corked before they go out anyway. */
    private const CORK_LIMIT = 65536;

    private string $buffer = '';
    /** How many cork() calls hold writes back (see cork()). */
    private int $corks = 0;
    /** What was written while corked. */
    private string $held = '';
    private ?string $writeId = null;
    private bool $closed = false;
    /** @var Suspension<mixed>|null the request waiting for the buffer to drain */
    private ?Suspension $drainWaiter = null;
    /** When the socket last took bytes (or the last response was done): the clock's time. */
    public float $lastWriteAt = 0.0;
    /**
     * Bytes waiting in the buffer. A property the connection reads rather than a method: the
     * connection asks on every request, and the calls cost 0.1–0.2 µs a request
     * (benchmarks/http-path.php). Only the writer sets it.
     */
    public int $buffered = 0;

    /**
     * @param resource $socket
     * @param \Closure(): void $onBuffered bytes were left in the buffer
     * @param \Closure(): void $onFlushed the buffer emptied
     * @param \Closure(): void $onFailed the socket cannot be written to any more
     */
    public function __construct(
        private readonly mixed $socket,
        private readonly ConnectionServices $set,
        private readonly \Closure $onBuffered,
        private readonly \Closure $onFlushed,
        private readonly \Closure $onFailed,
    ) {
    }

    /**
     * Holds writes back until as many uncork() calls (or a flush()), so that the responses to
     * pipelined requests leave in one system call instead of one each. A body that is not a
     * string (a file, a stream) flushes first, and more than CORK_LIMIT bytes go out at once.
     */
    public function cork(): void
    {
        ++$this->corks;
    }

    /** Takes one cork() back; the last one writes what was held back. */
    public function uncork(): void
    {
        if ($this->corks > 1) {
            --$this->corks;

            return;
        }
        $this->flush();
    }

    /** Writes what was held back, and writes at once again, whatever the corks. */
    public function flush(): void
    {
        $this->corks = 0;
        if ($this->held !== '') {
            $held = $this->held;
            $this->held = '';
            try {
                $this->write($held);
            } catch (ConnectionClosed) {
                // The client left; the connection closed itself (onFailed).
            }
        }
    }

    /** Whether the client is more than the high-water mark behind. */
    public function isFull(): bool
    {
        return $this->buffered >= $this->set->limits->writeHighWater;
    }

    /**
     * Writes $response to $request.
     *
     * @param bool $keepAlive whether the connection stays open after this response; set to false
     *                        when the response itself ends it (its "Connection: close", a body
     *                        delimited by the close, a stream that failed)
     *
     * @throws ConnectionClosed
     */
    public function send(Request $request, Response $response, bool &$keepAlive): void
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
            // Pieces that wait for the client must not pile up behind a cork.
            $this->flush();
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
            // A streamed body: chunked for HTTP/1.1, delimited by closing the connection for
            // HTTP/1.0. Its head is made here, so that an invalid header is a 500 too.
            $chunked = $request->protocolVersion === '1.1';
            if (!$chunked) {
                $keepAlive = false;
            }
            $streamHead = $serializer->head($status, $response->reason, $headers, $request->protocolVersion, $keepAlive, $isHead ? -1 : null, $closing);
        } catch (\UnexpectedValueException $e) {
            $this->set->logger->error(\sprintf('%s %s: invalid response: %s', $request->method, $request->path, $e->getMessage()));
            $this->write(ErrorAnswer::failure($e, $this->set->debug)->http1($serializer, $request->protocolVersion, $keepAlive));

            return;
        }

        $this->write($streamHead);
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
            ($this->onFailed)();

            return;
        }
        if ($chunked) {
            try {
                $last = $serializer->lastChunk($response->trailerFields());
            } catch (\Throwable $e) {
                // The body went out: trailers that cannot be sent are logged and left out.
                $this->set->logger->error(\sprintf('%s %s: response trailers not sent: %s', $request->method, $request->path, $e->getMessage()));
                $last = $serializer->lastChunk();
            }
            $this->write($last);
        }
    }

    /**
     * Writes $data now, or buffers what the socket does not take.
     *
     * @throws ConnectionClosed
     */
    public function write(string $data): void
    {
        if ($this->closed) {
            throw new ConnectionClosed('The connection is closed');
        }
        if ($this->corks > 0) {
            $this->held .= $data;
            if (\strlen($this->held) < self::CORK_LIMIT) {
                return;
            }
            $data = $this->held;
            $this->held = '';
        }
        if ($this->buffer !== '') {
            $this->buffer .= $data;
            $this->buffered = \strlen($this->buffer);
            ($this->onBuffered)();

            return;
        }
        $written = @\fwrite($this->socket, $data);
        if ($written === false) {
            ($this->onFailed)();

            throw new ConnectionClosed('The client closed the connection');
        }
        if ($written === \strlen($data)) {
            return;
        }
        $this->buffer = (string) \substr($data, $written);
        $this->buffered = \strlen($this->buffer);
        $this->lastWriteAt = $this->set->clock->tick();
        $this->writeId ??= EventLoop::onWritable($this->socket, $this->onWritable(...));
        EventLoop::enable($this->writeId);
        ($this->onBuffered)();
    }

    /**
     * Stops writing and hands back what the client has not taken yet (what was held back by a
     * cork included), for whoever writes to the socket next (an upgrade).
     */
    public function detach(): string
    {
        $unwritten = $this->buffer . $this->held;
        $this->buffer = $this->held = '';
        $this->close();

        return $unwritten;
    }

    /** Stops writing for good: what is buffered is dropped, a request waiting to write gets ConnectionClosed. */
    public function close(): void
    {
        if ($this->closed) {
            return;
        }
        $this->closed = true;
        if ($this->writeId !== null) {
            EventLoop::cancel($this->writeId);
        }
        $this->buffer = $this->held = '';
        $this->buffered = 0;
        if ($this->drainWaiter !== null) {
            $waiter = $this->drainWaiter;
            $this->drainWaiter = null;
            $waiter->throw(new ConnectionClosed('The client closed the connection'));
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

    /** Suspends the writing fiber while the client is more than the high-water mark behind. */
    private function awaitDrain(): void
    {
        while ($this->isFull()) {
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
        $written = @\fwrite($this->socket, $this->buffer);
        if ($written === false || ($written === 0 && \feof($this->socket))) {
            ($this->onFailed)();

            return;
        }
        if ($written > 0) {
            $this->lastWriteAt = $this->set->clock->tick();
            $this->buffer = (string) \substr($this->buffer, $written);
            $this->buffered = \strlen($this->buffer);
        }
        if ($this->drainWaiter !== null && !$this->isFull()) {
            $waiter = $this->drainWaiter;
            $this->drainWaiter = null;
            $waiter->resume();
        }
        if ($this->buffer !== '') {
            return;
        }
        \assert($this->writeId !== null);
        EventLoop::disable($this->writeId);
        ($this->onFlushed)();
    }
}
