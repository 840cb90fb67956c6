<?php

declare(strict_types=1);

namespace Spindle\Http;

use Revolt\EventLoop;

/**
 * The writing side of a connection driver that writes frames (HTTP/2, WebSocket): bytes go out at
 * once, what the socket does not take is kept and written when it is writable, and the driver is
 * told when all of it went (to read again, to close after a last frame) or when the socket failed.
 * The HTTP/1.1 driver's ResponseWriter does more (response bodies, corking for pipelining).
 */
final class SocketOutput
{
    private string $buffer = '';
    private ?string $writeId = null;
    private bool $closed = false;
    /** When the socket last took bytes, by the worker's clock (the stalled-write timeout counts from it). */
    public float $lastWriteAt;

    /**
     * @param resource $socket
     * @param \Closure(): void $onDrained what was kept has all been written
     * @param \Closure(): void $onFailed the socket cannot be written to any more
     */
    public function __construct(
        private readonly mixed $socket,
        private readonly Clock $clock,
        private readonly \Closure $onDrained,
        private readonly \Closure $onFailed,
    ) {
        $this->lastWriteAt = $clock->now;
    }

    /** Bytes written and not yet taken by the socket. */
    public function buffered(): int
    {
        return \strlen($this->buffer);
    }

    public function write(string $bytes): void
    {
        if ($this->closed || $bytes === '') {
            return;
        }
        if ($this->buffer !== '') {
            $this->buffer .= $bytes;

            return;
        }
        $written = @\fwrite($this->socket, $bytes);
        if ($written === false) {
            $this->fail();

            return;
        }
        $this->lastWriteAt = $this->clock->now;
        if ($written === \strlen($bytes)) {
            return;
        }
        $this->buffer = (string) \substr($bytes, $written);
        $this->writeId ??= EventLoop::onWritable($this->socket, $this->onWritable(...));
        EventLoop::enable($this->writeId);
    }

    /** Stops writing: what is kept is dropped. */
    public function close(): void
    {
        $this->closed = true;
        $this->buffer = '';
        if ($this->writeId !== null) {
            EventLoop::cancel($this->writeId);
            $this->writeId = null;
        }
    }

    private function onWritable(): void
    {
        $written = @\fwrite($this->socket, $this->buffer);
        if ($written === false || ($written === 0 && \feof($this->socket))) {
            $this->fail();

            return;
        }
        if ($written > 0) {
            $this->lastWriteAt = $this->clock->tick();
            $this->buffer = (string) \substr($this->buffer, $written);
        }
        if ($this->buffer !== '') {
            return;
        }
        \assert($this->writeId !== null);
        EventLoop::disable($this->writeId);
        ($this->onDrained)();
    }

    private function fail(): void
    {
        $this->close();
        ($this->onFailed)();
    }
}
