<?php

declare(strict_types=1);

namespace Spindle\Metrics;

/** Observations counted into buckets, with their sum and count; summed over the workers by the master. */
final class Histogram
{
    /** Prometheus' default buckets with two below 5 ms, for requests that take a millisecond. */
    public const DEFAULT_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0];

    /** @var list<float> */
    public readonly array $buckets;
    /** @var array<string, array{array<int, float>, float, float}> */
    private array $values = [];
    /** @var list<float> one zero per bucket and one for +Inf */
    private readonly array $zeros;

    /**
     * @param list<string> $labelNames
     * @param list<float> $buckets upper bounds, ascending (+Inf is implied)
     */
    public function __construct(
        public readonly string $name,
        public readonly string $help,
        public readonly array $labelNames = [],
        array $buckets = self::DEFAULT_BUCKETS,
    ) {
        $sorted = \array_values(\array_map('floatval', $buckets));
        \sort($sorted);
        if ($sorted === [] || $sorted !== \array_values(\array_unique($sorted, \SORT_REGULAR)) || \is_infinite(\end($sorted))) {
            throw new MetricsError(\sprintf('Histogram %s needs distinct, finite bucket bounds', $name));
        }
        $this->buckets = $sorted;
        $this->zeros = \array_fill(0, \count($sorted) + 1, 0.0);
    }

    /** @param list<string> $labels */
    public function observe(float $value, array $labels = []): void
    {
        if (\count($labels) !== \count($this->labelNames)) {
            throw new MetricsError(\sprintf('Histogram %s takes %d label values, got %d', $this->name, \count($this->labelNames), \count($labels)));
        }
        $key = $labels === [] ? '' : \implode(Family::SEPARATOR, $labels);
        if (!isset($this->values[$key])) {
            $this->values[$key] = [$this->zeros, 0.0, 0.0];
        }
        $i = 0;
        foreach ($this->buckets as $bound) {
            if ($value <= $bound) {
                break;
            }
            ++$i;
        }
        // In place: copying the entry out and back would copy its bucket list on every call.
        ++$this->values[$key][0][$i];
        $this->values[$key][1] += $value;
        ++$this->values[$key][2];
    }

    /** @param list<string> $labels */
    public function count(array $labels = []): float
    {
        return $this->values[\implode(Family::SEPARATOR, $labels)][2] ?? 0.0;
    }

    public function family(): Family
    {
        return new Family($this->name, MetricType::Histogram, $this->help, $this->labelNames, $this->buckets, $this->values);
    }
}
