<?php

declare(strict_types=1);

namespace Spindle\Bridge\HttpFoundation;

use Revolt\EventLoop;
use Revolt\EventLoop\Suspension;
use Spindle\Loop\Context;
use Spindle\Loop\Loop;

/**
 * @internal Runs a callback that prints its output (a StreamedResponse's) and hands out what it
 * prints, piece by piece, as soon as it is printed.
 *
 * The callback runs in a fiber of its own, so it may wait on I/O (Spindle\delay(), the database)
 * while the request's fiber sends what it printed so far. That fiber has a task context of its
 * own, whose resume hooks first run the request's (a framework bridge's state comes back), and an
 * output buffer that keeps only what this fiber prints (see OutputCapture).
 *
 * Output the callback prints faster than the client reads is held in memory up to 1 MiB, then
 * in a temporary file: a callback that prints a large file without ever waiting does not fill
 * the worker's memory. When the body is abandoned (client gone, request timed out) the callback
 * is cancelled where it waits next.
 */
final class CallbackOutput
{
    private const MEMORY_LIMIT = 1048576;
    private const PIECE = 65536;

    /** @var resource */
    private $spill;
    private int $readAt = 0;
    private int $writtenTo = 0;
    private bool $finished = false;
    private bool $abandoned = false;
    private ?\Throwable $error = null;
    /** @var Suspension<mixed>|null */
    private ?Suspension $reader = null;
    private ?Context $task = null;

    /** @param \Closure(): mixed $callback */
    private function __construct(
        private readonly \Closure $callback,
        private readonly OutputLevels $levels,
    ) {
        $spill = \fopen('php://temp/maxmemory:' . self::MEMORY_LIMIT, 'w+b');
        \assert($spill !== false);
        $this->spill = $spill;
    }

    /**
     * The callback's output as a lazy sequence of pieces: the callback starts when the first piece
     * is asked for; an exception it throws comes out after the pieces printed before it.
     *
     * @param \Closure(): mixed $callback
     *
     * @return \Generator<int, string>
     */
    public static function pieces(\Closure $callback, OutputLevels $levels): \Generator
    {
        $output = new self($callback, $levels);
        try {
            $output->start();
            while (($piece = $output->read()) !== null) {
                yield $piece;
            }
        } finally {
            $output->abandon();
        }
    }

    private function start(): void
    {
        $request = Loop::context();
        $this->task = new Context(($request->label ?? 'response') . ' (streamed body)');
        if ($request !== null) {
            $this->task->onResume($request->resumed(...));
            // What the request holds for its run (a pooled database session) serves its body too.
            $this->task->partOf($request);
        }
        // Runs the callback up to its first wait (or to its end) right here, as a child of the
        // request: it prints after its request's code, in the request's time zone, locale, …,
        // while the request's own state (its output buffers, say) is off the process.
        Loop::startChild($this->task, function (): void {
            $fiber = \Fiber::getCurrent();
            \assert($fiber !== null);
            $capture = new OutputCapture($fiber, $this->write(...));
            $level = $this->levels->push($capture);
            try {
                ($this->callback)();
            } catch (\Throwable $e) {
                $this->error = $e;
            } finally {
                $this->levels->end($capture, $level);
                $this->finished = true;
                $this->wake();
            }
        });
    }

    /** The next piece of output; waits for the callback to print it. Null after the last piece. */
    private function read(): ?string
    {
        while (true) {
            if ($this->readAt < $this->writtenTo) {
                \fseek($this->spill, $this->readAt);
                $piece = (string) \fread($this->spill, \max(1, \min(self::PIECE, $this->writtenTo - $this->readAt)));
                $this->readAt += \strlen($piece);
                if ($this->readAt === $this->writtenTo) {
                    // All read: start over at the beginning, so memory or the temporary file stays small.
                    \ftruncate($this->spill, 0);
                    $this->readAt = $this->writtenTo = 0;
                }

                return $piece;
            }
            if ($this->finished) {
                if ($this->error !== null) {
                    $error = $this->error;
                    $this->error = null;

                    throw $error;
                }

                return null;
            }
            $this->reader = EventLoop::getSuspension();
            try {
                $this->reader->suspend();
            } finally {
                $this->reader = null;
            }
        }
    }

    /** The output buffer handler's sink: runs in the callback's fiber. */
    private function write(string $data): void
    {
        if ($this->abandoned) {
            return;
        }
        \fseek($this->spill, $this->writtenTo);
        $written = \fwrite($this->spill, $data);
        if ($written !== \strlen($data)) {
            throw new \RuntimeException('Cannot buffer the streamed response body: the temporary file could not be written');
        }
        $this->writtenTo += $written;
        $this->wake();
    }

    private function wake(): void
    {
        $reader = $this->reader;
        if ($reader !== null) {
            $this->reader = null;
            $reader->resume();
        }
    }

    private function abandon(): void
    {
        if (!$this->finished && !$this->abandoned && $this->task !== null) {
            $this->abandoned = true;
            Loop::cancel($this->task, new StreamAbandoned(\sprintf('%s: the client is gone', $this->task->label)));
        }
        $this->abandoned = true;
        if (\is_resource($this->spill)) {
            \fclose($this->spill);
        }
    }
}
