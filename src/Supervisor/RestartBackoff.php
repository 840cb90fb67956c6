<?php

declare(strict_types=1);

namespace Spindle\Supervisor;

/**
 * @internal How long the master waits before it restarts a worker that failed, from the failures
 * within the last crashWindow seconds (see SupervisorConfig).
 *
 * Back-off is for workers that fail before they served: a boot failure, or a worker that died
 * before it reported a single request (a crash loop right after boot). A worker that served
 * requests is replaced at once and does not count here.
 */
final class RestartBackoff
{
    /** @var list<float> times of recent crashes of workers that had not served */
    private array $crashes = [];
    /** @var list<float> times of recent boot failures */
    private array $bootFailures = [];

    public function __construct(private readonly SupervisorConfig $config)
    {
    }

    /** A worker died before it served: the delay of its restart (the first is immediate). */
    public function crashed(float $now): float
    {
        $this->crashes = $this->recent($this->crashes, $now);
        $this->crashes[] = $now;
        $recent = \count($this->crashes);

        return $recent <= 1 ? 0.0 : \min($this->config->backoffMax, $this->config->backoffBase * 2 ** ($recent - 2));
    }

    /** A worker failed to boot: the delay of the next attempt, or null past bootFailureLimit. */
    public function bootFailed(float $now): ?float
    {
        $this->bootFailures = $this->recent($this->bootFailures, $now);
        $this->bootFailures[] = $now;
        $failures = \count($this->bootFailures);
        if ($failures > $this->config->bootFailureLimit) {
            return null;
        }

        return \min($this->config->backoffMax, $this->config->backoffBase * 2 ** ($failures - 1));
    }

    /** Boot failures within the window (after bootFailed()). */
    public function bootFailures(): int
    {
        return \count($this->bootFailures);
    }

    /**
     * @param list<float> $times
     *
     * @return list<float>
     */
    private function recent(array $times, float $now): array
    {
        return \array_values(\array_filter($times, fn (float $t): bool => $t > $now - $this->config->crashWindow));
    }
}
