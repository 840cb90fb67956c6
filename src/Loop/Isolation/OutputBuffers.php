<?php

declare(strict_types=1);

namespace Spindle\Loop\Isolation;

/**
 * @internal Takes a task's output buffers off PHP's one, process-wide buffer stack and puts them
 * back, so that every task sees a stack of its own.
 *
 * A buffer is saved as its handler, chunk size, flags and contents. PHP does not hand back the
 * callable of a buffer's handler, so a handler is opened again only when it can be named: PHP's
 * default handler, a function or static method given by name, or a handler started through
 * start() (Spindle's own, say). Any other handler (a closure, an object's method) is called once
 * with PHP_OUTPUT_HANDLER_CLEAN | PHP_OUTPUT_HANDLER_FINAL when its buffer is taken off, and the
 * buffer comes back with its contents and PHP's default handler.
 */
final class OutputBuffers
{
    private const DEFAULT_HANDLER = 'default output handler';

    /**
     * Handlers started through start(), by the task (fiber) and level that opened them.
     *
     * @var \WeakMap<object, array<int, callable>>
     */
    private \WeakMap $named;

    public function __construct()
    {
        $this->named = new \WeakMap();
    }

    /**
     * ob_start() with a handler that survives the task's waits. Returns the new buffer's level.
     *
     * @param callable(string, int): string $handler
     */
    public function start(callable $handler, int $chunkSize = 0): int
    {
        \ob_start($handler, $chunkSize);
        $level = \ob_get_level();
        $fiber = \Fiber::getCurrent();
        if ($fiber !== null) {
            $handlers = $this->named[$fiber] ?? [];
            $handlers[$level] = $handler;
            $this->named[$fiber] = $handlers;
        }

        return $level;
    }

    /**
     * Takes off every buffer above $base, topmost first; returns them bottom first. A buffer that
     * cannot be removed (opened without PHP_OUTPUT_HANDLER_REMOVABLE) stops the walk: it and the
     * ones below it stay.
     *
     * @return list<SavedBuffer>
     */
    public function take(int $base): array
    {
        $level = \ob_get_level();
        if ($level <= $base) {
            return [];
        }
        $status = \ob_get_status(true);
        $fiber = \Fiber::getCurrent();
        $named = $fiber !== null ? ($this->named[$fiber] ?? []) : [];
        $saved = [];
        for (; $level > $base; --$level) {
            $buffer = $status[$level - 1] ?? null;
            if ($buffer === null || ($buffer['flags'] & \PHP_OUTPUT_HANDLER_REMOVABLE) === 0) {
                break;
            }
            $contents = (string) \ob_get_contents();
            if (!@\ob_end_clean()) {
                break;
            }
            $saved[] = new SavedBuffer(
                self::handler($buffer['name'], $named[$level] ?? null),
                (int) $buffer['chunk_size'],
                $buffer['flags'] & \PHP_OUTPUT_HANDLER_STDFLAGS,
                $contents,
            );
        }
        if ($fiber !== null && $named !== []) {
            unset($this->named[$fiber]);
        }

        return \array_reverse($saved);
    }

    /**
     * Opens $buffers again, bottom first, each with its contents.
     *
     * @param list<SavedBuffer> $buffers
     */
    public function put(array $buffers): void
    {
        $fiber = \Fiber::getCurrent();
        $named = [];
        foreach ($buffers as $buffer) {
            \ob_start($buffer->handler, $buffer->chunkSize, $buffer->flags);
            if ($buffer->contents !== '') {
                echo $buffer->contents;
            }
            if ($buffer->handler !== null && $fiber !== null) {
                $named[\ob_get_level()] = $buffer->handler;
            }
        }
        if ($named !== [] && $fiber !== null) {
            $this->named[$fiber] = $named;
        }
    }

    private static function handler(string $name, mixed $started): mixed
    {
        if ($name === self::DEFAULT_HANDLER) {
            return null;
        }
        if ($started !== null) {
            return $started;
        }
        // A function or a static method given by name (ob_gzhandler, 'Class::method').
        if (!\str_starts_with($name, 'Closure::') && \is_callable($name)) {
            return $name;
        }

        return null;
    }
}
