<?php

declare(strict_types=1);

namespace Spindle\Metrics;

/**
 * A worker's metrics: Spindle's own and the app's. The master adds up what every worker
 * reports and serves the sum on `--metrics` (see Aggregator, PrometheusText).
 *
 *     $orders = \Spindle\metrics()->counter('app_orders_total', 'Orders placed', ['status']);
 *     $orders->inc(['paid']);
 *     \Spindle\metrics()->histogram('app_render_seconds', 'Page render time')->observe($seconds);
 *
 * Asking again for a name returns the metric registered first (an app booted once per app
 * instance registers the same metrics each time); asking for it as another type, or with
 * other labels, is an error.
 */
final class Registry
{
    public const NAME = '/^[a-zA-Z_:][a-zA-Z0-9_:]*$/D';
    private const LABEL = '/^[a-zA-Z_][a-zA-Z0-9_]*$/D';

    /** @var array<string, Counter|Gauge|Histogram> */
    private array $metrics = [];
    /** @var array<string, \Closure(): list<Family>> figures read when collected, by key */
    private array $collectors = [];

    /**
     * Adds figures that are read when the metrics are collected (once a second, with the
     * worker's report) rather than counted as they happen: the state of a pool, say. The same
     * $key again replaces the collector. Families of one name from several collectors are
     * merged (their label values must differ).
     *
     * @param \Closure(): list<Family> $collector
     */
    public function collectWith(string $key, \Closure $collector): void
    {
        $this->collectors[$key] = $collector;
    }

    /**
     * The families of the collector registered as $key alone (none when there is no such
     * collector).
     *
     * @return list<Family>
     */
    public function collectFrom(string $key): array
    {
        $collector = $this->collectors[$key] ?? null;

        return $collector === null ? [] : $collector();
    }

    public function forget(string $key): void
    {
        unset($this->collectors[$key]);
    }

    /** @param list<string> $labelNames */
    public function counter(string $name, string $help, array $labelNames = []): Counter
    {
        $metric = $this->metrics[$name] ?? null;
        if ($metric === null) {
            $this->check($name, $labelNames);

            return $this->metrics[$name] = new Counter($name, $help, $labelNames);
        }
        if (!$metric instanceof Counter || $metric->labelNames !== $labelNames) {
            throw $this->conflict($name, 'counter', $labelNames);
        }

        return $metric;
    }

    /** @param list<string> $labelNames */
    public function gauge(string $name, string $help, array $labelNames = []): Gauge
    {
        $metric = $this->metrics[$name] ?? null;
        if ($metric === null) {
            $this->check($name, $labelNames);

            return $this->metrics[$name] = new Gauge($name, $help, $labelNames);
        }
        if (!$metric instanceof Gauge || $metric->labelNames !== $labelNames) {
            throw $this->conflict($name, 'gauge', $labelNames);
        }

        return $metric;
    }

    /**
     * @param list<string> $labelNames
     * @param list<float> $buckets
     */
    public function histogram(string $name, string $help, array $labelNames = [], array $buckets = Histogram::DEFAULT_BUCKETS): Histogram
    {
        $metric = $this->metrics[$name] ?? null;
        if ($metric === null) {
            $this->check($name, \array_merge($labelNames, ['le']), 'le');

            return $this->metrics[$name] = new Histogram($name, $help, $labelNames, $buckets);
        }
        if (!$metric instanceof Histogram || $metric->labelNames !== $labelNames) {
            throw $this->conflict($name, 'histogram', $labelNames);
        }

        return $metric;
    }

    /** @return list<Family> */
    public function collect(): array
    {
        $families = [];
        foreach ($this->metrics as $name => $metric) {
            $families[$name] = $metric->family();
        }
        foreach ($this->collectors as $collector) {
            foreach ($collector() as $family) {
                $mine = $families[$family->name] ?? null;
                if ($mine === null) {
                    $families[$family->name] = $family;
                } elseif ($mine->type === $family->type && $mine->labelNames === $family->labelNames) {
                    $families[$family->name] = $mine->withSamples($family->samples + $mine->samples);
                }
            }
        }

        return \array_values($families);
    }

    /** @param list<string> $labelNames */
    private function check(string $name, array $labelNames, ?string $reserved = null): void
    {
        if (\preg_match(self::NAME, $name) !== 1) {
            throw new MetricsError(\sprintf('"%s" is not a valid metric name', $name));
        }
        foreach ($labelNames as $label) {
            if (\preg_match(self::LABEL, $label) !== 1 || \str_starts_with($label, '__') || ($label === 'le' && $reserved === null)) {
                throw new MetricsError(\sprintf('"%s" is not a valid label name for %s', $label, $name));
            }
        }
        if (\count(\array_unique($labelNames)) !== \count($labelNames)) {
            throw new MetricsError(\sprintf('%s names a label twice', $name));
        }
    }

    /** @param list<string> $labelNames */
    private function conflict(string $name, string $type, array $labelNames): MetricsError
    {
        return new MetricsError(\sprintf('%s is already registered as another type or with other labels than %s(%s)', $name, $type, \implode(', ', $labelNames)));
    }
}
