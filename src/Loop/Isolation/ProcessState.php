<?php

declare(strict_types=1);

namespace Spindle\Loop\Isolation;

use Spindle\Loop\Context;

/**
 * Gives every task (request) the process-wide state of a process of its own.
 *
 * PHP keeps some state once per process: the output buffer stack, the error and exception
 * handler stacks, the time zone, the locale, the error reporting level, several ini settings, the
 * superglobals. Fibers share it. When a task leaves the CPU (it waits, or a task it started runs),
 * leave() takes what it changed off the process and keeps it in its Context, putting back the
 * baseline: the state the worker had once the app was booted. enter() puts the task's own state
 * back when it resumes, and finish() drops it when the task ends, so that the next request starts
 * from the baseline as a request under PHP-FPM starts from a fresh process.
 *
 * A task that changed nothing costs one comparison of the settings with the baseline per wait
 * (see docs/architecture.md for the figure); output buffers are only touched when the task has one
 * open.
 */
final class ProcessState
{
    public readonly OutputBuffers $buffers;
    private readonly Settings $settings;
    private readonly HandlerStack $errors;
    private readonly HandlerStack $exceptions;

    private int $baseLevel = 0;
    /** @var list<mixed> */
    private array $baseSettings = [];
    private mixed $baseErrorHandler = null;
    private mixed $baseExceptionHandler = null;
    /** @var list<array<mixed>> */
    private array $baseGlobals = [];

    public function __construct()
    {
        $this->buffers = new OutputBuffers();
        $this->settings = new Settings();
        $this->errors = HandlerStack::errors();
        $this->exceptions = HandlerStack::exceptions();
        // The CLI starts with no response code, which PHP cannot set back once a request set
        // one; PHP-FPM starts every request at 200.
        if (\http_response_code() === false) {
            \http_response_code(200);
        }
        $this->rebase();
    }

    /**
     * Takes the process's state as it is now as the baseline every task starts from. Call it
     * while no task runs: at worker start, and again once the app has booted.
     */
    public function rebase(): void
    {
        $this->baseLevel = \ob_get_level();
        $this->baseSettings = $this->settings->read();
        $this->baseErrorHandler = $this->errors->top();
        $this->baseExceptionHandler = $this->exceptions->top();
        $this->baseGlobals = self::globals();
    }

    /** The running task leaves the CPU: what it changed is kept in $context, the baseline put back. */
    public function leave(Context $context): void
    {
        $context->isolation = $this->take();
    }

    /** $context's task runs again: its own state is put back. */
    public function enter(Context $context): void
    {
        $state = $context->isolation;
        if ($state !== null) {
            $context->isolation = null;
            $this->restore($state);
        }
    }

    private function restore(FiberState $state): void
    {
        if ($state->settings !== null) {
            $this->settings->write($state->settings, $this->baseSettings);
        }
        if ($state->errorHandlers !== null) {
            $this->errors->pushAll($state->errorHandlers);
        }
        if ($state->exceptionHandlers !== null) {
            $this->exceptions->pushAll($state->exceptionHandlers);
        }
        if ($state->globals !== null) {
            [$_GET, $_POST, $_COOKIE, $_FILES, $_SERVER, $_ENV, $_REQUEST] = $state->globals;
        }
        if ($state->buffers !== []) {
            $this->buffers->put($state->buffers);
        }
    }

    /**
     * $child (a task started by $parent, a streamed body say) starts with what $parent changed of
     * the process-wide settings, handlers and superglobals (not its output buffers), as code
     * running after it in one process would; $parent must have left (see leave()).
     */
    public function inherit(Context $parent, Context $child): void
    {
        $state = $parent->isolation;
        $child->isolation = $state === null ? null
            : new FiberState([], $state->settings, $state->errorHandlers, $state->exceptionHandlers, $state->globals);
    }

    /** The running task ended: whatever it changed is dropped (its open buffers with their contents). */
    public function finish(): void
    {
        $this->take();
    }

    /**
     * Runs $work from the baseline state (booting another app instance in the middle of a
     * request, say), then puts the running task's state back; what $work changed is dropped.
     *
     * @template T
     *
     * @param \Closure(): T $work
     *
     * @return T
     */
    public function isolated(\Closure $work): mixed
    {
        $saved = $this->take();
        try {
            return $work();
        } finally {
            $this->take();
            if ($saved !== null) {
                $this->restore($saved);
            }
        }
    }

    /** Takes the running state's differences from the baseline off the process. */
    private function take(): ?FiberState
    {
        $buffers = \ob_get_level() > $this->baseLevel ? $this->buffers->take($this->baseLevel) : [];

        $settings = null;
        if (!$this->settings->unchanged($this->baseSettings)) {
            $settings = $this->settings->read();
            $this->settings->write($this->baseSettings, $settings);
        }

        $errorHandlers = $this->errors->top() === $this->baseErrorHandler
            ? null
            : $this->errors->takeAbove($this->baseErrorHandler);
        $exceptionHandlers = $this->exceptions->top() === $this->baseExceptionHandler
            ? null
            : $this->exceptions->takeAbove($this->baseExceptionHandler);

        $globals = null;
        $base = $this->baseGlobals;
        // Identity first: an unchanged superglobal is the baseline's array itself.
        if ($_GET !== $base[0] || $_POST !== $base[1] || $_COOKIE !== $base[2] || $_FILES !== $base[3]
            || $_SERVER !== $base[4] || $_ENV !== $base[5] || $_REQUEST !== $base[6]) {
            $globals = self::globals();
            [$_GET, $_POST, $_COOKIE, $_FILES, $_SERVER, $_ENV, $_REQUEST] = $base;
        }

        if ($buffers === [] && $settings === null && $errorHandlers === null && $exceptionHandlers === null && $globals === null) {
            return null;
        }

        return new FiberState($buffers, $settings, $errorHandlers, $exceptionHandlers, $globals);
    }

    /** @return list<array<mixed>> */
    private static function globals(): array
    {
        return [$_GET, $_POST, $_COOKIE, $_FILES, $_SERVER, $_ENV, $_REQUEST];
    }
}
