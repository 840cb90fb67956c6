<?php

declare(strict_types=1);

namespace Spindle\Metrics;

/** A number that only goes up, per set of label values; summed over the workers by the master. */
final class Counter
{
    /** @var array<string, float> */
    private array $values = [];

    /** @param list<string> $labelNames */
    public function __construct(
        public readonly string $name,
        public readonly string $help,
        public readonly array $labelNames = [],
    ) {
    }

    /** @param list<string> $labels values in the order of the label names */
    public function inc(array $labels = [], float $by = 1.0): void
    {
        if ($by < 0) {
            throw new MetricsError(\sprintf('Counter %s cannot go down (inc by %s)', $this->name, $by));
        }
        if (\count($labels) !== \count($this->labelNames)) {
            throw new MetricsError(\sprintf('Counter %s takes %d label values, got %d', $this->name, \count($this->labelNames), \count($labels)));
        }
        $key = \implode(Family::SEPARATOR, $labels);
        $this->values[$key] = ($this->values[$key] ?? 0.0) + $by;
    }

    /** @param list<string> $labels */
    public function value(array $labels = []): float
    {
        return $this->values[\implode(Family::SEPARATOR, $labels)] ?? 0.0;
    }

    public function family(): Family
    {
        return new Family($this->name, MetricType::Counter, $this->help, $this->labelNames, [], $this->values);
    }
}
