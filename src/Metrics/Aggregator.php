<?php

declare(strict_types=1);

namespace Spindle\Metrics;

/**
 * The master's sum of what its workers report. Each worker sends its whole registry (its
 * counters since it started); the latest report per worker is kept. When a worker exits, its
 * last counters and histograms are folded into a base that stays, so the totals never go down
 * across restarts and reloads (what a worker counted after its last report is lost: at most
 * about a second's worth). Gauges of a worker that exited go with it.
 */
final class Aggregator
{
    /** @var array<int, array<string, Family>> the latest families by worker pid, then name */
    private array $workers = [];
    /** @var array<string, Family> what exited workers counted */
    private array $base = [];

    /** @param list<Family> $families */
    public function update(int $pid, array $families): void
    {
        $byName = [];
        foreach ($families as $family) {
            $byName[$family->name] = $family;
        }
        $this->workers[$pid] = $byName;
    }

    /** The worker exited: keep what it counted. */
    public function retire(int $pid): void
    {
        foreach ($this->workers[$pid] ?? [] as $name => $family) {
            if ($family->type === MetricType::Gauge) {
                continue;
            }
            $this->base[$name] = isset($this->base[$name]) ? self::add($this->base[$name], $family) : $family;
        }
        unset($this->workers[$pid]);
    }

    /** @return list<Family> the sums, by name */
    public function families(): array
    {
        $sums = [];
        foreach ($this->base as $name => $family) {
            $sums[$name] = $family;
        }
        foreach ($this->workers as $families) {
            foreach ($families as $name => $family) {
                $sums[$name] = isset($sums[$name]) ? self::add($sums[$name], $family) : $family;
            }
        }
        \ksort($sums);

        return \array_values($sums);
    }

    /** $a plus $b; $b is dropped when it does not have $a's type, labels and buckets. */
    private static function add(Family $a, Family $b): Family
    {
        if ($a->type !== $b->type || $a->labelNames !== $b->labelNames || $a->buckets !== $b->buckets) {
            return $a;
        }
        $samples = $a->samples;
        foreach ($b->samples as $key => $value) {
            $mine = $samples[$key] ?? null;
            if ($mine === null) {
                $samples[$key] = $value;
            } elseif (\is_array($mine) && \is_array($value)) {
                foreach ($value[0] as $i => $count) {
                    $mine[0][$i] = ($mine[0][$i] ?? 0.0) + $count;
                }
                $samples[$key] = [$mine[0], $mine[1] + $value[1], $mine[2] + $value[2]];
            } elseif (!\is_array($mine) && !\is_array($value)) {
                $samples[$key] = $mine + $value;
            }
        }

        return $a->withSamples($samples);
    }
}
