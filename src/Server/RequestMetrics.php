<?php

declare(strict_types=1);

namespace Spindle\Server;

use Spindle\Metrics\Family;
use Spindle\Metrics\Histogram;
use Spindle\Metrics\MetricType;
use Spindle\Metrics\Registry;

/**
 * The request metrics of a worker: `spindle_http_requests_total{method,status}` and the
 * `spindle_http_request_duration_seconds` histogram. They are counted into plain integer-keyed
 * arrays on the request path (a few array increments, no call into the registry) and turned into
 * metric families only when the worker reports, once a second.
 */
final class RequestMetrics
{
    private const METHODS = ['GET' => 0, 'HEAD' => 1, 'POST' => 2, 'PUT' => 3, 'PATCH' => 4, 'DELETE' => 5, 'OPTIONS' => 6];
    private const METHOD_NAMES = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'other'];
    private const CLASS_NAMES = ['other', '1xx', '2xx', '3xx', '4xx', '5xx'];

    /** @var array<int, int> requests by method index * 8 + status class (0 for a status outside 100-599) */
    private array $counts;
    /** @var array<int, int> durations by bucket (Histogram::DEFAULT_BUCKETS, then +Inf) */
    private array $buckets;
    private float $sum = 0.0;

    public function __construct(Registry $registry)
    {
        $this->counts = \array_fill(0, 8 * 8, 0);
        $this->buckets = \array_fill(0, \count(Histogram::DEFAULT_BUCKETS) + 1, 0);
        $registry->collectWith('spindle_http_requests', $this->families(...));
    }

    /** A request ended with $status; it began at $start (microtime). */
    public function record(string $method, int $status, float $start): void
    {
        $seconds = \microtime(true) - $start;
        $class = \intdiv($status, 100);
        ++$this->counts[(self::METHODS[$method] ?? 7) * 8 + ($class >= 1 && $class <= 5 ? $class : 0)];
        $i = 0;
        foreach (Histogram::DEFAULT_BUCKETS as $bound) {
            if ($seconds <= $bound) {
                break;
            }
            ++$i;
        }
        ++$this->buckets[$i];
        $this->sum += $seconds;
    }

    /** @return list<Family> */
    public function families(): array
    {
        $requests = [];
        foreach ($this->counts as $index => $count) {
            if ($count > 0) {
                $requests[self::METHOD_NAMES[$index >> 3] . Family::SEPARATOR . self::CLASS_NAMES[$index & 7]] = (float) $count;
            }
        }
        $total = (float) \array_sum($this->buckets);

        return [
            new Family('spindle_http_requests_total', MetricType::Counter, 'HTTP requests the app answered, by method and status class', ['method', 'status'], [], $requests),
            new Family('spindle_http_request_duration_seconds', MetricType::Histogram, 'Time from handing a request to the app until its response was complete', [], Histogram::DEFAULT_BUCKETS, [
                '' => [\array_map('floatval', $this->buckets), $this->sum, $total],
            ]),
        ];
    }
}
