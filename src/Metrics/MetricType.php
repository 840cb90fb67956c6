<?php

declare(strict_types=1);

namespace Spindle\Metrics;

/** The Prometheus metric types Spindle keeps; the value is the `# TYPE` word. */
enum MetricType: string
{
    case Counter = 'counter';
    case Gauge = 'gauge';
    case Histogram = 'histogram';
}
