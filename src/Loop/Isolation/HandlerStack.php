<?php

declare(strict_types=1);

namespace Spindle\Loop\Isolation;

/**
 * @internal One of PHP's handler stacks (set_error_handler() or set_exception_handler()): PHP
 * lets a program read only the top, by pushing and popping, so a task's handlers are found by
 * popping until the top is the one the task started with.
 */
final class HandlerStack
{
    /** How deep a task's own handlers may go before the walk gives up. */
    private const MAX_DEPTH = 64;

    private function __construct(
        /** @var \Closure(callable|null): mixed */
        private readonly \Closure $push,
        /** @var \Closure(): bool */
        private readonly \Closure $pop,
    ) {
    }

    public static function errors(): self
    {
        return new self(static fn (?callable $handler): mixed => \set_error_handler($handler), \restore_error_handler(...));
    }

    public static function exceptions(): self
    {
        return new self(static fn (?callable $handler): mixed => \set_exception_handler($handler), \restore_exception_handler(...));
    }

    /** The handler on top now. */
    public function top(): mixed
    {
        $top = ($this->push)(null);
        ($this->pop)();

        return $top;
    }

    /**
     * Pops handlers until $base is on top; returns the popped ones, bottom first. When $base is
     * not found (the task removed handlers it did not push), $base is pushed back on top.
     *
     * @return list<mixed>
     */
    public function takeAbove(mixed $base): array
    {
        $taken = [];
        for ($depth = 0; $depth < self::MAX_DEPTH; ++$depth) {
            $top = $this->top();
            if ($top === $base) {
                return \array_reverse($taken);
            }
            $taken[] = $top;
            ($this->pop)();
            if ($top === null && $this->top() === null) {
                break;
            }
        }
        ($this->push)($base);

        return \array_reverse($taken);
    }

    /** @param list<mixed> $handlers bottom first, as takeAbove() returns them */
    public function push(array $handlers): void
    {
        foreach ($handlers as $handler) {
            ($this->push)(\is_callable($handler) ? $handler : null);
        }
    }
}
