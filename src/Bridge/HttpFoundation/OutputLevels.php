<?php

declare(strict_types=1);

namespace Spindle\Bridge\HttpFoundation;

use Spindle\Loop\Loop;

/**
 * @internal The output buffers that streamed bodies pushed, by their level on PHP's one,
 * process-wide output buffer stack.
 *
 * A streamed body's buffer stays on the stack while its callback waits, so buffers of other
 * requests can end up above it, and a buffer can only be removed from the top. A body that ends
 * below the top leaves its buffer in place, passing everything through; it is removed once it
 * reaches the top, when another streamed body ends.
 */
final class OutputLevels
{
    /** @var array<int, OutputCapture> */
    private array $captures = [];

    /** Puts $capture's buffer on top of the stack and returns its level. */
    public function push(OutputCapture $capture): int
    {
        $level = Loop::startOutputBuffer($capture, 1);
        $this->captures[$level] = $capture;

        return $level;
    }

    /** Ends $capture (pushed at $level): its buffer is removed now if it is at the top, or later. */
    public function end(OutputCapture $capture, int $level): void
    {
        if (\ob_get_level() === $level && ($this->captures[$level] ?? null) === $capture) {
            // Still capturing: what the buffer holds belongs to the body.
            \ob_end_flush();
            unset($this->captures[$level]);
        }
        $capture->finish();
        $this->removeFinished();
    }

    /** How many buffers of ended bodies still wait below the top. */
    public function waiting(): int
    {
        $this->forgetRemoved();

        return \count(\array_filter($this->captures, static fn (OutputCapture $c): bool => $c->isFinished()));
    }

    private function removeFinished(): void
    {
        $this->forgetRemoved();
        while (($top = \ob_get_level()) > 0) {
            $capture = $this->captures[$top] ?? null;
            if ($capture === null || !$capture->isFinished() || !self::isCapture($top)) {
                return;
            }
            unset($this->captures[$top]);
            \ob_end_flush();
        }
    }

    /** Entries above the top were removed by someone else. */
    private function forgetRemoved(): void
    {
        $top = \ob_get_level();
        foreach (\array_keys($this->captures) as $level) {
            if ($level > $top) {
                unset($this->captures[$level]);
            }
        }
    }

    private static function isCapture(int $level): bool
    {
        $status = \ob_get_status(true);

        return ($status[$level - 1]['name'] ?? '') === OutputCapture::class . '::__invoke';
    }
}
