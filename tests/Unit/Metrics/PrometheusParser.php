<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Metrics;

use PHPUnit\Framework\Assert;

/**
 * Checks Prometheus text with a real parser: the prometheus_client Python package's
 * (Debian's python3-prometheus-client; scripts/test installs it). Returns the samples it read
 * as "name{labels}" => value, labels sorted by name.
 */
final class PrometheusParser
{
    private const SCRIPT = <<<'PY'
        import sys, json
        from prometheus_client.parser import text_string_to_metric_families
        out = {}
        for family in text_string_to_metric_families(sys.stdin.read()):
            for s in family.samples:
                labels = ",".join('%s="%s"' % (k, v) for k, v in sorted(s.labels.items()))
                out[s.name + ("{" + labels + "}" if labels else "")] = s.value
            out["# TYPE " + family.name] = family.type
        print(json.dumps(out))
        PY;

    /** Debian's Python, where Debian's package is (a python3 earlier on PATH may not see it). */
    private static function python(): string
    {
        return \is_executable('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
    }

    public static function available(): bool
    {
        \exec(\escapeshellarg(self::python()) . ' -c "import prometheus_client.parser" 2>/dev/null', $output, $code);

        return $code === 0;
    }

    /** @return array<string, float|string> */
    public static function parse(string $text): array
    {
        if (!self::available()) {
            Assert::markTestSkipped('python3-prometheus-client is not installed (scripts/test installs it)');
        }
        $process = \proc_open([self::python(), '-c', self::SCRIPT], [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
        Assert::assertIsResource($process);
        \fwrite($pipes[0], $text);
        \fclose($pipes[0]);
        $out = (string) \stream_get_contents($pipes[1]);
        $err = (string) \stream_get_contents($pipes[2]);
        $code = \proc_close($process);
        Assert::assertSame(0, $code, "The Prometheus parser refused the text:\n" . $err . "\n" . $text);
        $parsed = \json_decode($out, true);
        Assert::assertIsArray($parsed);

        /** @var array<string, float|string> $parsed */
        return $parsed;
    }
}
