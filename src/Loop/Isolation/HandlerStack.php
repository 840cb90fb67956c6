<?php

declare(strict_types=1);

namespace Spindle\Loop\Isolation;

/**
 * @internal One of PHP's handler stacks (set_error_handler() or set_exception_handler()): PHP
 * lets a program read only the top, by pushing and popping, so a task's handlers are found by
 * popping until the top is the one the task started with.
 *
 * The two stacks are told apart by a flag rather than by closures around the functions: top() runs
 * at every wait of every request, and a closure call per push and pop doubled its cost.
 */
final class HandlerStack
{
    /** How deep a task's own handlers may go before the walk gives up. */
    private const MAX_DEPTH = 64;

    private function __construct(private readonly bool $errors)
    {
    }

    public static function errors(): self
    {
        return new self(true);
    }

    public static function exceptions(): self
    {
        return new self(false);
    }

    /** The handler on top now. */
    public function top(): mixed
    {
        if ($this->errors) {
            $top = \set_error_handler(null);
            \restore_error_handler();
        } else {
            $top = \set_exception_handler(null);
            \restore_exception_handler();
        }

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
            $this->pop();
            if ($top === null && $this->top() === null) {
                break;
            }
        }
        $this->push($base);

        return \array_reverse($taken);
    }

    /** @param list<mixed> $handlers bottom first, as takeAbove() returns them */
    public function pushAll(array $handlers): void
    {
        foreach ($handlers as $handler) {
            $this->push($handler);
        }
    }

    private function push(mixed $handler): void
    {
        $handler = \is_callable($handler) ? $handler : null;
        if ($this->errors) {
            \set_error_handler($handler);
        } else {
            \set_exception_handler($handler);
        }
    }

    private function pop(): void
    {
        if ($this->errors) {
            \restore_error_handler();
        } else {
            \restore_exception_handler();
        }
    }
}
