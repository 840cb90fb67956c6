<?php

declare(strict_types=1);

namespace Spindle\Metrics;

/**
 * One metric family as data: what a worker sends to the master and what the master renders.
 *
 * Samples are keyed by their label values joined with Family::SEPARATOR ('' without labels).
 * A counter's or gauge's sample is a number; a histogram's is [bucket counts (not cumulative,
 * the last one for +Inf), sum, count].
 */
final class Family
{
    public const SEPARATOR = "\x1f";

    /**
     * @param list<string> $labelNames
     * @param list<float> $buckets upper bounds, ascending, without +Inf (histograms only)
     * @param array<string, float|array{array<int, float>, float, float}> $samples
     */
    public function __construct(
        public readonly string $name,
        public readonly MetricType $type,
        public readonly string $help,
        public readonly array $labelNames = [],
        public readonly array $buckets = [],
        public readonly array $samples = [],
    ) {
    }

    /** @param array<string, float|array{array<int, float>, float, float}> $samples */
    public function withSamples(array $samples): self
    {
        return new self($this->name, $this->type, $this->help, $this->labelNames, $this->buckets, $samples);
    }

    /** @return array{n: string, t: string, h: string, l: list<string>, b: list<float>, s: array<string, float|array{array<int, float>, float, float}>} */
    public function toArray(): array
    {
        return ['n' => $this->name, 't' => $this->type->value, 'h' => $this->help, 'l' => $this->labelNames, 'b' => $this->buckets, 's' => $this->samples];
    }

    /** Reads what toArray() wrote (after a JSON round trip); null for anything malformed. */
    public static function fromArray(mixed $data): ?self
    {
        if (!\is_array($data) || !\is_string($data['n'] ?? null) || !\is_string($data['h'] ?? null)
            || !\is_array($data['l'] ?? null) || !\is_array($data['b'] ?? null) || !\is_array($data['s'] ?? null)) {
            return null;
        }
        $type = MetricType::tryFrom(\is_string($data['t'] ?? null) ? $data['t'] : '');
        if ($type === null || \preg_match(Registry::NAME, $data['n']) !== 1) {
            return null;
        }
        $labels = [];
        foreach ($data['l'] as $label) {
            if (!\is_string($label)) {
                return null;
            }
            $labels[] = $label;
        }
        $buckets = [];
        foreach ($data['b'] as $bound) {
            if (!\is_int($bound) && !\is_float($bound)) {
                return null;
            }
            $buckets[] = (float) $bound;
        }
        $samples = [];
        foreach ($data['s'] as $key => $value) {
            $key = (string) $key;
            if ($type !== MetricType::Histogram) {
                if (!\is_int($value) && !\is_float($value)) {
                    return null;
                }
                $samples[$key] = (float) $value;
                continue;
            }
            if (!\is_array($value) || !\is_array($value[0] ?? null) || \count($value[0]) !== \count($buckets) + 1
                || !\is_numeric($value[1] ?? null) || !\is_numeric($value[2] ?? null)) {
                return null;
            }
            $counts = [];
            foreach ($value[0] as $count) {
                if (!\is_int($count) && !\is_float($count)) {
                    return null;
                }
                $counts[] = (float) $count;
            }
            $samples[$key] = [$counts, (float) $value[1], (float) $value[2]];
        }

        return new self($data['n'], $type, $data['h'], $labels, $buckets, $samples);
    }
}
