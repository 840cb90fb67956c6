<?php

declare(strict_types=1);

namespace Spindle\Loop;

use Spindle\Loop\Driver\ContextSuspension;

/**
 * State that belongs to one fiber-run task (one HTTP request): values keyed by name and
 * hooks that run every time the task's fiber is resumed after a suspension.
 *
 * Framework bridges register resume hooks to put back the process-global pointers
 * (container instance, facade root, …) of the app instance that this request borrowed.
 */
final class Context
{
    /** @var array<string, mixed> */
    private array $values = [];

    /** @var list<\Closure(): void> */
    private array $resumeHooks = [];

    /** @var list<\Closure(): void> */
    private array $deferred = [];

    /** @var list<\Closure(): void> */
    private array $endHooks = [];

    /** hrtime (ns) when the task last started running; used to find requests that block the loop. */
    public int $runningSince = 0;

    /** @internal The loop suspension the task waits in now; kept by ContextSuspension. */
    public ?ContextSuspension $waitingIn = null;

    /** @internal What the task changed of the process-wide state, kept while it waits (see ProcessState). */
    public ?Isolation\FiberState $isolation = null;
    /**
     * What this task serves, for code inside it to find (a server's request: its
     * Http\RunningRequest). Set and cleared by the task's owner; tasks started from it reach it
     * through root().
     */
    public ?object $owner = null;

    /** Whether the task waits in the loop now (a task that ended the process mid-run does not). */
    public function isWaiting(): bool
    {
        return $this->waitingIn !== null;
    }

    /** The task that started this one (Spindle\concurrently()), or null for a request or tick. */
    private ?Context $parent = null;
    /** The task this one works for without being its child (see partOf()). */
    private ?Context $partOf = null;

    private ?TaskCancelled $cancellation = null;
    private bool $cancellationThrown = false;
    private int $shields = 0;

    public function __construct(
        /** What the task is, for log lines: e.g. "GET /orders/5". */
        public readonly string $label,
    ) {
    }

    /**
     * A context for a task this one starts (Spindle\concurrently()): it sees this context's values
     * as they are now (what it sets stays its own), runs this context's resume hooks before its
     * own whenever it resumes (so it resumes into the same app instance), and hands work for after
     * the response to the request.
     */
    public function child(string $label): self
    {
        $child = new self($label);
        $child->values = $this->values;
        $child->parent = $this;
        $child->resumeHooks[] = $this->runResumeHooks(...);

        return $child;
    }

    public function set(string $key, mixed $value): void
    {
        $this->values[$key] = $value;
    }

    public function get(string $key, mixed $default = null): mixed
    {
        return $this->values[$key] ?? $default;
    }

    public function has(string $key): bool
    {
        return \array_key_exists($key, $this->values);
    }

    /** @param \Closure(): void $hook */
    public function onResume(\Closure $hook): void
    {
        $this->resumeHooks[] = $hook;
    }

    /**
     * Runs $work in this task's fiber once the task's result has been delivered: whoever runs the
     * task calls runDeferred() then (for a server's request: once its response was handed to the
     * connection, as fastcgi_finish_request() lets work run under PHP-FPM, with the request's
     * process state and app instance still the ones running; a framework's terminate step goes
     * here). A child task's deferred work is its root's. Work deferred in a task nobody runs the
     * deferred work of never runs: call it directly there.
     *
     * @param \Closure(): void $work
     */
    public function defer(\Closure $work): void
    {
        if ($this->parent !== null) {
            $this->parent->defer($work);

            return;
        }
        $this->deferred[] = $work;
    }

    /**
     * Runs $hook in this task's fiber when the task ends, after its response and everything
     * registered with defer(): to give back or stop what the task held for its whole run
     * (a pooled database session, an HTTP request it started and never waited for). A child
     * task's hooks are its request's: they run when the request ends. A hook may wait; it is not
     * interrupted by a cancellation, and what it throws is dropped (a hook reports its own
     * failures).
     *
     * @param \Closure(): void $hook
     */
    public function onEnd(\Closure $hook): void
    {
        if ($this->parent !== null) {
            $this->parent->onEnd($hook);

            return;
        }
        $this->endHooks[] = $hook;
    }

    /** @internal Called by the loop when the task's body returned, in its fiber, before ended(). */
    public function runEndHooks(): void
    {
        if ($this->endHooks === []) {
            return;
        }
        while (($hook = \array_shift($this->endHooks)) !== null) {
            try {
                $this->shield($hook);
            } catch (\Throwable) {
                // The hook's own to report (see onEnd()).
            }
        }
    }

    /**
     * Makes this task part of $task without being its child (a streamed body's task, which keeps
     * its own values and state): root() then leads to $task's root, so what a request holds for its
     * whole run (a pooled database session) is the same for the tasks that work for it.
     */
    public function partOf(self $task): void
    {
        $this->partOf = $task;
    }

    /** The request (or tick) this task belongs to: itself, or the task it works for, at the top. */
    public function root(): self
    {
        $context = $this;
        while (($up = $context->parent ?? $context->partOf) !== null) {
            $context = $up;
        }

        return $context;
    }

    /**
     * Runs the work registered with defer(), once, in order, in the calling fiber (the
     * request's: its server calls this once the response is handed over). A step that throws
     * goes to $failed and the next step still runs.
     *
     * @param \Closure(self, \Throwable): void $failed
     */
    public function runDeferred(\Closure $failed): void
    {
        if ($this->deferred === []) {
            return;
        }
        $work = $this->deferred;
        $this->deferred = [];
        foreach ($work as $step) {
            try {
                $step();
            } catch (\Throwable $e) {
                $failed($this, $e);
            }
        }
    }


    /**
     * Whether the task was cancelled (by the request timeout, say). A task that computes for a
     * long time without waiting can poll this: only a waiting task can be interrupted.
     */
    public function isCancelled(): bool
    {
        return $this->cancellation !== null;
    }

    /**
     * Runs $wait so that a cancellation arriving meanwhile does not interrupt it: the task gets
     * the cancellation at its next wait instead, or from takeCancellation().
     *
     * @template T
     *
     * @param \Closure(): T $wait
     *
     * @return T
     */
    public function shield(\Closure $wait): mixed
    {
        ++$this->shields;
        try {
            return $wait();
        } finally {
            --$this->shields;
        }
    }

    /**
     * The cancellation not yet thrown into the task, handed out once; null when there is none
     * or while shielded.
     */
    public function takeCancellation(): ?TaskCancelled
    {
        if ($this->cancellation === null || $this->cancellationThrown || $this->shields > 0) {
            return null;
        }
        $this->cancellationThrown = true;

        return $this->cancellation;
    }

    /** @internal Records a cancellation; ContextDriver::cancelTask() also throws it into the task. */
    public function cancel(TaskCancelled $reason): void
    {
        $this->cancellation ??= $reason;
    }

    /**
     * @internal Called by the loop when the task ends: its resume hooks go, since what they
     * reach (a request's app instance) must not outlive the task through this context, which a
     * pooled fiber's last suspension still references.
     */
    public function ended(): void
    {
        $this->resumeHooks = [];
    }

    /** @internal Called by the loop after this task's fiber is resumed. */
    public function resumed(): void
    {
        $this->runningSince = \hrtime(true);
        foreach ($this->resumeHooks as $hook) {
            $hook();
        }
    }

    private function runResumeHooks(): void
    {
        foreach ($this->resumeHooks as $hook) {
            $hook();
        }
    }
}
