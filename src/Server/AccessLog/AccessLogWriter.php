<?php

declare(strict_types=1);

namespace Spindle\Server\AccessLog;

use Revolt\EventLoop;

/**
 * Where a worker's access log lines go: appended to a buffer and written out every
 * FLUSH_INTERVAL seconds, or at once when the buffer passes FLUSH_SIZE, so a request never
 * waits on the disk. A file is opened in append mode by every worker; each write is whole lines
 * of at most WRITE_SIZE bytes, so the workers' lines do not mix (for a pipe, at most PIPE_BUF).
 *
 * "-" writes to standard output, without blocking: what a full pipe does not take stays
 * buffered, and beyond MAX_BUFFER the oldest lines are dropped and counted.
 *
 * reopen() (SIGUSR1) flushes and opens the file again: the rotated file is left whole, the
 * next lines go to a new file at the same path.
 */
final class AccessLogWriter
{
    private const FLUSH_INTERVAL = 0.25;
    private const FLUSH_SIZE = 65536;
    private const MAX_BUFFER = 4 << 20;

    private string $buffer = '';
    /** @var resource|null */
    private mixed $stream = null;
    private readonly int $writeSize;
    private ?string $timer = null;
    /** Lines dropped because the output did not keep up. */
    public int $dropped = 0;

    public function __construct(public readonly string $path)
    {
        $this->writeSize = $path === '-' ? 4096 : 65536;
        $this->open();
    }

    /** Starts the flush timer (it does not keep the loop running). */
    public function start(): void
    {
        $this->timer ??= EventLoop::unreference(EventLoop::repeat(self::FLUSH_INTERVAL, $this->flush(...)));
    }

    public function write(string $line): void
    {
        $this->buffer .= $line;
        if (\strlen($this->buffer) >= self::FLUSH_SIZE) {
            $this->flush();
        }
    }

    public function flush(): void
    {
        if ($this->buffer === '' || $this->stream === null) {
            return;
        }
        while ($this->buffer !== '') {
            $piece = $this->buffer;
            if (\strlen($piece) > $this->writeSize) {
                $cut = \strrpos(\substr($piece, 0, $this->writeSize), "\n");
                $piece = \substr($piece, 0, $cut === false ? $this->writeSize : $cut + 1);
            }
            $written = @\fwrite($this->stream, $piece);
            if ($written === false || $written === 0) {
                break;
            }
            $this->buffer = (string) \substr($this->buffer, $written);
            if ($written < \strlen($piece)) {
                break;
            }
        }
        if (\strlen($this->buffer) > self::MAX_BUFFER) {
            $keep = (string) \substr($this->buffer, -self::MAX_BUFFER);
            $start = \strpos($keep, "\n");
            $keep = $start === false ? '' : (string) \substr($keep, $start + 1);
            $this->dropped += \substr_count($this->buffer, "\n") - \substr_count($keep, "\n");
            $this->buffer = $keep;
        }
    }

    /** Flushes, then opens the path again (after logrotate moved the file away). */
    public function reopen(): void
    {
        $this->flush();
        if ($this->path === '-') {
            return;
        }
        if ($this->stream !== null) {
            @\fclose($this->stream);
            $this->stream = null;
        }
        $this->open();
    }

    /** Flushes what is left and stops the timer. */
    public function close(): void
    {
        if ($this->timer !== null) {
            EventLoop::cancel($this->timer);
            $this->timer = null;
        }
        $stream = $this->stream;
        if ($stream !== null) {
            \stream_set_blocking($stream, true);
            $this->flush();
            if ($this->path !== '-') {
                @\fclose($stream);
            }
            $this->stream = null;
        }
    }

    private function open(): void
    {
        $stream = $this->path === '-' ? \fopen('php://stdout', 'w') : @\fopen($this->path, 'a');
        if ($stream === false) {
            throw new \RuntimeException(\sprintf('Cannot open the access log %s for appending', $this->path));
        }
        \stream_set_write_buffer($stream, 0);
        if ($this->path === '-') {
            \stream_set_blocking($stream, false);
        }
        $this->stream = $stream;
    }
}
