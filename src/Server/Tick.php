<?php

declare(strict_types=1);

namespace Spindle\Server;

/**
 * One tick registered with Spindle\every(): its name (the metrics' `tick` label), its interval,
 * and a way to stop it. A run still going when the next beat comes makes that beat a skip.
 */
final class Tick
{
    /** @internal the loop's repeat timer, null once cancelled */
    public ?string $timerId = null;
    /** @internal */
    public bool $running = false;
    private int $runs = 0;
    private int $skipped = 0;

    /** @param \Closure(): mixed $work */
    public function __construct(
        public readonly string $name,
        public readonly float $interval,
        /** @internal */
        public readonly \Closure $work,
        private readonly Ticks $ticks,
    ) {
    }

    /** No more runs (a run under way finishes). */
    public function cancel(): void
    {
        $this->ticks->cancel($this);
    }

    public function isRunning(): bool
    {
        return $this->running;
    }

    /** Runs finished (with or without an error). */
    public function runs(): int
    {
        return $this->runs;
    }

    /** Beats that came while a run was still going. */
    public function skipped(): int
    {
        return $this->skipped;
    }

    /** @internal */
    public function counted(bool $ran): void
    {
        $ran ? ++$this->runs : ++$this->skipped;
    }
}
