<?php

declare(strict_types=1);

namespace Spindle\Server\AccessLog;

use Revolt\EventLoop;

/**
 * Where a worker's access log lines go: kept in memory and written out every FLUSH_INTERVAL
 * seconds, or at once when they pass FLUSH_SIZE bytes, so a request never waits on the disk. A
 * file is opened in append mode by every worker and each flush is one write of whole lines, so
 * the workers' lines do not mix (to a pipe, writes of whole lines of at most PIPE_BUF bytes).
 *
 * "-" writes to standard output; to a pipe without blocking: what a full pipe does not take
 * stays buffered, and beyond MAX_BUFFER the oldest lines are dropped and counted.
 *
 * reopen() (SIGUSR1) flushes and opens the file again: the rotated file is left whole, the
 * next lines go to a new file at the same path.
 */
final class AccessLogWriter
{
    private const FLUSH_INTERVAL = 0.25;
    private const FLUSH_SIZE = 65536;
    private const MAX_BUFFER = 4 << 20;
    /** Writes to a pipe of at most PIPE_BUF bytes are not interleaved with other writers'. */
    private const PIPE_WRITE = 4096;

    /**
     * Lines not yet written. A list joined at flush time rather than one growing string: appending
     * to a string of tens of KiB can move it on every append, and that copy showed in the profile.
     *
     * @var list<string>
     */
    private array $lines = [];
    private int $size = 0;
    /** What a pipe did not take yet (standard output only). */
    private string $pending = '';
    /** @var resource|null */
    private mixed $stream = null;
    private ?string $timer = null;
    private bool $started = false;
    /** Lines dropped because the output did not keep up. */
    public int $dropped = 0;

    public function __construct(public readonly string $path)
    {
        $this->open();
    }

    /**
     * From now on, lines written go out within FLUSH_INTERVAL: a timer (it does not keep the loop
     * running) is armed by the first line after a flush, so an idle worker is not woken for an
     * empty log.
     */
    public function start(): void
    {
        $this->started = true;
        if ($this->lines !== []) {
            $this->arm();
        }
    }

    public function write(string $line): void
    {
        $this->lines[] = $line;
        $this->size += \strlen($line);
        if ($this->size >= self::FLUSH_SIZE) {
            $this->flush();
        } elseif ($this->timer === null && $this->started) {
            $this->arm();
        }
    }

    private function arm(): void
    {
        $this->timer ??= EventLoop::unreference(EventLoop::delay(self::FLUSH_INTERVAL, function (): void {
            $this->timer = null;
            $this->flush();
        }));
    }

    public function flush(): void
    {
        if ($this->stream === null || ($this->lines === [] && $this->pending === '')) {
            return;
        }
        $data = $this->pending . \implode('', $this->lines);
        $this->lines = [];
        $this->size = 0;
        $this->pending = '';
        if ($this->path !== '-') {
            // A regular file opened for appending takes each write whole, at its end: the workers'
            // writes do not mix.
            $written = @\fwrite($this->stream, $data);
            if ($written !== \strlen($data)) {
                $this->dropped += \substr_count((string) \substr($data, \max(0, (int) $written)), "\n");
            }

            return;
        }
        $offset = 0;
        $length = \strlen($data);
        while ($offset < $length) {
            $piece = $length - $offset <= self::PIPE_WRITE ? $length - $offset : self::PIPE_WRITE;
            if ($piece === self::PIPE_WRITE) {
                $cut = \strrpos(\substr($data, $offset, self::PIPE_WRITE), "\n");
                $piece = $cut === false ? self::PIPE_WRITE : $cut + 1;
            }
            $written = @\fwrite($this->stream, \substr($data, $offset, $piece));
            if ($written === false || $written === 0) {
                break;
            }
            $offset += $written;
            if ($written < $piece) {
                break;
            }
        }
        $rest = (string) \substr($data, $offset);
        if (\strlen($rest) > self::MAX_BUFFER) {
            $keep = (string) \substr($rest, -self::MAX_BUFFER);
            $start = \strpos($keep, "\n");
            $keep = $start === false ? '' : (string) \substr($keep, $start + 1);
            $this->dropped += \substr_count($rest, "\n") - \substr_count($keep, "\n");
            $rest = $keep;
        }
        $this->pending = $rest;
        if ($rest !== '' && $this->started) {
            // The pipe is full: try again later.
            $this->arm();
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
        $this->started = false;
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
        $stream = $this->path === '-' ? self::openStandardOutput() : @\fopen($this->path, 'a');
        if ($stream === false) {
            throw new \RuntimeException(\sprintf('Cannot open the access log %s for appending', $this->path));
        }
        \stream_set_write_buffer($stream, 0);
        $this->stream = $stream;
    }

    /**
     * Standard output, not blocking when it is a pipe. The pipe is opened anew (/proc/self/fd/1):
     * a file description of its own, so that its non-blocking mode does not reach the master's
     * standard output (which carries the readiness line). Anything else (a socket from the
     * journal, a file, a terminal) is written to as it is, blocking.
     *
     * @return resource|false
     */
    private static function openStandardOutput(): mixed
    {
        $stat = @\fstat(\STDOUT);
        if (\is_array($stat) && ($stat['mode'] & 0170000) === 0010000) {
            $pipe = @\fopen('/proc/self/fd/1', 'w');
            if ($pipe !== false) {
                \stream_set_blocking($pipe, false);

                return $pipe;
            }
        }

        return \fopen('php://stdout', 'w');
    }
}
