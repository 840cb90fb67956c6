<?php

declare(strict_types=1);

namespace Spindle\Loop;

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

    /** hrtime (ns) when the task last started running; used to find requests that block the loop. */
    public int $runningSince = 0;

    public function __construct(
        /** What the task is, for log lines: e.g. "GET /orders/5". */
        public readonly string $label,
    ) {
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

    /** @internal Called by the loop after this task's fiber is resumed. */
    public function resumed(): void
    {
        $this->runningSince = \hrtime(true);
        foreach ($this->resumeHooks as $hook) {
            $hook();
        }
    }
}
