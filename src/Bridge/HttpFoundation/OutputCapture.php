<?php

declare(strict_types=1);

namespace Spindle\Bridge\HttpFoundation;

/**
 * @internal The output buffer handler of one streamed body. It keeps only what the body's own
 * fiber prints; output of any other fiber, and everything once the body ended, passes through
 * to the buffer below, as if this one were not there.
 */
final class OutputCapture
{
    private bool $finished = false;

    /** @var \Fiber<mixed, mixed, mixed, mixed>|null */
    private ?\Fiber $fiber;
    /** @var (\Closure(string): void)|null */
    private ?\Closure $sink;

    /**
     * @param \Fiber<mixed, mixed, mixed, mixed> $fiber
     * @param \Closure(string): void $sink
     */
    public function __construct(\Fiber $fiber, \Closure $sink)
    {
        $this->fiber = $fiber;
        $this->sink = $sink;
    }

    public function __invoke(string $buffer, int $phase): string
    {
        if ($this->sink === null || \Fiber::getCurrent() !== $this->fiber) {
            return $buffer;
        }
        if ($buffer !== '') {
            ($this->sink)($buffer);
        }

        return '';
    }

    public function finish(): void
    {
        $this->finished = true;
        // A buffer left below the top lives on: it keeps nothing of the body.
        $this->fiber = null;
        $this->sink = null;
    }

    public function isFinished(): bool
    {
        return $this->finished;
    }
}
