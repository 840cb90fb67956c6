<?php

declare(strict_types=1);

namespace Spindle\Http;

use Revolt\EventLoop;
use Revolt\EventLoop\Suspension;

/**
 * A request body the handler reads while it arrives (see StreamsRequestBody): read() returns the
 * bytes received since the last call, suspending the handler's fiber while none are there, and
 * null once the body is complete. The connection holds at most about --body-buffer-size unread
 * bytes: past that it stops reading from the client until the handler has read.
 *
 * A client that goes away, or a body that cannot be parsed (a broken chunk), makes read() throw
 * (ConnectionClosed, HttpException).
 */
final class RequestBody
{
    private string $buffer = '';
    private bool $complete = false;
    private ?\Throwable $failure = null;
    /** @var Suspension<null>|null */
    private ?Suspension $reader = null;
    /** Bytes received so far. */
    public int $received = 0;

    /**
     * @param \Closure(int): void $onRead told how many bytes the handler has taken (the
     *        connection reads from the client again if it had paused; HTTP/2 reopens the
     *        stream's window by as much)
     */
    public function __construct(private readonly \Closure $onRead)
    {
    }

    /**
     * The next bytes of the body, waiting for them if need be; null once it is complete.
     *
     * @throws ConnectionClosed|HttpException when the client left or the body is malformed
     */
    public function read(): ?string
    {
        while ($this->buffer === '') {
            if ($this->failure !== null) {
                throw $this->failure;
            }
            if ($this->complete) {
                return null;
            }
            if ($this->reader !== null) {
                throw new \LogicException('The request body is being read by another task');
            }
            $this->reader = EventLoop::getSuspension();
            $this->reader->suspend();
        }
        $bytes = $this->buffer;
        $this->buffer = '';
        ($this->onRead)(\strlen($bytes));

        return $bytes;
    }

    /**
     * The rest of the body, whole.
     *
     * @throws ConnectionClosed|HttpException
     */
    public function readAll(): string
    {
        $body = '';
        while (($bytes = $this->read()) !== null) {
            $body .= $bytes;
        }

        return $body;
    }

    /** Whether the whole body has arrived (it may not all have been read). */
    public function isComplete(): bool
    {
        return $this->complete;
    }

    /** Bytes received and not read yet. */
    public function buffered(): int
    {
        return \strlen($this->buffer);
    }

    /** @internal the connection: bytes of the body arrived */
    public function push(string $bytes): void
    {
        $this->buffer .= $bytes;
        $this->received += \strlen($bytes);
        $this->wake();
    }

    /** @internal the connection: the body is complete */
    public function end(): void
    {
        $this->complete = true;
        $this->wake();
    }

    /** @internal the connection: the body will not complete */
    public function fail(\Throwable $why): void
    {
        if ($this->complete) {
            return;
        }
        $this->failure ??= $why;
        $this->wake();
    }

    private function wake(): void
    {
        if ($this->reader !== null) {
            $reader = $this->reader;
            $this->reader = null;
            $reader->resume();
        }
    }
}
