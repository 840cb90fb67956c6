<?php

declare(strict_types=1);

namespace Spindle\Metrics;

/** Renders metric families in the Prometheus text exposition format, version 0.0.4. */
final class PrometheusText
{
    public const CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

    /** @param list<Family> $families */
    public static function render(array $families): string
    {
        $out = '';
        foreach ($families as $family) {
            $out .= '# HELP ' . $family->name . ' ' . \strtr($family->help, ['\\' => '\\\\', "\n" => '\\n']) . "\n";
            $out .= '# TYPE ' . $family->name . ' ' . $family->type->value . "\n";
            $samples = $family->samples;
            \ksort($samples, \SORT_STRING);
            foreach ($samples as $key => $value) {
                $labels = $family->labelNames === [] ? [] : \array_combine($family->labelNames, \explode(Family::SEPARATOR, (string) $key, \count($family->labelNames)) + \array_fill(0, \count($family->labelNames), ''));
                if (!\is_array($value)) {
                    $out .= $family->name . self::labels($labels) . ' ' . self::number($value) . "\n";
                    continue;
                }
                [$counts, $sum, $count] = $value;
                $cumulative = 0.0;
                foreach ($family->buckets as $i => $bound) {
                    $cumulative += $counts[$i] ?? 0.0;
                    $out .= $family->name . '_bucket' . self::labels($labels + ['le' => self::number($bound)]) . ' ' . self::number($cumulative) . "\n";
                }
                $out .= $family->name . '_bucket' . self::labels($labels + ['le' => '+Inf']) . ' ' . self::number($count) . "\n";
                $out .= $family->name . '_sum' . self::labels($labels) . ' ' . self::number($sum) . "\n";
                $out .= $family->name . '_count' . self::labels($labels) . ' ' . self::number($count) . "\n";
            }
        }

        return $out;
    }

    /** @param array<string, string> $labels */
    private static function labels(array $labels): string
    {
        if ($labels === []) {
            return '';
        }
        $parts = [];
        foreach ($labels as $name => $value) {
            $parts[] = $name . '="' . \strtr($value, ['\\' => '\\\\', '"' => '\\"', "\n" => '\\n']) . '"';
        }

        return '{' . \implode(',', $parts) . '}';
    }

    private static function number(float $value): string
    {
        if (\is_nan($value)) {
            return 'NaN';
        }
        if (\is_infinite($value)) {
            return $value > 0 ? '+Inf' : '-Inf';
        }
        if ($value == \floor($value) && \abs($value) < 1e15) {
            return \sprintf('%.0f', $value);
        }

        // The shortest form that reads back as the same number ("0.1", "1.0e-7").
        return (string) \json_encode($value, \JSON_PRESERVE_ZERO_FRACTION);
    }
}
