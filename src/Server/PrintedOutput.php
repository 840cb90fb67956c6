<?php

declare(strict_types=1);

namespace Spindle\Server;

use Revolt\EventLoop;
use Spindle\Loop\Context;
use Spindle\Loop\Loop;

/**
 * What each request printed (echo, print, php://output, the message of exit("…")), kept while it
 * runs so that a request that ends the process can be answered with it, as PHP-FPM sends what a
 * script printed before it called exit() (see ExitDrain).
 *
 * It is a buffer at the bottom of PHP's output stack, under every buffer the requests open, that
 * passes everything through at once (chunk size 1): output still goes where it went, to the
 * worker's standard output. Each piece is credited to the request running when it was printed.
 * Nothing is recorded for requests that print nothing, so the request path does not pay for it.
 *
 * The buffer can be removed like any other (legacy code empties the stack with
 * `while (ob_get_level()) ob_end_clean();`, which would never end on a buffer that refuses to go):
 * it is opened again once no request runs and the stack is empty, at the next turn of the loop
 * or, failing that, at the worker's next report (see reopen()).
 */
final class PrintedOutput
{
    /** Bytes kept per request; what a request prints past this is passed through only. */
    public const LIMIT = 8388608;

    /** @var \WeakMap<Context, PrintedBytes> */
    private \WeakMap $printed;
    private int $level = 0;
    private bool $removed = false;

    public function __construct()
    {
        $this->printed = new \WeakMap();
    }

    /** Opens the buffer; call it while no request runs, then take the output stack as the baseline. */
    public function start(): void
    {
        if ($this->level > 0) {
            return;
        }
        \ob_start($this->record(...), 1);
        $this->level = \ob_get_level();
    }

    /** The level of this buffer on PHP's output stack (0 before start()); what is above is the requests'. */
    public function level(): int
    {
        return $this->level;
    }

    /** What $context's request printed so far (up to LIMIT bytes); it is forgotten. */
    public function take(Context $context): string
    {
        $bytes = $this->printed[$context] ?? null;
        unset($this->printed[$context]);

        return $bytes === null ? '' : $bytes->bytes;
    }

    /**
     * Opens the buffer again if a request removed it and the stack is empty now (the worker
     * calls it between requests): it must sit at the level the baseline knows.
     */
    public function reopen(): void
    {
        if ($this->removed && \ob_get_level() === $this->level - 1) {
            $this->removed = false;
            \ob_start($this->record(...), 1);
        }
    }

    /** Whether the buffer was removed and is not open again yet. */
    public function isRemoved(): bool
    {
        return $this->removed;
    }

    private function record(string $buffer, int $phase): string
    {
        if (($phase & \PHP_OUTPUT_HANDLER_FINAL) !== 0 && !$this->removed) {
            // Removed (ob_end_clean(), ob_end_flush(), or the end of the process).
            $this->removed = true;
            EventLoop::defer(function (): void {
                $this->reopen();
            });
        }
        if ($buffer === '' || ($phase & \PHP_OUTPUT_HANDLER_CLEAN) !== 0) {
            return $buffer;
        }
        $context = Loop::context();
        if ($context !== null) {
            $bytes = $this->printed[$context] ??= new PrintedBytes();
            $room = self::LIMIT - \strlen($bytes->bytes);
            if ($room > 0) {
                $bytes->bytes .= \strlen($buffer) <= $room ? $buffer : \substr($buffer, 0, $room);
            }
        }

        return $buffer;
    }
}
