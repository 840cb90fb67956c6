<?php

declare(strict_types=1);

namespace Spindle\Metrics;

/** A number that goes up and down, per set of label values; the master shows the sum over the workers. */
final class Gauge
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

    /** @param list<string> $labels */
    public function set(float $value, array $labels = []): void
    {
        $this->values[$this->key($labels)] = $value;
    }

    /** @param list<string> $labels */
    public function add(float $by, array $labels = []): void
    {
        $key = $this->key($labels);
        $this->values[$key] = ($this->values[$key] ?? 0.0) + $by;
    }

    /** @param list<string> $labels */
    public function value(array $labels = []): float
    {
        return $this->values[$this->key($labels)] ?? 0.0;
    }

    public function family(): Family
    {
        return new Family($this->name, MetricType::Gauge, $this->help, $this->labelNames, [], $this->values);
    }

    /** @param list<string> $labels */
    private function key(array $labels): string
    {
        if (\count($labels) !== \count($this->labelNames)) {
            throw new MetricsError(\sprintf('Gauge %s takes %d label values, got %d', $this->name, \count($this->labelNames), \count($labels)));
        }

        return \implode(Family::SEPARATOR, $labels);
    }
}
