<?php

declare(strict_types=1);

namespace Spindle\Supervisor;

/**
 * @internal The master's restarts waiting for their back-off, each for the generation whose slot
 * it fills. One whose generation is no longer current by the time it is due is dropped (a reload
 * replaced that generation, or failed), except the outgoing generation's while a reload decides:
 * those wait for its outcome.
 */
final class RestartQueue
{
    /** @var list<PendingRestart> */
    private array $pending = [];

    public function add(PendingRestart $restart): void
    {
        $this->pending[] = $restart;
    }

    public function clear(): void
    {
        $this->pending = [];
    }

    /** Drops the restarts of $generation (a reload to it failed). */
    public function dropGeneration(int $generation): void
    {
        $this->pending = \array_values(\array_filter($this->pending, static fn (PendingRestart $restart): bool => $restart->generation !== $generation));
    }

    /**
     * Takes the restarts of $generation due at $now, in the order they were added. Those not due
     * yet stay, and so do those of $held (the generation a reload is replacing); others go.
     *
     * @return list<PendingRestart>
     */
    public function takeDue(float $now, int $generation, ?int $held): array
    {
        $due = [];
        $waiting = [];
        foreach ($this->pending as $restart) {
            if ($restart->generation !== $generation) {
                if ($restart->generation === $held) {
                    $waiting[] = $restart;
                }
                continue;
            }
            if ($restart->at > $now) {
                $waiting[] = $restart;
            } else {
                $due[] = $restart;
            }
        }
        $this->pending = $waiting;

        return $due;
    }
}
